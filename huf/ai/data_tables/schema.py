"""What a data table's fields may be, and what a value of each type must look like.

The rules the whitelisted methods (api.py) check before they touch the database: a field list is
refused with words a person can act on (``frappe.ValidationError``), and a CSV cell or a stored
value is converted or said to be wrong (``convert`` raises ``BadValue`` with the reason).
"""

from __future__ import annotations

import datetime
import keyword
import re

import frappe
from frappe import _
from frappe.model import child_table_fields, default_fields, no_value_fields, optional_fields
from frappe.model.document import Document

PREFIX = "HF "
FIELD_TYPES = ("Data", "Text", "Int", "Float", "Currency", "Date", "Datetime", "Check", "Select", "Link")
MAX_FIELDS = 200
MAX_TABLE_NAME = 58  # "tab" + "HF " + name fits MariaDB's 64 characters of a table name
DATA_LENGTH = 140
FIELDNAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
TABLE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]*$")
RESERVED = (
	set(default_fields)
	| set(child_table_fields)
	| set(optional_fields)
	| {frappe.scrub(t) for t in no_value_fields}
	| {"name", "owner", "creation", "modified", "modified_by", "docstatus", "idx", "doctype", "amended_from", "naming_series"}
)


class BadValue(ValueError):
	pass


def doctype_of(table_name: str) -> str:
	return PREFIX + table_name


def check_table_name(table_name: str) -> str:
	table_name = (table_name or "").strip()
	if not table_name:
		frappe.throw(_("Give the table a name."), frappe.ValidationError)
	if len(table_name) > MAX_TABLE_NAME or not TABLE_NAME.match(table_name):
		frappe.throw(
			_("The table name {0} is not allowed: use at most {1} letters, digits, spaces, - or _, starting with a letter.").format(
				frappe.bold(table_name), MAX_TABLE_NAME
			),
			frappe.ValidationError,
		)
	doctype = doctype_of(table_name)
	if frappe.db.exists("DocType", doctype) or frappe.db.exists("Huf Data Table", table_name):
		frappe.throw(
			_("A DocType named {0} already exists; choose another table name.").format(frappe.bold(doctype)), frappe.ValidationError
		)
	return table_name


def is_reserved(fieldname: str) -> bool:
	return fieldname in RESERVED or keyword.iskeyword(fieldname) or hasattr(Document, fieldname) or fieldname.startswith("_")


def clean_fields(fields) -> list[dict]:
	"""The field list as given (JSON text or a list) -> checked dicts {label, fieldname, fieldtype, options, reqd}."""
	if isinstance(fields, str):
		try:
			fields = frappe.parse_json(fields)
		except ValueError:
			frappe.throw(_("The fields must be a JSON list."), frappe.ValidationError)
	if not isinstance(fields, list):
		frappe.throw(_("The fields must be a list of {label, fieldname, fieldtype, options, reqd}."), frappe.ValidationError)
	if not fields:
		frappe.throw(_("A data table needs at least one field."), frappe.ValidationError)
	if len(fields) > MAX_FIELDS:
		frappe.throw(_("A data table can have at most {0} fields; {1} were given.").format(MAX_FIELDS, len(fields)), frappe.ValidationError)
	cleaned, seen = [], set()
	for position, field in enumerate(fields, 1):
		if not isinstance(field, dict):
			frappe.throw(_("Field {0} is not an object with a label and a fieldtype.").format(position), frappe.ValidationError)
		label = str(field.get("label") or "").strip()
		fieldname = str(field.get("fieldname") or "").strip() or frappe.scrub(label)
		if not label:
			label = fieldname.replace("_", " ").title()
		if not fieldname:
			frappe.throw(_("Field {0} needs a label.").format(position), frappe.ValidationError)
		if not FIELDNAME.match(fieldname):
			frappe.throw(
				_("The field name {0} is not allowed: use lower-case letters, digits and _, starting with a letter, at most 64.").format(
					frappe.bold(fieldname)
				),
				frappe.ValidationError,
			)
		if is_reserved(fieldname):
			frappe.throw(_("The field name {0} is reserved; choose another label or field name.").format(frappe.bold(fieldname)), frappe.ValidationError)
		if fieldname in seen:
			frappe.throw(_("Two fields are named {0}; each field needs its own name.").format(frappe.bold(fieldname)), frappe.ValidationError)
		seen.add(fieldname)
		fieldtype = field.get("fieldtype") or "Data"
		if fieldtype not in FIELD_TYPES:
			frappe.throw(
				_("The field {0} has the type {1}, which a data table does not take; use one of: {2}.").format(
					frappe.bold(label), frappe.bold(fieldtype), ", ".join(FIELD_TYPES)
				),
				frappe.ValidationError,
			)
		options = field.get("options") or ""
		if isinstance(options, list):
			options = "\n".join(str(o) for o in options)
		options = "\n".join(line.strip() for line in str(options).splitlines() if line.strip())
		if fieldtype == "Select" and not options:
			frappe.throw(_("The Select field {0} needs its choices, one per line.").format(frappe.bold(label)), frappe.ValidationError)
		if fieldtype == "Link":
			if not options:
				frappe.throw(_("The Link field {0} needs the DocType it links to.").format(frappe.bold(label)), frappe.ValidationError)
			if not frappe.db.exists("DocType", options):
				frappe.throw(
					_("The Link field {0} links to {1}, which is not a DocType on this site.").format(frappe.bold(label), frappe.bold(options)),
					frappe.ValidationError,
				)
		if fieldtype not in ("Select", "Link"):
			options = ""
		cleaned.append({"label": label, "fieldname": fieldname, "fieldtype": fieldtype, "options": options, "reqd": 1 if field.get("reqd") else 0})
	return cleaned


