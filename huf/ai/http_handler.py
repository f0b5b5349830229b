"""The reference's ``huf.ai.http_handler`` methods for GET and POST tools.

``handle_http_request`` is the "Try this request" button of an Agent Tool Function: one request
made exactly as a model's call of that tool would be (engine/http_tool.py: the same address rules,
the tool's headers only to its Base URL, the SSRF-safe client), answered in the reference's format
``{success, status_code, headers, data, final_url}`` plus ``error`` in words when it failed.
``handle_get_request`` / ``handle_post_request`` are the same for a tool of that type. Only a user
who may change the tool may try it: the request carries the tool's secret headers."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine import http_tool
from huf.ai.outbound import check_address
from huf.ai.tools import http
from huf.capabilities import needs


def validate_url(url: str, tool_name: str | None = None) -> str:
	"""The address a request to ``url`` goes to (under ``tool_name``'s Base URL, if given); a
	ValidationError in words when a tool may not go there or its host is private or unknown."""
	base_url = None
	if tool_name:
		found = frappe.db.get_value("Agent Tool Function", tool_name, ["name", "base_url"], as_dict=True)
		if not found:
			frappe.throw(_("There is no tool named {0}.").format(frappe.bold(tool_name)), frappe.DoesNotExistError)
		base_url = found.base_url
	try:
		address = http_tool.target(base_url, url)
	except http_tool.ToolError as error:
		frappe.throw(str(error), title=_("Address Not Allowed"))
	check_address(address, frappe.bold(address), _("requests"))
	return address


@frappe.whitelist(methods=["POST"])
@needs("tool.write")
def handle_http_request(tool: str, url: str | None = None, params=None, body=None, body_format: str | None = None) -> dict:
	"""Try a GET or POST tool's request from its form; the answer the model would read."""
	doc = _tool_to_try(tool)
	return http.try_request(doc, _arguments(url, params, body, body_format))


@frappe.whitelist(methods=["POST"])
@needs("tool.write")
def handle_get_request(tool: str, url: str | None = None, params=None) -> dict:
	"""``handle_http_request`` for a GET tool."""
	doc = _tool_to_try(tool, "GET")
	return http.try_request(doc, _arguments(url, params))


@frappe.whitelist(methods=["POST"])
@needs("tool.write")
def handle_post_request(tool: str, url: str | None = None, params=None, body=None, body_format: str | None = None) -> dict:
	"""``handle_http_request`` for a POST tool."""
	doc = _tool_to_try(tool, "POST")
	return http.try_request(doc, _arguments(url, params, body, body_format))


def _tool_to_try(tool: str, method: str | None = None):
	"""The tool, if the caller may change it (permission first: Huf Users only read tools)."""
	if not frappe.has_permission("Agent Tool Function", "write"):
		frappe.throw(_("Only people who may change tools can try their requests."), frappe.PermissionError)
	doc = frappe.get_doc("Agent Tool Function", tool)
	doc.check_permission("write")
	if doc.types not in ("GET", "POST") or (method and doc.types != method):
		frappe.throw(
			_("{0} is a {1} tool; only {2} tools can be tried here.").format(frappe.bold(doc.name), doc.types, method or "GET and POST"),
			title=_("Not an HTTP Tool"),
		)
	return doc


def _arguments(url, params=None, body=None, body_format=None) -> dict:
	"""The request as a model's arguments; JSON text (as forms send it) is read first."""
	args = {"url": url or "", "params": _object(params, _("Query parameters"))}
	if body not in (None, ""):
		args["body"] = _object(body, _("Body"))
	if body_format:
		args["body_format"] = body_format
	return {key: value for key, value in args.items() if value is not None}


def _object(value, label: str) -> dict | None:
	if value in (None, ""):
		return None
	try:
		value = frappe.parse_json(value) if isinstance(value, str) else value
	except ValueError:
		value = None
	if not isinstance(value, dict):
		frappe.throw(_('{0} must be a JSON object, e.g. {{"q": "shoes"}}.').format(label), title=_("Invalid JSON"))
	return value
