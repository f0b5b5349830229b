"""The ``get_doctype_schema`` tool (also answering as ``describe_doctype``): a DocType's fields as
the run's user may read them, with the static hints apps ship for it (``tools/hints.py``)."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.tools import ToolError
from huf.ai.tools.hints import hints_for

LAYOUT = ("Section Break", "Column Break", "Tab Break", "HTML", "Button", "Fold", "Heading")
TABLES = ("Table", "Table MultiSelect")


def get_doctype_schema(doctype: str) -> dict:
	"""The fields of a DocType that you can read, with guidance on using it: use it before creating
	or filtering documents.

	Args:
		doctype: The DocType's name, e.g. Sales Order.
	"""
	if not frappe.db.exists("DocType", doctype):
		raise ToolError(_("There is no DocType named {0}.").format(doctype))
	if not frappe.has_permission(doctype, "read"):
		raise ToolError(_("You do not have permission to read {0}.").format(doctype))
	meta = frappe.get_meta(doctype)
	answer = {"doctype": doctype, "is_submittable": bool(meta.is_submittable), "fields": readable_fields(meta)}
	return answer | hints_for(doctype)


def readable_fields(meta, parenttype: str | None = None) -> list[dict]:
	"""The fields of ``meta`` the user may read (fields of a permission level they lack are left
	out); a table's rows' fields under ``table_fields``."""
	permitted = set(meta.get_permitted_fieldnames(parenttype=parenttype, permission_type="read"))
	# Frappe lists only fields with a column; a table is readable at a level where those are
	levels = {df.permlevel for df in meta.fields if df.fieldname in permitted}
	fields = []
	for df in meta.fields:
		readable = df.fieldname in permitted or (df.fieldtype in TABLES and df.permlevel in levels)
		if not readable or df.fieldtype in LAYOUT:
			continue
		field = {"fieldname": df.fieldname, "label": df.label, "fieldtype": df.fieldtype, "options": df.options, "reqd": df.reqd}
		if df.fieldtype in TABLES and df.options and not parenttype:
			field["table_fields"] = readable_fields(frappe.get_meta(df.options), parenttype=meta.name)
		fields.append(field)
	return fields