def docfield(field: dict, position: int) -> dict:
	row = {k: field[k] for k in ("label", "fieldname", "fieldtype", "reqd")}
	if field["options"]:
		row["options"] = field["options"]
	row["in_list_view"] = 1 if position < 5 else 0
	if field["fieldtype"] == "Check":
		row["default"] = "0"
	return row


# --- values ---------------------------------------------------------------------------------------

TRUE, FALSE = {"1", "true", "yes", "y"}, {"0", "false", "no", "n", ""}


def convert(field: dict, value):
	"""A value for ``field`` (a CSV cell, or what a column holds), as the field's type stores it;
	None for empty. Raises BadValue saying why it does not fit."""
	fieldtype = field["fieldtype"]
	if value is None or (isinstance(value, str) and not value.strip()):
		if fieldtype == "Check":
			return 0
		return None
	if fieldtype in ("Data", "Text", "Select", "Link"):
		text = value if isinstance(value, str) else str(value)
		if fieldtype == "Data" and len(text) > DATA_LENGTH:
			raise BadValue(_("is {0} characters long; at most {1} fit").format(len(text), DATA_LENGTH))
		if fieldtype == "Select" and text not in field["options"].split("\n"):
			raise BadValue(_("{0} is not one of the choices ({1})").format(text, ", ".join(field["options"].split("\n"))))
		return text
	if fieldtype == "Int":
		if isinstance(value, bool):
			return int(value)
		try:
			number = float(str(value).strip().replace(",", ""))
		except ValueError:
			raise BadValue(_("{0} is not a number").format(value)) from None
		if number != int(number):
			raise BadValue(_("{0} is not a whole number").format(value))
		return int(number)
	if fieldtype in ("Float", "Currency"):
		try:
			return float(str(value).strip().replace(",", ""))
		except ValueError:
			raise BadValue(_("{0} is not a number").format(value)) from None
	if fieldtype == "Check":
		text = str(value).strip().lower()
		if text in TRUE:
			return 1
		if text in FALSE:
			return 0
		raise BadValue(_("{0} is not 1/0 (yes/no)").format(value))
	if fieldtype == "Date":
		if isinstance(value, datetime.datetime):
			return value.date()
		if isinstance(value, datetime.date):
			return value
		try:
			return datetime.date.fromisoformat(str(value).strip())
		except ValueError:
			raise BadValue(_("{0} is not a date (YYYY-MM-DD)").format(value)) from None
	if fieldtype == "Datetime":
		if isinstance(value, datetime.datetime):
			return value
		try:
			return datetime.datetime.fromisoformat(str(value).strip())
		except ValueError:
			raise BadValue(_("{0} is not a date and time (YYYY-MM-DD HH:MM:SS)").format(value)) from None
	return value
