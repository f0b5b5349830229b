"""OAuth sign-in for MCP servers: where the tokens live, Connect / Disconnect, and the callback.

``MCPTokenStore`` is the engine's TokenStore over one MCP Server: the access and refresh tokens in
their Password fields (``oauth_access_token``, ``oauth_refresh_token``), the rest of the state (the
registered client, the sign-in under way with its PKCE verifier) in the hidden Password field
``oauth_state``. ``oauth_status``, ``oauth_token_expires_at`` and ``oauth_client_id`` are shown.

Connect (``begin_mcp_sign_in``) remembers which server and person a sign-in's ``state`` belongs to
in Redis for ten minutes; the ``/mcp-oauth-callback`` page (``huf/www/mcp-oauth-callback``) hands
what came back to ``finish_callback``.
"""

from __future__ import annotations

import datetime
from urllib.parse import parse_qs, urlsplit

import frappe
from frappe import _
from frappe.utils import convert_utc_to_system_timezone, get_url
from frappe.utils.password import get_decrypted_password, remove_encrypted_password, set_encrypted_password

from huf.ai.engine.mcp import MCPError, OAuthState, begin_sign_in, finish_sign_in
from huf.permissions import is_manager

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
		rest = OAuthState(state.client_info, tokens or None, state.expires_at, state.pending)
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
			oauth_client_id=(state.client_info or {}).get("client_id"),
		)
		frappe.db.set_value("MCP Server", self.server, shown, update_modified=False)


def clear(server: str, status: str = "Not Connected") -> None:
	"""Forget every token, the registered client and any sign-in under way."""
	for fieldname in SECRET_FIELDS:
		remove_encrypted_password("MCP Server", server, fieldname)
	values = dict.fromkeys(SECRET_FIELDS) | {"oauth_status": status, "oauth_token_expires_at": None, "oauth_client_id": None}
	frappe.db.set_value("MCP Server", server, values, update_modified=False)


def _oauth_doc(server_name: str):
	from huf.ai.mcp_client import _manager_doc

	doc = _manager_doc(server_name)
	if doc.auth_type != "oauth":
		frappe.throw(_("MCP server {0} does not use OAuth; set its Auth Type to oauth first.").format(frappe.bold(doc.name)))
	return doc


@frappe.whitelist(methods=["POST"])
def begin_mcp_sign_in(server_name: str) -> dict:
	"""Managers: ``{"authorization_url"}``, where to send the person to sign in to the server."""
	from huf.ai.mcp_client import policy, server_config

	doc = _oauth_doc(server_name)
	try:
		url = begin_sign_in(server_config(doc), policy())
	except MCPError as error:
		frappe.db.set_value("MCP Server", doc.name, "oauth_status", "Failed", update_modified=False)
		frappe.throw(str(error), title=_("Sign-in could not start"))
	state = (parse_qs(urlsplit(url).query).get("state") or [""])[0]
	frappe.cache.set_value(PENDING + state, {"server": doc.name, "user": frappe.session.user}, expires_in_sec=PENDING_SECONDS)
	return {"authorization_url": url}


@frappe.whitelist(methods=["POST"])
def disconnect_mcp_server(server_name: str) -> dict:
	"""Managers: forget the server's tokens. ``{"oauth_status": "Not Connected"}``."""
	doc = _oauth_doc(server_name)
	clear(doc.name)
	return {"oauth_status": "Not Connected"}


def finish_callback(args: dict) -> dict:
	"""The callback page's work: ``{"ok", "server", "message"}`` for the page to show."""
	from huf.ai.mcp_client import policy, server_config

	state, code = args.get("state") or "", args.get("code") or ""
	pending = frappe.cache.get_value(PENDING + state, expires=True) if state else None
	if not pending:
		return {"ok": False, "server": "", "message": _("This sign-in link has expired or was already used. Start again with Connect on the MCP server.")}
	server = pending["server"]
	if frappe.session.user != pending["user"] or not is_manager():
		return {"ok": False, "server": server, "message": _("Finish the sign-in in the browser, and as the person, that started it.")}
	frappe.cache.delete_value(PENDING + state)
	if args.get("error"):
		frappe.db.set_value("MCP Server", server, "oauth_status", "Failed", update_modified=False)
		reason = args.get("error_description") or args.get("error")
		return {"ok": False, "server": server, "message": _("The sign-in was not completed: {0}").format(reason)}
	report = finish_sign_in(server_config(frappe.get_doc("MCP Server", server)), policy(), code, state)
	if not report.ok:
		frappe.db.set_value("MCP Server", server, "oauth_status", "Failed", update_modified=False)
		return {"ok": False, "server": server, "message": report.error}
	message = _("Connected to {0} {1}: {2} tools.").format(report.server_name, report.server_version, report.tool_count)
	return {"ok": True, "server": server, "message": message}
