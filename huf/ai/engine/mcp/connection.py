"""One live MCP session with one server, on the pool's event loop.

A task of its own (``_own``) enters the transport and the SDK's ``ClientSession``, does the
initialize handshake, lists the tools, and then holds both open until ``close``: anyio needs a
context to be left by the task that entered it, while calls come from other tasks. Whatever ends
the session (the transport failing, the server process exiting, a message it cannot read) settles
``ended``, and every call waiting on the session fails with it at once instead of waiting for its
timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

from mcp import ClientSession, types
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamablehttp_client

from huf.ai.engine.mcp.config import MCPError, ServerConfig, auth_headers
from huf.ai.engine.mcp.oauth import Provider, StateStorage
from huf.ai.engine.mcp.stdio import stdio_transport

CLIENT = types.Implementation(name="huf", version="1")
LIST_PAGES = 50  # tools/list pages read at most (a server paging forever is cut off)


class Connection:
	def __init__(self, server: ServerConfig, http_factory, storage: StateStorage | None = None, mode: str = "connect", code=None):
		self.server = server
		self.http_factory = http_factory  # the SDK's McpHttpClientFactory: headers, timeout, auth -> AsyncClient
		self.storage = storage
		self.mode, self.code = mode, code
		self.session: ClientSession | None = None
		self.info: types.InitializeResult | None = None
		self.tools: list[types.Tool] = []
		self.validators: dict = {}  # tool name -> engine Tool checking arguments against its schema
		self._ready: asyncio.Future = asyncio.get_running_loop().create_future()
		self.ended: asyncio.Future = asyncio.get_running_loop().create_future()
		self.ended.add_done_callback(lambda f: f.exception())  # read, so asyncio never warns about it
		self._stop = asyncio.Event()
		self._task: asyncio.Task | None = None

	@property
	def alive(self) -> bool:
		return self.session is not None and not self.ended.done()

	async def open(self) -> None:
		"""Handshake and tool list within the server's timeout; raises what stopped them."""
		self._task = asyncio.create_task(self._own())
		done, _ = await asyncio.wait({self._ready, self.ended}, timeout=self.server.timeout, return_when=asyncio.FIRST_COMPLETED)
		if self._ready in done:
			return
		if self.ended in done:
			await self.close()
			if not isinstance(self.ended.exception(), _Closed):
				raise self.ended.exception()
		else:
			# A server silent for the whole timeout is given up on now: waiting for the session to end
			# (close) would wait the timeout once more, for an answer that is not coming.
			self._stop.set()
			self._task.cancel()
			await asyncio.gather(self._task, return_exceptions=True)
		raise TimeoutError

	async def request(self, call: Callable[[ClientSession], Awaitable[Any]], timeout: float) -> Any:
		"""``call(session)`` (one request), failing when the session ends or ``timeout`` passes first.
		On a timeout the server is told the request is cancelled, so it can stop working on it."""
		if not self.alive:
			raise self.ended.exception() if self.ended.done() else MCPError("the session is not open.", "closed")
		session, sent = self.session, []

		async def tracked() -> Any:
			# The id the SDK gives the request it sends next: nothing awaits between here and there.
			sent.append(session._request_id)
			return await call(session)

		task = asyncio.create_task(tracked())
		done, _ = await asyncio.wait({task, self.ended}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
		if task in done:
			return task.result()
		task.cancel()
		if self.ended.done():
			raise self.ended.exception()
		if sent:
			await _cancel(session, sent[0], timeout)
		raise TimeoutError

	async def close(self) -> None:
		self._stop.set()
		if self._task is not None and not self._task.done():
			try:
				await asyncio.wait_for(asyncio.shield(self._task), self.server.timeout)
			except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - a session that will not end is cancelled
				self._task.cancel()
				await asyncio.gather(self._task, return_exceptions=True)

	async def _own(self) -> None:
		try:
			async with AsyncExitStack() as stack:
				streams = await stack.enter_async_context(self._transport())
				session = ClientSession(streams[0], streams[1], message_handler=self._on_message, client_info=CLIENT)
				session = await stack.enter_async_context(session)
				self.info = await session.initialize()
				self.tools = await _list_tools(session)
				self.session = session
				self._ready.set_result(None)
				await self._stop.wait()
		except asyncio.CancelledError:
			self._end(_Closed())
			raise
		except BaseException as error:  # noqa: BLE001 - whatever ended the session is what its calls fail with
			self._end(error)
		finally:
			self._end(_Closed())

	def _transport(self):
		server = self.server
		if server.transport == "stdio":
			return stdio_transport(server)
		auth = Provider(server, self.storage, self.mode, self.code) if server.auth.kind == "oauth" else None
		headers = auth_headers(server)
		if server.transport == "sse":
			return sse_client(server.url, headers, server.timeout, 300, httpx_client_factory=self.http_factory, auth=auth)
		return streamablehttp_client(server.url, headers, server.timeout, 300, httpx_client_factory=self.http_factory, auth=auth)

	async def _on_message(self, message) -> None:
		if isinstance(message, Exception) and not _late_answer(message):
			self._end(message)

	def _end(self, error: BaseException) -> None:
		if not self.ended.done():
			self.ended.set_exception(error)


class _Closed(MCPError):
	def __init__(self):
		super().__init__("the session was closed.", "closed")


async def _cancel(session: ClientSession, request_id: int, timeout: float) -> None:
	"""MCP's notifications/cancelled for a request given up on after ``timeout`` seconds; a server
	that cannot take it is left be (within the same time, at most 5 seconds)."""
	params = types.CancelledNotificationParams(requestId=request_id, reason=f"no answer within {timeout:g} seconds")
	notice = types.ClientNotification(types.CancelledNotification(method="notifications/cancelled", params=params))
	try:
		await asyncio.wait_for(session.send_notification(notice), min(timeout, 5.0))
	except Exception:  # noqa: BLE001 - the call has already failed with its timeout; this is a courtesy
		pass


async def _list_tools(session: ClientSession) -> list[types.Tool]:
	tools, cursor = [], None
	for _ in range(LIST_PAGES):
		page = await session.list_tools(cursor)
		tools += page.tools
		cursor = page.nextCursor
		if not cursor:
			break
	return tools


def _late_answer(error: Exception) -> bool:
	"""An answer to a call that already timed out: the session itself is fine."""
	return isinstance(error, RuntimeError) and "unknown request ID" in str(error)
