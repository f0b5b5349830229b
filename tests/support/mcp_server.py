"""A real MCP server for the tests, written with the SDK's FastMCP.

In the test process: ``Served(build())`` runs it under uvicorn on 127.0.0.1 (a free port) in a
thread, over streamable HTTP (``/mcp``) or SSE (``/sse``), counting the initialize requests it gets.
As a program (``python tests/support/mcp_server.py stdio|http PORT``) it serves stdio, or HTTP in a
process a test can kill. It imports nothing from Huf or the tests, so it runs with only the
environment the MCP client gives it.

``AuthServer`` is an OAuth 2.1 authorization server and resource server in one (the SDK's auth
routes over an in-memory provider that approves every sign-in), for the OAuth tests.
"""


import base64
import math
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

import anyio
import httpx
import uvicorn
from mcp.server.auth.provider import AccessToken, AuthorizationCode, RefreshToken, construct_redirect_uri
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.fastmcp import Context, FastMCP, Image
from mcp.shared.auth import OAuthToken
from mcp.types import EmbeddedResource, TextResourceContents, ToolAnnotations
from starlette.responses import JSONResponse
from starlette.routing import Route

PNG = base64.b64decode(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


AWOKE: list[float] = []  # the sleep calls that finished, in a server run in this process


def build(name: str = "huf-test", **settings) -> FastMCP:
	server = FastMCP(name, log_level="ERROR", **settings)

	@server.tool(annotations=ToolAnnotations(idempotentHint=True))
	def add(a: int, b: int) -> int:
		"""Add two whole numbers."""
		return a + b

	@server.tool()
	def echo(text: str) -> str:
		"""Say the text back."""
		return text

	@server.tool()
	def fail(message: str) -> str:
		"""Always fails with the message."""
		raise ValueError(message)

	@server.tool()
	async def sleep(seconds: float) -> str:
		"""Wait, then answer."""
		await anyio.sleep(seconds)
		AWOKE.append(seconds)
		return "awake"

	@server.tool()
	def picture() -> list:
		"""A one-pixel image and an embedded text resource."""
		resource = TextResourceContents(uri="memo://note", mimeType="text/plain", text="the memo text")
		return ["here it is", Image(data=PNG, format="png"), EmbeddedResource(type="resource", resource=resource)]

	@server.tool()
	def big(chars: int) -> str:
		"""A long answer."""
		return "x" * chars

	@server.tool()
	def header(name: str, ctx: Context) -> str:
		"""The value of a request header (HTTP transports)."""
		return ctx.request_context.request.headers.get(name, "<none>")

	@server.tool()
	def env(name: str) -> str:
		"""The value of an environment variable of the server process."""
		return os.environ.get(name, "<unset>")

	@server.tool()
	def pid() -> int:
		"""The server's process id."""
		return os.getpid()

	@server.tool()
	def spawn() -> int:
		"""Start a long-lived child process in the server's process group; its pid."""
		return subprocess.Popen(["sleep", "300"]).pid

	@server.tool(name="files.read", annotations=ToolAnnotations(readOnlyHint=True))
	def files_read(path: str) -> str:
		"""A dotted tool name, read-only."""
		return f"contents of {path}"

	@server.tool(annotations=ToolAnnotations(destructiveHint=True, readOnlyHint=False))
	def wipe() -> str:
		"""A destructive tool."""
		return "wiped"

	return server


class Counting:
	"""ASGI middleware counting the MCP methods of the requests it passes on."""

	def __init__(self, app):
		self.app = app
		self.methods: Counter = Counter()

	async def __call__(self, scope, receive, send):
		async def counting_receive():
			message = await receive()
			if message.get("type") == "http.request":
				self.methods.update(m.decode() for m in re.findall(rb'"method":\s*"([^"]+)"', message.get("body", b"")))
			return message

		await self.app(scope, counting_receive if scope["type"] == "http" else receive, send)


class Served:
	"""``app`` under uvicorn in a thread; ``url`` is its base address; ``ssl``: (cert file, key file)."""

	def __init__(self, app, sock: socket.socket | None = None, ssl: tuple | None = None):
		self.sock = sock or bound_socket()
		self.port = self.sock.getsockname()[1]
		self.url = f"{'https' if ssl else 'http'}://127.0.0.1:{self.port}"
		self.app = Counting(app)
		cert, key = ssl or (None, None)
		config = uvicorn.Config(
			self.app, log_level="error", lifespan="on", timeout_graceful_shutdown=1, ssl_certfile=cert, ssl_keyfile=key
		)
		self.server = uvicorn.Server(config)
		self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

	def __enter__(self) -> "Served":
		self.thread.start()
		deadline = time.monotonic() + 10
		while not self.server.started and time.monotonic() < deadline:
			time.sleep(0.01)
		return self

	def __exit__(self, *_exc) -> None:
		self.server.should_exit = True
		self.thread.join(10)

	@property
	def initializes(self) -> int:
		return self.app.methods["initialize"]

	@property
	def methods(self) -> Counter:
		return self.app.methods


def bound_socket() -> socket.socket:
	sock = socket.socket()
	sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
	sock.bind(("127.0.0.1", 0))
	return sock


class ApproveAll:
	"""An OAuth authorization server provider in memory that approves every sign-in at once.
	``token_seconds`` is how long an access token lives."""

	def __init__(self, token_seconds: int = 3600):
		self.token_seconds = token_seconds
		self.clients, self.codes, self.access, self.refresh = {}, {}, {}, {}
		self.refreshed = 0

	async def get_client(self, client_id):
		return self.clients.get(client_id)

	async def register_client(self, client_info):
		self.clients[client_info.client_id] = client_info

	async def authorize(self, client, params):
		code = secrets.token_urlsafe(16)
		self.codes[code] = AuthorizationCode(
			code=code,
			scopes=params.scopes or [],
			expires_at=time.time() + 300,
			client_id=client.client_id,
			code_challenge=params.code_challenge,
			redirect_uri=params.redirect_uri,
			redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
			resource=params.resource,
		)
		return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

	async def load_authorization_code(self, client, code):
		return self.codes.get(code)

	async def exchange_authorization_code(self, client, code):
		del self.codes[code.code]
		return self._issue(client.client_id, code.scopes)

	async def load_refresh_token(self, client, refresh_token):
		return self.refresh.get(refresh_token)

	async def exchange_refresh_token(self, client, refresh_token, scopes):
		del self.refresh[refresh_token.token]
		self.refreshed += 1
		return self._issue(client.client_id, scopes or refresh_token.scopes)

	async def load_access_token(self, token):
		found = self.access.get(token)
		return found if found and (found.expires_at or 0) > time.time() else None

	async def revoke_token(self, token):
		self.access.pop(getattr(token, "token", ""), None)

	def _issue(self, client_id: str, scopes: list[str]) -> OAuthToken:
		access, refresh = f"at-{secrets.token_hex(16)}", f"rt-{secrets.token_hex(16)}"
		self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes, expires_at=math.ceil(time.time() + self.token_seconds))
		self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes)
		return OAuthToken(access_token=access, expires_in=self.token_seconds, refresh_token=refresh, scope=" ".join(scopes))


