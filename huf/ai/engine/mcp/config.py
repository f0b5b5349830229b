"""What the MCP client is given: one server's settings, the site's policy, and where OAuth state lives.

All plain values. ``check_server`` is the save-time check: it does no I/O and never starts a process,
so listing, saving or importing MCP Server rows can run it freely.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from typing import Protocol
from urllib.parse import urlsplit

TRANSPORTS = ("http", "sse", "stdio")
AUTH_KINDS = ("none", "api_key", "bearer_token", "custom_header", "oauth")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


class MCPError(Exception):
	"""A failure written for a person: what went wrong with which server, and what to do.
	``kind`` sorts it: config, dns, tls, refused, timeout, auth, sign_in, http, not_mcp, blocked,
	process, closed, protocol, tool."""

	def __init__(self, message: str, kind: str = "protocol"):
		super().__init__(message)
		self.kind = kind


@dataclass(frozen=True)
class OAuthSettings:
	"""OAuth 2.1 as the MCP authorization spec has it. ``redirect_uri`` is the site's callback route;
	it must be the same when a sign-in starts and when it finishes."""

	redirect_uri: str
	client_name: str = "Huf"
	scope: str | None = None
	# An admin's own settings, for servers that do not publish or register them (all optional):
	client_id: str | None = None  # a client registered by hand at the server; no dynamic registration then
	client_secret: str | None = None
	authorization_endpoint: str | None = None
	token_endpoint: str | None = None
	extra_params: tuple[tuple[str, str], ...] = ()  # added to the sign-in address
	token_path: str | None = None  # where the access token sits in a nested token answer, e.g. authed_user.access_token


@dataclass(frozen=True)
class Auth:
	"""``value`` is the API key or bearer token (a Password field); ``header_name`` names the header
	for api_key and custom_header (api_key defaults to X-API-Key)."""

	kind: str = "none"
	header_name: str = ""
	value: str = ""
	oauth: OAuthSettings | None = None


@dataclass
class OAuthState:
	"""What one server's OAuth sign-in keeps between runs: the registered client, the tokens and
	when the access token expires, and a sign-in under way (``pending``: state and PKCE verifier).
	Secret as a whole: the Frappe layer stores ``to_json()`` encrypted per server."""

	client_info: dict | None = None
	tokens: dict | None = None
	expires_at: float | None = None
	pending: dict | None = None
	discovered: dict | None = None  # what the last sign-in found: the authorization server's metadata, the resource's

	def to_json(self) -> str:
		return json.dumps(asdict(self))

	@classmethod
	def from_json(cls, text: str | None) -> OAuthState:
		data = json.loads(text) if text else {}
		return cls(**{key: data.get(key) for key in ("client_info", "tokens", "expires_at", "pending", "discovered")})


class TokenStore(Protocol):
	"""Where a server's OAuthState lives. The engine calls both methods only on the thread that
	called it (never on its event-loop thread), so a Frappe implementation may use the database."""

	def load(self) -> OAuthState | None: ...

	def save(self, state: OAuthState) -> None: ...


@dataclass(frozen=True)
class ServerConfig:
	"""One MCP server. ``name`` is how people know it (used in messages); ``namespace`` prefixes its
	tool names. ``headers`` are extra (name, value) pairs, values secret. stdio servers use
	``command`` (an absolute path the policy allows), ``args`` and ``env`` (the only variables the
	process gets, with PATH)."""

	name: str
	transport: str = "http"
	url: str = ""
	namespace: str = ""
	auth: Auth = field(default_factory=Auth)
	headers: tuple[tuple[str, str], ...] = ()
	timeout: float = 30.0
	command: str = ""
	args: tuple[str, ...] = ()
	env: tuple[tuple[str, str], ...] = ()
	token_store: TokenStore | None = field(default=None, compare=False, repr=False)

	@property
	def ns(self) -> str:
		return self.namespace or self.name


@dataclass(frozen=True)
class Policy:
	"""The site's rules. ``allowed_hosts``: private or loopback hosts ("host" or "host:port") an
	administrator allows; ``stdio_commands``: absolute paths of programs that may be started.
	Results are not cut here: the agent's one limit on tool results (``LoopSettings.max_context_chars``,
	the Agent's Max Context Characters) cuts them, and for MCP tools the cut text is what is stored."""

	allowed_hosts: frozenset[str] = frozenset()
	stdio_commands: frozenset[str] = frozenset()


