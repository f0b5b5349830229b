"""OAuth sign-in for MCP servers: Connect / Disconnect, and the callback (the tokens live in
``huf/ai/mcp/tokens.py``).

Connect (``begin_mcp_sign_in``) remembers which server and person a sign-in's ``state`` belongs to
in Redis for ten minutes; the ``/mcp-oauth-callback`` page (``huf/www/mcp-oauth-callback``) hands
what came back to ``finish_callback``.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import frappe
from frappe import _

from huf.ai.engine.mcp import MCPError, begin_sign_in, finish_sign_in
from huf.ai.mcp.client import _manager_doc, policy, server_config
from huf.ai.mcp.tokens import PENDING, PENDING_SECONDS, clear
from huf.capabilities import needs
from huf.permissions import has_capability


def _oauth_doc(server_name: str):
	doc = _manager_doc(server_name)
	if doc.auth_type != "oauth":
		frappe.throw(_("MCP server {0} does not use OAuth; set its Auth Type to oauth first.").format(frappe.bold(doc.name)))
	return doc


@frappe.whitelist(methods=["POST"])
@needs("tool.mcp.write")
def begin_mcp_sign_in(server_name: str) -> dict:
	"""``{"authorization_url"}``, where to send the person to sign in to the server."""
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
@needs("tool.mcp.write")
def disconnect_mcp_server(server_name: str) -> dict:
	"""Forget the server's tokens. ``{"oauth_status": "Not Connected"}``."""
	doc = _oauth_doc(server_name)
	clear(doc.name)
	return {"oauth_status": "Not Connected"}


def finish_callback(args: dict) -> dict:
	"""The callback page's work: ``{"ok", "server", "message"}`` for the page to show."""
	state, code = args.get("state") or "", args.get("code") or ""
	pending = frappe.cache.get_value(PENDING + state, expires=True) if state else None
	if not pending:
		return {"ok": False, "server": "", "message": _("This sign-in link has expired or was already used. Start again with Connect on the MCP server.")}
	server = pending["server"]
	if frappe.session.user != pending["user"] or not has_capability(None, "tool.mcp.write"):
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
