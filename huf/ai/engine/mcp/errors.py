"""Any failure talking to an MCP server, as an MCPError in words a person can act on.

The SDK and httpx raise from inside task groups, so the real cause is found first (through
exception groups and ``__cause__`` chains); secrets are scrubbed from every message.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys

import httpx
from mcp.client.auth import OAuthFlowError, OAuthRegistrationError
from mcp.shared.exceptions import McpError
from mcp.types import CONNECTION_CLOSED
from pydantic import ValidationError

from huf.ai.engine.mcp.config import MCPError, ServerConfig, scrub
from huf.ai.engine.safe_http import SafeHTTPError

if sys.version_info < (3, 11):
	from exceptiongroup import BaseExceptionGroup

GUARD_KINDS = {"not_found": "dns", "refused": "blocked", "unreachable": "refused"}  # SafeHTTPError.kind -> ours
NOT_MCP = "answered, but not as an MCP server; check that the Server URL is its MCP endpoint (often ending in /mcp or /sse) and the transport type"


def describe(error: BaseException, server: ServerConfig, secrets: list[str], timeout: float | None = None) -> MCPError:
	cause = root_cause(error)
	if isinstance(cause, MCPError):
		what, kind = str(cause), cause.kind
		what = what.removeprefix(f"MCP server {server.name}: ")
	else:
		what, kind = _words(cause, server, timeout)
	return MCPError(scrub(f"MCP server {server.name}: {what}", secrets), kind)


async def expect_mcp(response: httpx.Response) -> None:
	"""httpx response hook: MCP answers are JSON or an event stream (or empty). Anything else, such as
	a web page, fails the connection at once; the SDK's SSE transport would wait on it forever. A
	404 before there is a session is a wrong address (the SDK takes every 404 for an expired session).
	Only MCP's own requests are judged: the OAuth ones (discovery, registration, tokens) say their
	own errors."""
	request = response.request
	if not _is_mcp(request):
		return
	if response.status_code == 404 and request.method == "POST" and "mcp-session-id" not in request.headers:
		raise httpx.HTTPStatusError("404", request=request, response=response)
	kind = response.headers.get("content-type", "").split(";")[0].strip()
	if 200 <= response.status_code < 300 and response.status_code not in (202, 204) and not kind.endswith(("json", "event-stream")):
		raise MCPError(f"{NOT_MCP} (it sent {kind or 'no content type'}).", "not_mcp")


def _is_mcp(request: httpx.Request) -> bool:
	"""A JSON-RPC message, or the event stream an MCP session listens on."""
	if request.method == "GET":
		return "text/event-stream" in request.headers.get("accept", "")
	return request.method == "POST" and b'"jsonrpc"' in request.content[:200]


def root_cause(error: BaseException) -> BaseException:
	"""The first meaningful exception inside groups (cancellations are only echoes of it)."""
	if isinstance(error, BaseExceptionGroup):
		inner = [root_cause(e) for e in error.exceptions]
		meaningful = [e for e in inner if not _is_cancel(e)]
		return (meaningful or inner)[0]
	return error


def _words(error: BaseException, server: ServerConfig, timeout: float | None) -> tuple[str, str]:
	host = httpx.URL(server.url).host if server.url else server.command
	chain = _chain(error)
	if isinstance(error, OAuthRegistrationError):
		return "does not let Huf register itself for sign-in; enter the Client ID (and Client Secret) of a client registered at the server.", "sign_in"
	if isinstance(error, OAuthFlowError):
		return f"the sign-in failed ({error}); check the Client ID, Client Secret and Token Endpoint, then sign in again.", "sign_in"
	if isinstance(error, SafeHTTPError):
		return str(error), GUARD_KINDS.get(error.kind, error.kind)
	if isinstance(error, httpx.HTTPStatusError):
		return _status(error.response.status_code, server)
	if any(isinstance(e, socket.gaierror) for e in chain) or "Name or service not known" in str(error):
		return f"the host {host} was not found (DNS); check the Server URL.", "dns"
	if any(isinstance(e, ssl.SSLError) for e in chain) or "SSL" in str(error):
		return f"the secure connection (TLS) to {host} failed: {_tls_reason(chain, error)}.", "tls"
	if any(isinstance(e, ConnectionRefusedError) for e in chain) or "Connection refused" in str(error):
		return f"{host} refused the connection; is the server running at that address and port?", "refused"
	if isinstance(error, httpx.TimeoutException | TimeoutError):
		return f"did not answer within {timeout or server.timeout:g} seconds.", "timeout"
	if isinstance(error, McpError):
		if error.error.code == CONNECTION_CLOSED:
			return "the connection closed before the server answered (the server may have stopped).", "closed"
		if error.error.code == 408:
			return f"did not answer within {timeout or server.timeout:g} seconds.", "timeout"
		return f"the server answered with an error: {error.error.message}", "protocol"
	if type(error).__name__ == "SSEError" or isinstance(error, ValidationError):
		return NOT_MCP + ".", "not_mcp"
	if isinstance(error, ValueError) and str(error).startswith("Unexpected content type"):
		return f"{NOT_MCP} ({str(error).lower()}).", "not_mcp"
	if isinstance(error, httpx.TransportError | ConnectionError | httpx.StreamError):
		return f"the connection failed or broke ({_name(error)}).", "closed"
	if isinstance(error, FileNotFoundError | PermissionError):
		return f"the command {server.command} could not be started ({error.strerror}).", "process"
	return f"failed unexpectedly ({_name(error)}).", "protocol"


def _status(code: int, server: ServerConfig) -> tuple[str, str]:
	if code == 401:
		hint = "sign in again with OAuth" if server.auth.kind == "oauth" else "check the auth type and its value"
		return f"refused the credentials (HTTP 401); {hint}.", "auth"
	if code == 403:
		return "refused access (HTTP 403); the credentials do not allow this.", "auth"
	if code in (404, 405):
		return f"has no MCP endpoint at {server.url} (HTTP {code}); check the Server URL and the transport type.", "not_mcp"
	return f"answered HTTP {code}.", "http"


def _tls_reason(chain: list[BaseException], error: BaseException) -> str:
	for e in chain:
		if isinstance(e, ssl.SSLCertVerificationError):
			return f"its certificate could not be verified ({e.verify_message})"
	return str(error) or "the handshake failed"


def _chain(error: BaseException) -> list[BaseException]:
	seen: list[BaseException] = []
	while error is not None and error not in seen:
		seen.append(error)
		error = error.__cause__ or error.__context__
	return seen


def _is_cancel(error: BaseException) -> bool:
	return isinstance(error, asyncio.CancelledError) or type(error).__name__ == "ClosedResourceError"


def _name(error: BaseException) -> str:
	text = str(error)
	return f"{type(error).__name__}: {text}" if text else type(error).__name__
