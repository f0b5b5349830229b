"""The MCP client as the synchronous rest of Huf uses it.

``MCPPool`` holds one run's sessions: the first use of a server connects (one handshake), later
calls reuse the session, ``close()`` ends them all (stdio servers with their process group). The
SDK is async, so the pool runs an event loop on a thread of its own and every public method waits
for its coroutine there, bounded by the server's timeout; a session that ends mid-call fails that
call at once. The next call to a server whose session ended connects again.

OAuth state is loaded from and saved to the server's TokenStore on the calling thread only.
Every message is scrubbed of the server's secrets; every failure of a call is a ToolError.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import httpx

import huf.ai.engine.mcp.errors as errors
import huf.ai.engine.mcp.results as results
from huf.ai.engine.effects import mcp_effect
from huf.ai.engine.mcp.config import MCPError, OAuthState, Policy, ServerConfig, auth_headers, check_server, scrub, secrets_of
from huf.ai.engine.mcp.connection import Connection
from huf.ai.engine.mcp.names import ToolSpec, specs_from
from huf.ai.engine.mcp.oauth import Redirect, StateStorage, check_callback
from huf.ai.engine.tools import Tool, ToolError, ToolOutput

# (allow, headers=, timeout=, auth=, sensitive=) -> an httpx.AsyncClient that only reaches addresses it
# checked (huf.ai.engine.safe_http.async_client)
HttpClient = Callable[..., httpx.AsyncClient]
MARGIN = 5.0  # seconds the calling thread waits beyond the loop's own deadlines


@dataclass(frozen=True)
class ConnectionReport:
	"""What Test Connection shows: the server's name, version and tools, or the error in words."""

	ok: bool
	server_name: str = ""
	server_version: str = ""
	protocol_version: str = ""
	tool_count: int = 0
	tools: list[ToolSpec] = field(default_factory=list)
	error: str = ""
	error_kind: str = ""


