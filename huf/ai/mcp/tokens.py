"""Where an MCP server's OAuth tokens live, and the address its sign-in comes back to.

``MCPTokenStore`` is the engine's TokenStore over one MCP Server: the access and refresh tokens in
their Password fields (``oauth_access_token``, ``oauth_refresh_token``), the rest of the state (the
registered client, the sign-in under way with its PKCE verifier) in the hidden Password field
``oauth_state``. ``oauth_status``, ``oauth_token_expires_at`` and what the sign-in discovered are shown.
"""

from __future__ import annotations

import datetime
import json

import frappe
from frappe.utils import convert_utc_to_system_timezone, get_url, now_datetime
from frappe.utils.password import get_decrypted_password, remove_encrypted_password, set_encrypted_password

from huf.ai.engine.mcp import OAuthState

CALLBACK_ROUTE = "/mcp-oauth-callback"
PENDING = "huf:mcp_oauth:"  # + state -> {"server", "user"}
PENDING_SECONDS = 600
TOKEN_FIELDS = ("oauth_access_token", "oauth_refresh_token")
SECRET_FIELDS = ("oauth_state", *TOKEN_FIELDS)


def redirect_uri(doc) -> str:
	return (doc.get("oauth_redirect_uri") or "").strip() or get_url(CALLBACK_ROUTE)


class MCPTokenStore:
	"""One MCP Server's OAuthState, encrypted in its Password fields."""

	def __init__(self, server: str):
		self.server = server

	def _secret(self, fieldname: str) -> str | None:
		return get_decrypted_password("MCP Server", self.server, fieldname, raise_exception=False)

	def load(self) -> OAuthState | None:
		state = OAuthState.from_json(self._secret("oauth_state"))
		access, refresh = (self._secret(f) for f in TOKEN_FIELDS)
		if access:
			state.tokens = {**(state.tokens or {}), "access_token": access, **({"refresh_token": refresh} if refresh else {})}
		return state

	def save(self, state: OAuthState) -> None:
		tokens = dict(state.tokens or {})
		values = {"oauth_access_token": tokens.pop("access_token", None), "oauth_refresh_token": tokens.pop("refresh_token", None)}
		rest = OAuthState(state.client_info, tokens or None, state.expires_at, state.pending, state.discovered)
		values["oauth_state"] = rest.to_json()
		shown = {}
		for fieldname, value in values.items():
			if value:
				set_encrypted_password("MCP Server", self.server, value, fieldname)
			else:
				remove_encrypted_password("MCP Server", self.server, fieldname)
			shown[fieldname] = "*" * 8 if value else None
		utc = state.expires_at and datetime.datetime.fromtimestamp(state.expires_at, datetime.timezone.utc)
		expires = utc and convert_utc_to_system_timezone(utc).replace(tzinfo=None)
		shown.update(
			oauth_status="Connected" if values["oauth_access_token"] else "Not Connected",
			oauth_token_expires_at=expires or None,
			**discovery_fields(state.discovered),
		)
		frappe.db.set_value("MCP Server", self.server, shown, update_modified=False)


def discovery_fields(found: dict | None) -> dict:
	"""The form's read-only record of what the last sign-in found on the server."""
	if not found:
		return {}
	metadata = found.get("metadata") or {}
	return {
		"oauth_discovery_status": "Discovered" if metadata else "Not Discovered",
		"oauth_resource_metadata_url": found.get("resource_metadata_url"),
		"oauth_authorization_server": found.get("authorization_server") or metadata.get("issuer"),
		"oauth_registration_endpoint": metadata.get("registration_endpoint"),
		"oauth_client_registration_method": {"manual": "Client ID entered here", "dynamic": "Registered by Huf"}[found["registration"]],
		"oauth_metadata_json": json.dumps(metadata, indent=1) if metadata else None,
		"oauth_last_discovered_at": now_datetime(),
	}


def cleared(status: str = "Not Connected") -> dict:
	"""The field values of a server with no tokens, no registered client and no sign-in under way.
	Empty Password fields make Frappe delete their stored secrets when a document is saved."""
	return dict.fromkeys(SECRET_FIELDS) | {"oauth_status": status, "oauth_token_expires_at": None}


def clear(server: str, status: str = "Not Connected") -> None:
	"""Forget every token, the registered client and any sign-in under way."""
	for fieldname in SECRET_FIELDS:
		remove_encrypted_password("MCP Server", server, fieldname)
	frappe.db.set_value("MCP Server", server, cleared(status), update_modified=False)
