"""The flow endpoints the reference names (``huf.ai.flow.api.*``), for the builder and other apps.
Each checks the caller's permission first, then makes one call inward, and answers a plain dict."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.flow import definitions
from huf.ai.flow.webhook import flow_webhook  # noqa: F401 - the reference's address for a flow's webhook

FIELDS = ("flow_id", "flow_name", "status", "version", "schema_version", "is_system", "updated_by", "updated_at", "modified")


def _flow(flow_id: str, ptype: str):
	if not frappe.db.exists("Flow Definition", flow_id or ""):
		frappe.throw(_("There is no flow {0}.").format(frappe.bold(flow_id or "")), frappe.DoesNotExistError)
	doc = frappe.get_doc("Flow Definition", flow_id)
	doc.check_permission(ptype)
	return doc


def _answer(doc) -> dict:
	return {**{f: doc.get(f) for f in FIELDS}, "definition": definitions.parsed(doc.definition_json)}


@frappe.whitelist()
def get_flow_definition(flow_id: str, version: int | None = None) -> dict:
	"""Whoever may read the flow: its fields and graph; with ``version``, that version's graph."""
	doc = _flow(flow_id, "read")
	answer = _answer(doc)
	if version is not None and int(version) != doc.version:
		answer.update(version=int(version), definition=definitions.definition_at(doc.name, int(version)))
	return answer


@frappe.whitelist(methods=["POST"])
def save_flow_definition(flow_id: str, definition=None, flow_name: str | None = None, status: str | None = None, note: str | None = None) -> dict:
	"""Create or update a flow (who may create or change Flow Definitions). The graph is checked as a
	whole; a changed graph becomes the next version, with ``note`` kept beside it."""
	exists = frappe.db.exists("Flow Definition", flow_id or "")
	if exists:
		doc = _flow(flow_id, "write")
	else:
		frappe.has_permission("Flow Definition", "create", throw=True)
		doc = frappe.new_doc("Flow Definition")
		doc.flow_id = flow_id
		doc.flow_name = flow_name or flow_id
	if definition is not None:
		doc.definition_json = definitions.parsed(definition)
	if flow_name:
		doc.flow_name = flow_name
	if status:
		doc.status = status
	doc.version_note = note
	doc.save()
	return _answer(doc)