def auth_server(token_seconds: int = 3600, registration: bool = True) -> tuple[Served, ApproveAll]:
	"""An MCP server behind OAuth (authorization server and resource server in one), not started.
	Without ``registration`` only clients put in ``provider.clients`` by hand can sign in. Besides
	the SDK's ``/token``, ``/nested/token`` answers the same with the token inside ``authed_user``
	(as Slack does)."""
	sock = bound_socket()
	base = f"http://127.0.0.1:{sock.getsockname()[1]}"
	provider = ApproveAll(token_seconds)
	settings = AuthSettings(
		issuer_url=base,
		resource_server_url=base,  # FastMCP serves the resource metadata at the root only
		client_registration_options=ClientRegistrationOptions(enabled=registration, valid_scopes=["mcp"], default_scopes=["mcp"]),
		required_scopes=["mcp"],
	)
	server = build("huf-oauth", auth_server_provider=provider, auth=settings)
	app = server.streamable_http_app()

	async def nested_token(request):
		async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=base) as client:
			answer = await client.post("/token", content=await request.body(), headers={"content-type": request.headers["content-type"]})
		body = answer.json()
		return JSONResponse({"ok": True, "authed_user": body} if answer.status_code == 200 else body, status_code=answer.status_code)

	app.router.routes.append(Route("/nested/token", nested_token, methods=["POST"]))
	return Served(app, sock), provider


if __name__ == "__main__":
	transport = sys.argv[1]
	if transport == "stdio":
		build().run("stdio")
	else:
		uvicorn.run(build().streamable_http_app(), host="127.0.0.1", port=int(sys.argv[2]), log_level="error")
