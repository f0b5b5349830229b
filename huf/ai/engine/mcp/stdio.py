"""The stdio transport: the SDK's framing (one JSON-RPC message a line, read by ``mcp.types``),
with process handling of our own.

Not ``mcp.client.stdio.stdio_client``, because it gives the child HOME, LOGNAME, SHELL, TERM and
USER from the worker's environment besides the declared ones, and kills the process group only when
the main process outlives the close of its stdin by 2 seconds, so whatever a server forked and left
behind survives it. Here the process gets exactly the server's declared variables plus PATH, runs
in its own session (so its own process group), and when the transport closes the whole group is
sent SIGTERM and then SIGKILL, whatever the main process did.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from contextlib import asynccontextmanager
from subprocess import PIPE

import anyio
from anyio.streams.text import TextReceiveStream
from mcp import types
from mcp.shared.message import SessionMessage

from huf.ai.engine.mcp.config import MCPError, ServerConfig

MAX_LINE = 32 * 1024 * 1024  # characters in one message; a server sending more is cut off
GRACE = 0.5  # seconds the server has to exit by itself once its stdin closes
TERM_WAIT = 1.0  # seconds between SIGTERM and SIGKILL of the group


def child_environment(server: ServerConfig) -> dict[str, str]:
	"""The only environment the server process gets (never the worker's own, which holds secrets)."""
	return {"PATH": os.environ.get("PATH", os.defpath), **dict(server.env)}


@asynccontextmanager
async def stdio_transport(server: ServerConfig):
	"""(read stream, write stream) for ClientSession. When the process ends, an MCPError saying so
	(exit code, last lines of its stderr) goes to the reader before the stream closes."""
	process = await anyio.open_process(
		[server.command, *server.args], stdin=PIPE, stdout=PIPE, stderr=PIPE, env=child_environment(server), start_new_session=True
	)
	stderr_tail: deque[str] = deque(maxlen=10)
	read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
	write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

	async def read_stdout() -> None:
		async with read_writer:
			try:
				await _read_messages(process, read_writer)
			except anyio.ClosedResourceError:
				return
			with anyio.move_on_after(GRACE):
				await process.wait()
			tail = " | ".join(stderr_tail)
			code = "still running" if process.returncode is None else f"exit code {process.returncode}"
			message = f"the server process stopped answering ({code}){f'; it said: {tail}' if tail else ''}."
			await read_writer.send(MCPError(message[:2000], "process"))

	async def read_stderr() -> None:
		async for chunk in TextReceiveStream(process.stderr, errors="replace"):
			stderr_tail.extend(line.strip()[:300] for line in chunk.splitlines() if line.strip())

	async def write_stdin() -> None:
		try:
			async with write_reader:
				async for message in write_reader:
					text = message.message.model_dump_json(by_alias=True, exclude_none=True)
					await process.stdin.send((text + "\n").encode())
		except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
			return

	try:
		async with anyio.create_task_group() as group:
			group.start_soon(read_stdout)
			group.start_soon(read_stderr)
			group.start_soon(write_stdin)
			try:
				yield read_stream, write_stream
			finally:
				group.cancel_scope.cancel()
	finally:
		with anyio.CancelScope(shield=True):
			await _end(process)


async def _read_messages(process, writer) -> None:
	buffer = ""
	async for chunk in TextReceiveStream(process.stdout, errors="replace"):
		lines = (buffer + chunk).split("\n")
		buffer = lines.pop()
		if len(buffer) > MAX_LINE:
			await writer.send(MCPError(f"the server sent a message longer than {MAX_LINE} characters.", "protocol"))
			return
		for line in lines:
			if not line.strip():
				continue
			try:
				message = types.JSONRPCMessage.model_validate_json(line)
			except Exception as error:  # noqa: BLE001 - the session turns it into a failure of the call
				await writer.send(error)
				continue
			await writer.send(SessionMessage(message))


async def _end(process) -> None:
	"""Close stdin, give the server GRACE to exit, then SIGTERM and SIGKILL its whole group."""
	try:
		await process.stdin.aclose()
	except Exception:  # noqa: BLE001 - already closed or broken: the group is ended below anyway
		pass
	with anyio.move_on_after(GRACE):
		await process.wait()
	if _signal_group(process.pid, signal.SIGTERM):
		with anyio.move_on_after(TERM_WAIT):
			await process.wait()
		_signal_group(process.pid, signal.SIGKILL)
		with anyio.move_on_after(TERM_WAIT):
			await process.wait()
	for stream in (process.stdout, process.stderr):  # read to the end: a killed child may have held them
		with anyio.move_on_after(TERM_WAIT):
			try:
				while await stream.receive():
					pass
			except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
				pass
		await stream.aclose()


def _signal_group(pgid: int, signum: int) -> bool:
	"""Whether the group still had a process to signal."""
	try:
		os.killpg(pgid, signum)
		return True
	except (ProcessLookupError, PermissionError):
		return False
