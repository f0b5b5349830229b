"""Whitelisted methods for the Knowledge Source form and the web app. Each checks permission
first, then makes one call inward."""

from __future__ import annotations

import hashlib

import frappe
from frappe import _

from huf.ai.knowledge import indexer, retriever
from huf.capabilities import needs

SOURCE_FIELDS = [
	"name",
	"source_name",
	"description",
	"knowledge_type",
	"status",
	"total_inputs",
	"indexed_inputs",
	"chunk_count",
	"last_indexed",
	"last_error",
	"modified",
]
INPUT_FIELDS = [
	"name",
	"input_type",
	"title",
	"status",
	"error",
	"chunk_count",
	"duplicate_of",
	"file",
	"url",
	"indexed_at",
	"creation",
]


def _check(source: str, ptype: str = "read") -> None:
	if not frappe.db.exists("Knowledge Source", source or ""):
		frappe.throw(_("There is no knowledge source named {0}.").format(frappe.bold(source or "")), frappe.DoesNotExistError)
	frappe.has_permission("Knowledge Source", ptype, doc=source, throw=True)


@frappe.whitelist()
@needs("knowledge.read")
def get_sources() -> list[dict]:
	"""The sources the caller may read, with their indexing progress (the web app's list)."""
	frappe.has_permission("Knowledge Source", "read", throw=True)
	rows = frappe.get_list("Knowledge Source", fields=SOURCE_FIELDS, order_by="modified desc", limit_page_length=500)
	failed = dict(
		frappe.get_all(
			"Knowledge Input",
			{"status": "Error", "knowledge_source": ("in", [r.name for r in rows] or [""])},
			["knowledge_source", "count(*)"],
			group_by="knowledge_source",
			as_list=True,
		)
	)
	for row in rows:
		row["failed_inputs"] = failed.get(row.name, 0)
	return rows


@frappe.whitelist()
@needs("knowledge.read")
def get_source(source: str) -> dict:
	"""One source with its inputs and their status (the web app's source page)."""
	_check(source)
	row = {**frappe.get_list("Knowledge Source", filters={"name": source}, fields=SOURCE_FIELDS)[0], **indexer.status_of(source)}
	row["inputs"] = frappe.get_list(
		"Knowledge Input",
		filters={"knowledge_source": source},
		fields=INPUT_FIELDS,
		order_by="creation desc",
		limit_page_length=1000,
	)
	row["can_write"] = bool(frappe.has_permission("Knowledge Source", "write", doc=source))
	return row


@frappe.whitelist(methods=["POST"])
@needs("knowledge.write")
def add_input(
	source: str,
	input_type: str,
	text: str | None = None,
	url: str | None = None,
	file_url: str | None = None,
	title: str | None = None,
) -> dict:
	"""Add a file, pasted text or a web address to a source; it is indexed in the background.
	Pasted text already in the source is not added twice: the existing input comes back."""
	_check(source, "write")
	frappe.has_permission("Knowledge Input", "create", throw=True)
	if input_type not in ("File", "Text", "URL"):
		frappe.throw(_("Input Type must be File, Text or URL."))
	if input_type == "Text" and text:
		digest = hashlib.sha256(text.encode()).hexdigest()
		twin = frappe.db.get_value(
			"Knowledge Input", {"knowledge_source": source, "source_hash": digest}, INPUT_FIELDS, as_dict=True
		)
		if twin:
			return {**twin, "already_there": True}
	doc = frappe.get_doc(
		{
			"doctype": "Knowledge Input",
			"knowledge_source": source,
			"input_type": input_type,
			"title": title,
			"text": text,
			"url": url,
			"file": file_url,
		}
	)
	doc.insert()
	return {field: doc.get(field) for field in INPUT_FIELDS}


@frappe.whitelist(methods=["POST"])
@needs("knowledge.write")
def rebuild_index(source: str) -> dict:
	"""Rebuild the source's index from its inputs; searches use the current index until the new
	one is complete."""
	_check(source, "write")
	indexer.enqueue_rebuild(source)
	return {"status": "Rebuilding"}


@frappe.whitelist()
@needs("knowledge.read")
def get_index_status(source: str) -> dict:
	"""Progress of the source's indexing (what the realtime event carries, for polling)."""
	_check(source)
	return indexer.status_of(source)


@frappe.whitelist()
@needs("knowledge.read")
def test_search(source: str, query: str, limit: int = 5) -> dict:
	"""Search one source as an agent would (the form's Test Search)."""
	_check(source)
	if not (query or "").strip():
		frappe.throw(_("Type what to search for."))
	hits = retriever.search([source], query, int(limit or 5))
	return {"results": [retriever.as_result(h) for h in hits]}
