"""/mcp-oauth-callback: where an MCP server's sign-in comes back (Connect on the MCP Server form).

Signed-in people only (the sign-in belongs to the manager who started it); the work is
``huf.ai.mcp.oauth.finish_callback``. A plain page says how it went and links back to the server."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.mcp.oauth import finish_callback

no_cache = 1


def get_context(context):
	if frappe.session.user == "Guest":
		back = frappe.request.path + "?" + frappe.request.query_string.decode()
		frappe.local.flags.redirect_location = "/login?redirect-to=" + frappe.utils.quote(back)
		raise frappe.Redirect(302)
	context.no_cache = 1
	result = finish_callback(dict(frappe.form_dict))
	frappe.db.commit()  # the tokens (or the failure) are kept whatever the page does next
	context.ok = result["ok"]
	context.message = result["message"]
	context.server = result["server"]
	context.title = _("Connected") if result["ok"] else _("Sign-in failed")
	return context
