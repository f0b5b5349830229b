"""The function definition a model sees for an Agent Tool Function, derived on save."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine import http_tool
from huf.ai.engine.schema import object_schema, schema_from_callable, schema_from_params
from huf.ai.tools.builtin import STT_PARAMETERS
from huf.ai.tools.custom import allowed_function

NAME = {"type": "string", "description": "The document's name (ID)."}
FIELDTYPE_JSON = {
	"Int": "integer", "Float": "number", "Currency": "number", "Percent": "number", "Check": "boolean",
	"Table": "array", "Table MultiSelect": "array", "JSON": "object",
}
SKIP_FIELDTYPES = {"Section Break", "Column Break", "Tab Break", "HTML", "Button", "Image", "Fold", "Heading"}
STT_PROPERTIES = {row["fieldname"]: {"type": row["type"], "description": row["description"]} for row in STT_PARAMETERS}
FILTERS = {
	"description": 'Conditions, e.g. {"status": "Open"} or [["grand_total", ">", 1000]].',
	"anyOf": [{"type": "object"}, {"type": "array"}],
}


def build_function_definition(doc) -> dict:
	"""{"name", "description", "parameters"} for ``doc`` (an Agent Tool Function)."""
	description = doc.description or ""
	if doc.types in ("GET", "POST"):  # Parameters rows, if any, shape the query (GET) or the body (POST)
		fields = schema_from_params(row.as_dict() for row in doc.parameters) if doc.get("parameters") else None
		parameters = http_tool.parameters(doc.types, doc.base_url, fields)
	elif doc.get("parameters"):
		parameters = schema_from_params(row.as_dict() for row in doc.parameters)
	elif doc.types in ("Custom Function", "App Provided"):
		function = allowed_function(doc.function_path, (doc.provider_app or "") if doc.types == "App Provided" else None)
		derived_description, parameters = schema_from_callable(function)
		description = description or derived_description
	else:
		parameters = derived_parameters(doc.types, doc.reference_doctype, doc.get("agent"))
	return {"name": doc.tool_name, "description": description, "parameters": parameters}


def derived_parameters(types: str, doctype: str | None, agent: str | None = None) -> dict:
	data = {"type": "object", "description": f"Field values of the {doctype}.", "properties": doctype_properties(doctype)}
	names = {"type": "array", "items": {"type": "string"}, "description": "Names (IDs) of the documents."}
	shapes = {
		"Get Document": ({"name": NAME}, ["name"]),
		"Get Multiple Documents": ({"names": names}, ["names"]),
		"Get List": (
			{
				"filters": FILTERS,
				"fields": {"type": "array", "items": {"type": "string"}, "description": "Fields to return; default: name."},
				"order_by": {"type": "string", "description": "e.g. modified desc"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "At most this many rows (default 20)."},
				"start": {"type": "integer", "minimum": 0},
			},
			[],
		),
		"Create Document": ({"data": data}, ["data"]),
		"Create Multiple Documents": ({"documents": {"type": "array", "items": data}}, ["documents"]),
		"Update Document": ({"name": NAME, "data": dict(data, description="Only the fields to change.")}, ["name", "data"]),
		"Update Multiple Documents": (
			{"documents": {"type": "array", "items": object_schema({"name": NAME, "data": {"type": "object"}}, ["name", "data"])}},
			["documents"],
		),
		"Delete Document": ({"name": NAME}, ["name"]),
		"Delete Multiple Documents": ({"names": names}, ["names"]),
		"Submit Document": ({"name": NAME}, ["name"]),
		"Cancel Document": ({"name": NAME}, ["name"]),
		"Get Amended Document": ({"name": dict(NAME, description="Name of the cancelled document to amend.")}, ["name"]),
		"Get Value": (
			{
				"name": NAME,
				"filters": FILTERS,
				"fieldname": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
			},
			["fieldname"],
		),
		"Set Value": ({"name": NAME, "fieldname": {"type": "string"}, "value": {}}, ["name", "fieldname", "value"]),
		"Get Report Result": (
			{"report_name": {"type": "string"}, "filters": {"type": "object", "description": "The report's filters."}},
			["report_name"],
		),
		"Attach File to Document": (
			{
				"name": dict(NAME, description="The document to attach the file to."),
				"file_url": {"type": "string", "description": "URL of a file already on this site, e.g. /private/files/a.pdf"},
				"file_name": {"type": "string"},
				"content_base64": {"type": "string", "description": "The file's content, base64-encoded (at most 10 MB)."},
				"is_private": {"type": "boolean"},
			},
			["name"],
		),
		"Run Agent": (
			{"prompt": {"type": "string", "description": f"What you want the {agent or 'other'} agent to do."}},
			["prompt"],
		),
		"Speech to Text": (STT_PROPERTIES, []),
	}
	if types not in shapes:
		frappe.throw(_("Tools of type {0} are not available yet.").format(frappe.bold(types)))
	properties, required = shapes[types]
	return object_schema(properties, required)


def doctype_properties(doctype: str | None) -> dict:
	"""A property per settable field of ``doctype``, typed, with Select options as an enum."""
	if not doctype:
		return {}
	properties = {}
	for df in frappe.get_meta(doctype).fields:
		if df.fieldtype in SKIP_FIELDTYPES or df.read_only or df.hidden:
			continue
		prop: dict = {"type": FIELDTYPE_JSON.get(df.fieldtype, "string")}
		label = df.label or df.fieldname
		if df.fieldtype in ("Link", "Dynamic Link") and df.options:
			label += f" (name of a {df.options})"
		elif df.fieldtype in ("Date", "Datetime"):
			label += " (YYYY-MM-DD" + (" HH:MM:SS)" if df.fieldtype == "Datetime" else ")")
		elif df.fieldtype == "Select" and df.options:
			prop["enum"] = [option for option in df.options.split("\n") if option]
		if df.reqd:
			label += "; required"
		if prop["type"] == "array":
			prop["items"] = {"type": "object"}
		prop["description"] = label
		properties[df.fieldname] = prop
	return properties
