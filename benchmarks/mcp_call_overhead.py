"""What Huf adds to one MCP tool call, against the same call made directly with the SDK.

The tests' FastMCP server runs as its own process (streamable HTTP on 127.0.0.1, or stdio). Direct:
a ``ClientSession`` on the SDK's own transport, the call awaited and timed inside the event loop.
Huf: ``MCPPool.call_tool`` timed from the calling thread (the thread hop to the pool's loop, schema
validation, the SSRF-safe client, result rendering, scrubbing and capping). Both sessions are
opened once (one handshake each) and warmed; then the two calls alternate, round after round.

    python benchmarks/mcp_call_overhead.py [--rounds 300] [--transport http|stdio]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

from huf.ai.engine.mcp import MCPPool, Policy, ServerConfig
from tests.support.ports import free_port, wait_for_port

SERVER = str(ROOT / "tests" / "support" / "mcp_server.py")
ARGS = {"a": 20, "b": 22}


class Direct:
	"""The SDK alone, on an event loop in a thread; ``call()`` returns the time measured in the loop.
	One task holds the session open (anyio wants it closed by the task that opened it)."""

	def __init__(self, transport: str, url: str):
		self.loop = asyncio.new_event_loop()
		threading.Thread(target=self.loop.run_forever, daemon=True).start()
		self.ready = threading.Event()
		self.owner = asyncio.run_coroutine_threadsafe(self._own(transport, url), self.loop)
		if not self.ready.wait(30):
			raise SystemExit(f"the direct session did not open: {self.owner.exception(0)}")

	async def _own(self, transport: str, url: str) -> None:
		self.stop = asyncio.Event()
		async with AsyncExitStack() as stack:
			if transport == "http":
				read, write, _ = await stack.enter_async_context(streamablehttp_client(url))
			else:
				params = StdioServerParameters(command=sys.executable, args=[SERVER, "stdio"])
				read, write = await stack.enter_async_context(stdio_client(params))
			self.session = await stack.enter_async_context(ClientSession(read, write))
			await self.session.initialize()
			await self.session.list_tools()
			self.ready.set()
			await self.stop.wait()

	async def _timed_call(self) -> float:
		started = time.perf_counter()
		result = await self.session.call_tool("add", ARGS)
		elapsed = time.perf_counter() - started
		assert result.content[0].text == "42", result
		return elapsed

	def call(self) -> float:
		return asyncio.run_coroutine_threadsafe(self._timed_call(), self.loop).result(30)

	def close(self) -> None:
		self.loop.call_soon_threadsafe(self.stop.set)
		self.owner.result(30)
		self.loop.call_soon_threadsafe(self.loop.stop)


def huf_call(pool: MCPPool, server: ServerConfig) -> float:
	started = time.perf_counter()
	text = pool.call_tool(server, "add", ARGS)
	elapsed = time.perf_counter() - started
	assert text == "42", text
	return elapsed


def ms(values: list[float], q: float) -> float:
	return statistics.quantiles(values, n=100)[int(q) - 1] * 1000 if q != 50 else statistics.median(values) * 1000


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=300)
	parser.add_argument("--transport", choices=("http", "stdio"), default="http")
	args = parser.parse_args()
	process = None
	if args.transport == "http":
		port = free_port()
		process = subprocess.Popen([sys.executable, SERVER, "http", str(port)], stderr=subprocess.DEVNULL)
		if not wait_for_port(port):
			raise SystemExit(f"the MCP server did not start on port {port}")
		url = f"http://127.0.0.1:{port}/mcp"
		server = ServerConfig(name="bench", url=url, namespace="bench")
	else:
		url = ""
		server = ServerConfig(name="bench", transport="stdio", command=sys.executable, args=(SERVER, "stdio"))
	policy = Policy(allowed_hosts=frozenset({"127.0.0.1"}), stdio_commands=frozenset({sys.executable}))
	direct, pool = Direct(args.transport, url), MCPPool(policy)
	try:
		for _ in range(20):  # warm: sessions open, first-call caches filled
			direct.call()
			huf_call(pool, server)
		plain, huf = [], []
		for _ in range(args.rounds):
			plain.append(direct.call())
			huf.append(huf_call(pool, server))
	finally:
		pool.close()
		direct.close()
		if process is not None:
			process.kill()
	added = [h - p for h, p in zip(huf, plain)]
	print(f"transport: {args.transport}, rounds: {args.rounds} (alternating), one handshake each")
	print(f"direct SDK call:   median {ms(plain, 50):.2f} ms (p10 {ms(plain, 10):.2f}, p90 {ms(plain, 90):.2f})")
	print(f"through MCPPool:   median {ms(huf, 50):.2f} ms (p10 {ms(huf, 10):.2f}, p90 {ms(huf, 90):.2f})")
	print(f"added by Huf:      median {ms(added, 50):.2f} ms per call (paired; p10 {ms(added, 10):.2f}, p90 {ms(added, 90):.2f})")
	print(f"ratio:             {statistics.median(huf) / statistics.median(plain):.2f}x")


if __name__ == "__main__":
	main()