class MCPPool:
	def __init__(self, policy: Policy, http_client: HttpClient | None = None):
		self.policy = policy
		self._http_client = http_client or _guarded_client
		self._connections: dict[str, Connection] = {}
		self._storages: dict[str, StateStorage] = {}
		self._locks: dict[str, asyncio.Lock] = {}
		self._loop: asyncio.AbstractEventLoop | None = None
		self._thread: threading.Thread | None = None
		self._start_lock = threading.Lock()
		self._closed = False

	def __enter__(self) -> MCPPool:
		return self

	def __exit__(self, *_exc) -> None:
		self.close()

	def list_tools(self, server: ServerConfig) -> list[ToolSpec]:
		"""The server's tools as ToolSpecs (connecting if needed); MCPError when it cannot."""
		return self.report(server, raise_error=True).tools

	def report(self, server: ServerConfig, raise_error: bool = False) -> ConnectionReport:
		"""Connect (or reuse the session) and say what the server is; a failure is in the report."""
		try:
			connection = self._wait(server, self._connection(server), 2 * server.timeout)
		except MCPError as error:
			if raise_error:
				raise
			return ConnectionReport(ok=False, error=str(error), error_kind=error.kind)
		info = connection.info
		specs = specs_from(server.ns, connection.tools)
		return ConnectionReport(True, info.serverInfo.name, info.serverInfo.version, str(info.protocolVersion), len(specs), specs)

	def call_tool(self, server: ServerConfig, tool: str, arguments: dict, validate: bool = True) -> ToolOutput:
		"""Call ``tool`` (the server's own name) and return its result: text (what a model that takes
		no images reads) that also holds the images (``ToolOutput``). Not cut here: the agent's
		limit on tool results cuts it, in ``execute_tool_call``. Arguments are checked against the
		tool's input schema first (``validate``). Every failure is a ToolError."""
		try:
			return self._wait(server, self._call(server, tool, arguments, validate), 3 * server.timeout)
		except MCPError as error:
			raise ToolError(str(error)) from None

	def tools(self, server: ServerConfig, specs: list[ToolSpec]) -> list[Tool]:
		"""Engine Tools for ``specs`` (e.g. the cached, enabled ones). Nothing connects until the
		model calls one; the loop validates the arguments against the spec's schema."""
		return [
			Tool(
				spec.name, spec.description, spec.input_schema, _handler(self, server, spec.tool),
				effect=mcp_effect(spec.read_only, spec.idempotent),
			)  # fmt: skip
			for spec in specs
		]

	def begin_sign_in(self, server: ServerConfig) -> str:
		"""Start an OAuth sign-in: the authorization URL to send the person to. The verifier and state
		are saved in the server's TokenStore until ``finish_sign_in``."""
		try:
			self._wait(server, self._connection(server, "begin"), 2 * server.timeout)
		except Redirect as redirect:
			return redirect.url
		raise MCPError(f"MCP server {server.name} did not ask for a sign-in; its auth type can be none.", "config")

	def finish_sign_in(self, server: ServerConfig, code: str, state: str) -> ConnectionReport:
		"""Finish the sign-in with what the callback got; the tokens are saved, the report says
		what the server is (or why signing in failed)."""
		stored = self._state(server)
		try:
			check_callback(server, stored, state, code)
		except MCPError as error:
			return ConnectionReport(ok=False, error=str(error), error_kind=error.kind)
		self._wait(server, self._forget(server), server.timeout)
		try:
			self._wait(server, self._connection(server, "finish", code), 2 * server.timeout)
		except MCPError as error:
			return ConnectionReport(ok=False, error=str(error), error_kind=error.kind)
		return self.report(server)

	def close(self) -> None:
		"""End every session; stdio servers' process groups are killed. The pool cannot be used after."""
		with self._start_lock:
			self._closed = True
			loop, thread = self._loop, self._thread
		if loop is None:
			return
		timeout = max((c.server.timeout for c in self._connections.values()), default=1.0) + MARGIN
		future = asyncio.run_coroutine_threadsafe(self._close_all(), loop)
		try:
			future.result(timeout)
		except Exception:  # noqa: BLE001 - closing goes on whatever one session did
			future.cancel()
		loop.call_soon_threadsafe(loop.stop)
		thread.join(timeout)
		if not thread.is_alive():
			loop.close()

	# --- on the calling thread

	def _wait(self, server: ServerConfig, coroutine, timeout: float):
		"""Run ``coroutine`` on the loop and wait; every failure comes back as MCPError (or Redirect)."""
		try:
			check_server(server, self.policy)
			self._state(server)
			future = asyncio.run_coroutine_threadsafe(coroutine, self._ensure_loop())
		except BaseException:
			coroutine.close()
			raise
		try:
			return future.result(timeout + MARGIN)
		except (ToolError, Redirect):
			raise
		except BaseException as error:  # noqa: BLE001 - into words, secrets scrubbed
			future.cancel()
			cause = errors.root_cause(error)
			if isinstance(cause, ToolError | Redirect):
				raise cause from None
			raise errors.describe(error, server, self._secrets(server), server.timeout) from None
		finally:
			self._save(server)

	def _state(self, server: ServerConfig) -> OAuthState | None:
		if server.auth.kind != "oauth":
			return None
		if server.name not in self._storages:
			self._storages[server.name] = StateStorage(server.token_store.load() or OAuthState())
		return self._storages[server.name].state

	def _save(self, server: ServerConfig) -> None:
		storage = self._storages.get(server.name)
		if storage is not None and storage.dirty:
			storage.dirty = False
			server.token_store.save(storage.state)

	def _secrets(self, server: ServerConfig) -> list[str]:
		return secrets_of(server, self._state(server))

	def _ensure_loop(self) -> asyncio.AbstractEventLoop:
		with self._start_lock:
			if self._closed:
				raise MCPError("the MCP sessions of this run are already closed.", "closed")
			if self._loop is None:
				self._loop = asyncio.new_event_loop()
				self._thread = threading.Thread(target=self._loop.run_forever, name="huf-mcp", daemon=True)
				self._thread.start()
			return self._loop

	# --- on the loop

	async def _connection(self, server: ServerConfig, mode: str = "connect", code: str | None = None) -> Connection:
		lock = self._locks.setdefault(server.name, asyncio.Lock())
		async with lock:
			connection = self._connections.get(server.name)
			if connection is not None and connection.alive and _same_session(connection.server, server) and mode == "connect":
				return connection
			if connection is not None:
				await connection.close()
			storage = self._storages.get(server.name)
			if storage is not None:
				storage.fresh = mode != "connect"
			connection = Connection(server, self._factory(server), storage, mode, code)
			self._connections[server.name] = connection
			await connection.open()
			if storage is not None:
				storage.fresh = False
			return connection

	async def _call(self, server: ServerConfig, tool: str, arguments: dict, validate: bool) -> ToolOutput:
		connection = await self._connection(server)
		if validate:
			_validator(connection, server, tool).validate(arguments)
		result = await connection.request(lambda session: session.call_tool(tool, arguments), server.timeout)
		secrets = self._secrets(server)
		output = ToolOutput(scrub(part, secrets) if isinstance(part, str) else part for part in results.render(result).parts)
		if result.isError:
			raise ToolError(f"The tool {tool} of MCP server {server.name} reported an error: {output or 'it gave no details'}")
		return output

	async def _forget(self, server: ServerConfig) -> None:
		connection = self._connections.pop(server.name, None)
		if connection is not None:
			await connection.close()

	async def _close_all(self) -> None:
		await asyncio.gather(*(c.close() for c in self._connections.values()), return_exceptions=True)
		self._connections.clear()
		for _ in range(3):  # let closed subprocess pipes finish their callbacks before the loop closes
			await asyncio.sleep(0)

	def _factory(self, server: ServerConfig):
		"""The SDK's httpx_client_factory: every request of the session (OAuth discovery and token
		requests too) through the SSRF-safe client; the server's own header names are dropped
		when a redirect leaves its host."""
		allow, sensitive = self.policy.allowed_hosts, tuple(auth_headers(server))

		def make(headers=None, timeout=None, auth=None) -> httpx.AsyncClient:
			client = self._http_client(allow, headers=headers, timeout=timeout, auth=auth, sensitive=sensitive)
			client.event_hooks["response"].append(errors.expect_mcp)
			return client

		return make


