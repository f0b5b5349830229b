"""OAuth 2.1 for MCP servers, on the SDK's ``OAuthClientProvider`` (an httpx.Auth): protected-resource
metadata and authorization-server discovery, dynamic client registration, PKCE and token refresh
are the SDK's.

The SDK signs in inside one coroutine (redirect, then wait for the callback). A site cannot wait:
the person leaves with a redirect and comes back to another request, maybe another process. So the
sign-in is split in two connections, with what lies between kept in ``OAuthState.pending``:

- ``begin``: connect without tokens; when the SDK reaches the authorization step, build the
  authorization URL with our own PKCE verifier and state, keep them, and stop (``Redirect``).
- ``finish``: connect without tokens again; when the SDK reaches the authorization step, hand it
  the code the callback got and the kept verifier; the SDK exchanges them and stores the tokens.
- ``connect`` (every other connection): tokens as stored, refreshed by the SDK when expired, and
  by ``async_auth_flow`` once when the server refuses one that has not; if it would need a person,
  that is an MCPError(kind="sign_in").

``_perform_authorization`` and ``async_auth_flow`` are overridden (mcp is pinned below 1.13 for them).
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import AsyncGenerator
from urllib.parse import urlencode, urljoin

import httpx
from mcp.client.auth import OAuthClientProvider, PKCEParameters
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from huf.ai.engine.mcp.config import MCPError, OAuthState, ServerConfig


class Redirect(Exception):
	"""The begin connection stops here; ``url`` is where the person signs in."""

	def __init__(self, url: str):
		super().__init__("sign-in redirect")  # the URL is not in the message, so not in any log
		self.url = url


class StateStorage:
	"""The SDK's TokenStorage over an OAuthState held in memory. ``dirty`` says it changed and must
	be saved (by the pool, on the caller's thread). ``fresh``: ignore stored tokens (sign-in)."""

	def __init__(self, state: OAuthState, fresh: bool = False):
		self.state = state
		self.fresh = fresh
		self.dirty = False

	async def get_tokens(self) -> OAuthToken | None:
		tokens = None if self.fresh else self.state.tokens
		return OAuthToken.model_validate(tokens) if tokens else None

	async def set_tokens(self, tokens: OAuthToken) -> None:
		data = tokens.model_dump(mode="json", exclude_none=True)
		if not data.get("refresh_token") and not self.fresh:  # a refresh may not send a new one
			data["refresh_token"] = (self.state.tokens or {}).get("refresh_token")
		self.state.tokens = {k: v for k, v in data.items() if v is not None}
		self.state.expires_at = time.time() + tokens.expires_in if tokens.expires_in else None
		self.state.pending = None
		self.dirty = True

	async def get_client_info(self) -> OAuthClientInformationFull | None:
		info = self.state.client_info
		return OAuthClientInformationFull.model_validate(info) if info else None

	async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
		self.state.client_info = client_info.model_dump(mode="json", exclude_none=True)
		self.dirty = True


class Provider(OAuthClientProvider):
	"""The SDK's provider, plus what an admin may set by hand (``OAuthSettings``): a client registered
	at the server, the sign-in and token addresses, extra sign-in parameters, a nested token answer."""

	def __init__(self, server: ServerConfig, storage: StateStorage, mode: str = "connect", code: str | None = None):
		settings = server.auth.oauth
		metadata = OAuthClientMetadata(client_name=settings.client_name, redirect_uris=[settings.redirect_uri], scope=settings.scope)
		super().__init__(server.url, metadata, storage, redirect_handler=_never, callback_handler=_never)
		self.context.token_expiry_time = None if storage.fresh else storage.state.expires_at
		self.server, self.settings, self.storage, self.mode, self.code = server, settings, storage, mode, code
		self.resource_metadata_url: str | None = None

	async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
		"""The SDK's flow, plus one step: an access token the server refuses before it expires
		(revoked, rotated) is refreshed once, and the request sent again, before the SDK turns to a
		new sign-in (which on a run is "needs a person to sign in")."""
		flow = super().async_auth_flow(request)
		outgoing, retried = await flow.__anext__(), False
		while True:
			response = yield outgoing
			if outgoing is request and response.status_code == 401 and not retried and self.mode == "connect" and self.context.can_refresh_token():
				retried = True
				refreshed = yield await self._refresh_token()
				if await self._handle_refresh_response(refreshed):
					self._add_auth_header(request)
					response = yield request
			try:
				outgoing = await flow.asend(response)
			except StopAsyncIteration:
				return

	async def _discover_protected_resource(self, init_response: httpx.Response) -> httpx.Request:
		request = await super()._discover_protected_resource(init_response)
		self.resource_metadata_url = str(request.url)
		return request

	async def _initialize(self) -> None:
		await super()._initialize()
		preset, info = self.settings.client_id, self.context.client_info
		if preset and (info is None or info.client_id != preset):  # the admin's client, not a registered one
			self.context.client_info = OAuthClientInformationFull(
				client_id=preset,
				client_secret=self.settings.client_secret or None,
				token_endpoint_auth_method="client_secret_post" if self.settings.client_secret else "none",
				**self.context.client_metadata.model_dump(exclude={"token_endpoint_auth_method"}),
			)

	async def _exchange_token(self, auth_code: str, code_verifier: str) -> httpx.Request:
		return self._to_token_endpoint(await super()._exchange_token(auth_code, code_verifier))

	async def _refresh_token(self) -> httpx.Request:
		return self._to_token_endpoint(await super()._refresh_token())

	def _to_token_endpoint(self, request: httpx.Request) -> httpx.Request:
		if not self.settings.token_endpoint:
			return request
		headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}  # httpx sets the new host's
		return httpx.Request(request.method, self.settings.token_endpoint, content=request.content, headers=headers)

	async def _handle_token_response(self, response: httpx.Response) -> None:
		await super()._handle_token_response(await self._unnested(response))

	async def _handle_refresh_response(self, response: httpx.Response) -> bool:
		return await super()._handle_refresh_response(await self._unnested(response))

	async def _unnested(self, response: httpx.Response) -> httpx.Response:
		"""A token answer with the token at ``token_path`` (e.g. Slack's authed_user.access_token),
		as the SDK reads one: the object that holds ``access_token``, or the token alone."""
		if not self.settings.token_path or response.status_code != 200:
			return response
		found = json.loads(await response.aread())
		for part in self.settings.token_path.split("."):
			found = found.get(part) if isinstance(found, dict) else None
		if isinstance(found, str):
			found = {"access_token": found, "token_type": "Bearer"}
		if not isinstance(found, dict) or not found.get("access_token"):
			raise MCPError(f"the token answer has no access token at {self.settings.token_path}; check Token Response Path.", "sign_in")
		return httpx.Response(200, json={**found, "token_type": "Bearer"}, request=response.request)

	async def _perform_authorization(self) -> tuple[str, str]:
		self._remember_discovery()
		if self.mode == "finish":  # once: the session then goes on as any other
			self.mode = "connect"
			return self.code, self.storage.state.pending["verifier"]
		if self.mode != "begin":
			raise MCPError("needs a person to sign in (OAuth); use Sign in on the MCP Server.", "sign_in")
		pkce, state = PKCEParameters.generate(), secrets.token_urlsafe(32)
		self.storage.state.pending = {"state": state, "verifier": pkce.code_verifier}
		self.storage.dirty = True
		raise Redirect(self._authorization_url(pkce.code_challenge, state))

	def _remember_discovery(self) -> None:
		"""What the server published about its sign-in, for the MCP Server form (nothing secret)."""
		context = self.context
		self.storage.state.discovered = {
			"resource_metadata_url": self.resource_metadata_url,
			"authorization_server": context.auth_server_url,
			"metadata": context.oauth_metadata and context.oauth_metadata.model_dump(mode="json", exclude_none=True),
			"registration": "manual" if self.settings.client_id else "dynamic",
		}
		self.storage.dirty = True

	def _authorization_url(self, challenge: str, state: str) -> str:
		"""As the SDK's own step builds it (endpoint from the metadata, RFC 8707 resource, scope), with
		the admin's endpoint and extra parameters (which never replace the ones the flow needs)."""
		context = self.context
		endpoint = self.settings.authorization_endpoint or (context.oauth_metadata and context.oauth_metadata.authorization_endpoint)
		endpoint = str(endpoint) if endpoint else urljoin(context.get_authorization_base_url(context.server_url), "/authorize")
		params = {
			**dict(self.settings.extra_params),
			"response_type": "code",
			"client_id": context.client_info.client_id,
			"redirect_uri": str(context.client_metadata.redirect_uris[0]),
			"state": state,
			"code_challenge": challenge,
			"code_challenge_method": "S256",
		}
		if context.should_include_resource_param(context.protocol_version):
			params["resource"] = context.get_resource_url()
		if context.client_metadata.scope:
			params["scope"] = context.client_metadata.scope
		return f"{endpoint}{'&' if '?' in endpoint else '?'}{urlencode(params)}"


def check_callback(server: ServerConfig, state: OAuthState, returned_state: str, code: str) -> None:
	"""The callback belongs to the sign-in under way for ``server``, or MCPError(kind="sign_in")."""
	pending = state.pending or {}
	if not code or not pending.get("state") or not secrets.compare_digest(str(returned_state or ""), pending["state"]):
		raise MCPError(f"MCP server {server.name}: this sign-in link is not the latest one; start the sign-in again.", "sign_in")


async def _never(*_args) -> tuple[str, str | None]:
	raise MCPError("the authorization step is handled by Provider", "sign_in")


class _QuietRedirect(logging.Filter):
	"""The SDK logs every exception of its flow as an error; stopping for the redirect is not one."""

	def filter(self, record: logging.LogRecord) -> bool:
		error = record.exc_info[1] if record.exc_info else None
		return not isinstance(error, Redirect | MCPError)


logging.getLogger("mcp.client.auth").addFilter(_QuietRedirect())
