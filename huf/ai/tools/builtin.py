"""Huf's own tools, registered through the ``huf_tools`` hook like any app's."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import get_system_timezone, now_datetime

from huf.ai.engine.tools import ToolError


def describe_doctype(doctype: str) -> dict:
	"""The fields of a DocType that you can read: use it before creating or filtering documents.

	Args:
		doctype: The DocType's name, e.g. Sales Order.
	"""
	if not frappe.db.exists("DocType", doctype):
		raise ToolError(_("There is no DocType named {0}.").format(doctype))
	if not frappe.has_permission(doctype, "read"):
		raise ToolError(_("You do not have permission to read {0}.").format(doctype))
	meta = frappe.get_meta(doctype)
	permitted = set(meta.get_permitted_fieldnames(permission_type="read"))
	fields = [
		{"fieldname": df.fieldname, "label": df.label, "fieldtype": df.fieldtype, "options": df.options, "reqd": df.reqd}
		for df in meta.fields
		if df.fieldname in permitted and df.fieldtype not in ("Section Break", "Column Break", "Tab Break", "HTML", "Button")
	]
	return {"doctype": doctype, "is_submittable": bool(meta.is_submittable), "fields": fields}


def get_current_datetime() -> dict:
	"""The current date and time on this site, with its time zone."""
	return {"now": now_datetime().isoformat(sep=" ", timespec="seconds"), "time_zone": get_system_timezone()}


BUILTIN_TOOLS = [
	{
		"tool_name": "describe_doctype",
		"description": "List the fields of a DocType that the current user can read (names, types, options, required). "
		"Use it before creating, updating or filtering documents of that type.",
		"function_path": "huf.ai.tools.builtin.describe_doctype",
		"parameters": [{"fieldname": "doctype", "type": "string", "required": 1, "description": "The DocType, e.g. Sales Order."}],
	},
	{
		"tool_name": "get_current_datetime",
		"description": "The current date and time on this site, with its time zone.",
		"function_path": "huf.ai.tools.builtin.get_current_datetime",
		"parameters": [],
	},
	{
		"tool_name": "ocr_document",
		"description": "Extract the text of a document or image on this site: PDF (scanned too, where the provider reads them), "
		"Word, Excel, PowerPoint, HTML, text files, and images through a vision model. Pass file_id when you have it. "
		"Returns the text in Markdown, page by page, with the file's SHA-256 (file_hash).",
		"function_path": "huf.ai.tools.ocr.ocr_document",
		"parameters": [
			{"fieldname": "file_id", "type": "string", "description": "The File's ID (preferred)."},
			{"fieldname": "file_url", "type": "string", "description": "The file's address, e.g. /private/files/invoice.pdf."},
			{"fieldname": "pages", "type": "string", "description": "Comma-separated 0-based page numbers of a PDF, e.g. 0,1,2. Empty for all."},
			{"fieldname": "include_images", "type": "boolean", "description": "Also return embedded images (PDF OCR only)."},
			{"fieldname": "model", "type": "string", "description": "An AI Model to use for OCR or vision instead of the agent's."},
		],
	},
]

# Where Huf's tool functions used to be (old dotted path -> where it lives now). Tools that still
# name an old path keep working (``custom.allowed_function`` follows this), and the patch
# ``huf.patches.move_tool_function_paths`` rewrites stored tools to the new path.
MOVED_FUNCTIONS = {
	"huf.ai.sdk_tools.handle_ocr_document": "huf.ai.tools.ocr.ocr_document",
}