def _same_session(a: ServerConfig, b: ServerConfig) -> bool:
	"""Whether a session opened for ``a`` serves ``b`` (the timeout is per call, not per session)."""
	return replace(a, timeout=0) == replace(b, timeout=0)


def _handler(pool: MCPPool, server: ServerConfig, tool: str):
	return lambda arguments: pool.call_tool(server, tool, arguments, validate=False)


def _validator(connection: Connection, server: ServerConfig, tool: str) -> Tool:
	listed = {t.name: t for t in connection.tools}
	if tool not in listed:
		known = ", ".join(sorted(listed)) or "none"
		raise ToolError(f"MCP server {server.name} has no tool named {tool!r}. Its tools: {known}.")
	if tool not in connection.validators:
		connection.validators[tool] = Tool(tool, "", listed[tool].inputSchema or {"type": "object"}, lambda _a: None)
	return connection.validators[tool]


def _guarded_client(allow, headers=None, timeout=None, auth=None, sensitive=()) -> httpx.AsyncClient:
	from huf.ai.engine.safe_http import async_client

	return async_client(allow, headers=headers, timeout=timeout, auth=auth, sensitive=sensitive)


def list_tools(server: ServerConfig, policy: Policy, http_client: HttpClient | None = None) -> list[ToolSpec]:
	"""One connection, the server's tools, closed again (Sync Tools)."""
	with MCPPool(policy, http_client) as pool:
		return pool.list_tools(server)


def test_connection(server: ServerConfig, policy: Policy, http_client: HttpClient | None = None) -> ConnectionReport:
	"""Test Connection: never raises; a bad configuration is a report too."""
	try:
		check_server(server, policy)
	except MCPError as error:
		return ConnectionReport(ok=False, error=str(error), error_kind=error.kind)
	with MCPPool(policy, http_client) as pool:
		return pool.report(server)


test_connection.__test__ = False  # not a pytest test, whatever imports it


def begin_sign_in(server: ServerConfig, policy: Policy, http_client: HttpClient | None = None) -> str:
	with MCPPool(policy, http_client) as pool:
		return pool.begin_sign_in(server)


def finish_sign_in(server: ServerConfig, policy: Policy, code: str, state: str, http_client: HttpClient | None = None) -> ConnectionReport:
	with MCPPool(policy, http_client) as pool:
		return pool.finish_sign_in(server, code, state)