def check_server(server: ServerConfig, policy: Policy) -> None:
	"""Raise MCPError(kind="config") naming the first thing wrong with ``server``; no I/O."""
	where = f"MCP server {server.name}"
	if server.transport not in TRANSPORTS:
		raise MCPError(f"{where}: the transport must be one of {', '.join(TRANSPORTS)}, not {server.transport!r}.", "config")
	if server.timeout <= 0:
		raise MCPError(f"{where}: the timeout must be a positive number of seconds.", "config")
	if server.transport == "stdio":
		_check_stdio(server, policy, where)
	else:
		parts = urlsplit(server.url or "")
		if parts.scheme not in ("http", "https") or not parts.hostname:
			raise MCPError(f"{where}: the Server URL must start with http:// or https:// and name a host.", "config")
	_check_auth(server, where)
	for name, _value in server.headers:
		if not _HEADER_NAME.match(name or ""):
			raise MCPError(f"{where}: {name!r} is not a valid HTTP header name.", "config")


def _check_stdio(server: ServerConfig, policy: Policy, where: str) -> None:
	command = server.command or ""
	if not os.path.isabs(command):
		raise MCPError(f"{where}: the command must be an absolute path, such as /usr/local/bin/my-mcp-server.", "config")
	if os.path.normpath(command) not in {os.path.normpath(c) for c in policy.stdio_commands}:
		raise MCPError(
			f"{where}: {command} is not an allowed command. An administrator can allow it with "
			"huf_mcp_stdio_commands in site_config.json.",
			"config",
		)
	for name, _value in server.env:
		if not _ENV_NAME.match(name or "") or name == "PATH":
			raise MCPError(f"{where}: {name!r} cannot be an environment variable name here.", "config")


def _check_auth(server: ServerConfig, where: str) -> None:
	auth = server.auth
	if auth.kind not in AUTH_KINDS:
		raise MCPError(f"{where}: the auth type must be one of {', '.join(AUTH_KINDS)}, not {auth.kind!r}.", "config")
	if auth.kind != "none" and server.transport == "stdio":
		raise MCPError(f"{where}: stdio servers take their credentials from their environment variables, not an auth type.", "config")
	if auth.kind in ("api_key", "bearer_token", "custom_header") and not auth.value:
		raise MCPError(f"{where}: the auth type {auth.kind} needs a value.", "config")
	if auth.kind == "custom_header" and not auth.header_name:
		raise MCPError(f"{where}: a custom header needs a header name.", "config")
	if auth.header_name and not _HEADER_NAME.match(auth.header_name):
		raise MCPError(f"{where}: {auth.header_name!r} is not a valid HTTP header name.", "config")
	if auth.kind == "oauth" and (auth.oauth is None or not auth.oauth.redirect_uri):
		raise MCPError(f"{where}: OAuth needs the site's redirect address.", "config")
	if auth.kind == "oauth" and server.token_store is None:
		raise MCPError(f"{where}: OAuth needs a place to keep its tokens.", "config")
	if auth.kind == "oauth":
		_check_oauth(auth.oauth, where)


def _check_oauth(settings: OAuthSettings, where: str) -> None:
	for label, url in (("sign-in address", settings.authorization_endpoint), ("token address", settings.token_endpoint)):
		if url and urlsplit(url).scheme not in ("https", "http"):
			raise MCPError(f"{where}: the OAuth {label} must start with https://, e.g. https://example.com/oauth/token.", "config")
	if settings.client_secret and not settings.client_id:
		raise MCPError(f"{where}: an OAuth client secret needs its client ID.", "config")
	if settings.token_path and not all(settings.token_path.split(".")):
		raise MCPError(f"{where}: the token response path {settings.token_path!r} must be names joined by dots, e.g. authed_user.access_token.", "config")


def auth_headers(server: ServerConfig) -> dict[str, str]:
	"""The headers every request to ``server`` carries: its own ones, then its auth header. A header
	of its own without a value (cleared when the address changed) is not sent at all, not even its name."""
	headers = {name: value for name, value in server.headers if (value or "").strip()}
	auth = server.auth
	if auth.kind == "api_key":
		headers[auth.header_name or "X-API-Key"] = auth.value
	elif auth.kind == "bearer_token":
		headers["Authorization"] = f"Bearer {auth.value}"
	elif auth.kind == "custom_header":
		headers[auth.header_name] = auth.value
	return headers


def secrets_of(server: ServerConfig, state: OAuthState | None = None) -> list[str]:
	"""Every secret value ``server`` holds, longest first (so a longer one is hidden whole)."""
	found = [server.auth.value, *(v for _n, v in server.headers), *(v for _n, v in server.env)]
	if server.auth.oauth is not None:
		found.append(server.auth.oauth.client_secret)
	if state is not None:
		found += [(state.tokens or {}).get("access_token"), (state.tokens or {}).get("refresh_token")]
		found += [(state.client_info or {}).get("client_secret"), (state.pending or {}).get("verifier")]
	return sorted({s for s in found if isinstance(s, str) and len(s) >= 4}, key=len, reverse=True)


def scrub(text: str, secrets: list[str]) -> str:
	"""``text`` with every secret replaced by [hidden]."""
	for secret in secrets:
		text = text.replace(secret, "[hidden]")
	return text
