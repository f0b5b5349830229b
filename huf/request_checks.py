"""Frappe's own write endpoints, on Huf's records, refused in Huf's words (``auth_hooks`` in
hooks.py: Frappe calls them once it knows the request's user, from a session or an API key).

Creating, changing or deleting a Huf record through the REST API (``/api/resource``, ``/api/v2/document``),
``frappe.client`` or a Desk form is decided by Frappe's role rules; a refusal there only says the
role lacks access. When the person holds no capability that grants that right
(``capabilities.DOCTYPE_RIGHTS``), this answers first with the 403 ``require`` gives, which names
the capability to ask for. Anyone holding one goes on to Frappe's own checks, which still decide.
"""

from __future__ import annotations

import json
from urllib.parse import unquote

import frappe

from huf.capabilities import DOCTYPE_RIGHTS
from huf.permissions import has_capability, require

RESOURCE = ("/api/resource/", "/api/v1/resource/", "/api/v2/document/")
LETTER = {"POST": "c", "PUT": "w", "PATCH": "w", "DELETE": "d"}
CLIENT = {
	"frappe.client.insert": "c",
	"frappe.client.insert_many": "c",
	"frappe.client.save": "w",
	"frappe.client.set_value": "w",
	"frappe.client.delete": "d",
	"frappe.client.rename_doc": "w",
	"frappe.desk.reportview.delete_items": "d",
}


def _granting() -> dict[tuple[str, str], list[str]]:
	"""(DocType, right letter) -> the capabilities that grant it."""
	table: dict[tuple[str, str], list[str]] = {}
	for capability, rights in DOCTYPE_RIGHTS.items():
		for doctype, letters in rights.items():
			for letter in letters:
				table.setdefault((doctype, letter), []).append(capability)
	return table


GRANTING = _granting()


def explain_refused_write() -> None:
	request = frappe.request
	if request.method in ("GET", "HEAD", "OPTIONS") or frappe.session.user in ("Administrator", "Guest", ""):
		return  # a Guest (or a key that did not sign in) is Frappe's to refuse, with its own status
	target = _target(request.path, request.method)
	if not target:
		return
	capabilities = GRANTING.get(target)
	if capabilities and not any(has_capability(None, capability) for capability in capabilities):
		require(capabilities[0])


def _target(path: str, method: str) -> tuple[str, str] | None:
	"""(DocType, right letter) a write request asks for, when it is one of Frappe's write endpoints."""
	for prefix in RESOURCE:
		if path.startswith(prefix):
			parts = path[len(prefix) :].strip("/").split("/")
			if method == "POST" and len(parts) > 1:  # a document's method, not a write
				return None
			letter = LETTER.get(method)
			return (unquote(parts[0]), letter) if letter else None
	if path.startswith("/api/method/"):
		method_name = path[len("/api/method/") :].strip("/")
		if method_name == "frappe.desk.form.save.savedocs":
			doc = _json(frappe.form_dict.get("doc"))
			return (doc.get("doctype"), "c" if doc.get("__islocal") else "w") if doc else None
		letter = CLIENT.get(method_name)
		if letter:
			doc = _json(frappe.form_dict.get("doc"))
			return (frappe.form_dict.get("doctype") or doc.get("doctype"), letter)
	return None


def _json(value) -> dict:
	if isinstance(value, dict):
		return value
	try:
		parsed = json.loads(value) if value else {}
	except ValueError:
		return {}
	return parsed if isinstance(parsed, dict) else {}
