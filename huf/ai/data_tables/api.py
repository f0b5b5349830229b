"""Data tables: a Huf Data Table registry row and the custom DocType "HF <table name>" that holds
its rows (custom = 1, module Huf: no files are written). Creating, changing and deleting tables
needs ``table.write``; looking at them and their rows ``table.read``; the rows themselves follow
Frappe's permissions (the DocType's DocPerms: System Manager, the table's owner role, its reader
role), so every row read and write here goes through the caller's permissions.

Creating a DocType is DDL, which MariaDB commits by itself: everything is checked before the
first write, and a failure after it takes back what was made (the DocType, its table and the
registry row), so nothing is left half made.
"""

from __future__ import annotations

import csv
import io

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.data_tables.schema import (
	BadValue,
	check_table_name,
	clean_fields,
	convert,
	docfield,
	doctype_of,
)
from huf.capabilities import has_capability, needs

DEFAULT_OWNER_ROLE, DEFAULT_READER_ROLE = "Huf Manager", "Huf User"
ALL_RIGHTS = dict.fromkeys(("read", "write", "create", "delete", "report", "export", "import", "share", "print", "email"), 1)
NO_RIGHTS = dict.fromkeys(("read", "write", "create", "delete", "submit", "cancel", "amend", "report", "export", "import", "share", "print", "email"), 0)
EXAMPLES = 5
CHUNK = 500  # rows per INSERT statement of an import


# --- tables ---------------------------------------------------------------------------------------


def _registry(name: str):
	"""The Huf Data Table for a table name (or its DocType name "HF <name>"); 404 when there is none."""
	found = frappe.db.get_value("Huf Data Table", name, "name") or frappe.db.get_value("Huf Data Table", {"doctype_name": name}, "name")
	if not found:
		frappe.throw(_("There is no data table named {0}.").format(frappe.bold(name)), frappe.DoesNotExistError)
	return frappe.get_doc("Huf Data Table", found)


def _fields(doctype: str) -> list[dict]:
	meta = frappe.get_meta(doctype)
	return [
		{"label": df.label, "fieldname": df.fieldname, "fieldtype": df.fieldtype, "options": df.options or "", "reqd": df.reqd}
		for df in meta.fields
		if df.fieldtype not in frappe.model.no_value_fields
	]


def _perms(owner_role: str, reader_role: str) -> list[dict]:
	perms = [dict(NO_RIGHTS, role="System Manager", **ALL_RIGHTS)]
	perms.append(dict(NO_RIGHTS, role=owner_role, read=1, write=1, create=1, delete=1, report=1, export=1, **{"import": 1}))
	if reader_role != owner_role and reader_role != "System Manager":
		perms.append(dict(NO_RIGHTS, role=reader_role, read=1, report=1, export=1))
	return perms


def _role(role: str | None, default: str, what: str) -> str:
	role = (role or "").strip() or default
	if not frappe.db.exists("Role", role):
		frappe.throw(_("The {0} {1} is not a Role on this site.").format(what, frappe.bold(role)), frappe.ValidationError)
	return role


def _autoname(autoname_method: str, title_field_name: str | None, fields: list[dict]) -> str:
	names = {f["fieldname"] for f in fields}
	if title_field_name and title_field_name not in names:
		frappe.throw(_("The title field {0} is not one of the table's fields.").format(frappe.bold(title_field_name)), frappe.ValidationError)
	if autoname_method == "Autoincrement":
		return "autoincrement"
	if autoname_method == "Field":
		if not title_field_name:
			frappe.throw(_("Naming by a field needs the title field to name rows by."), frappe.ValidationError)
		return f"field:{title_field_name}"
	frappe.throw(_("Naming is Autoincrement or Field, not {0}.").format(frappe.bold(autoname_method)), frappe.ValidationError)


def _drop(doctype: str) -> None:
	"""The DocType and its table, gone (used on delete and to take back a failed create)."""
	if frappe.db.exists("DocType", doctype):
		frappe.delete_doc("DocType", doctype, force=True, ignore_permissions=True)
	frappe.db.sql_ddl(f"drop table if exists `tab{doctype}`")
	frappe.db.sql_ddl(f"drop sequence if exists `{frappe.scrub(doctype + '_id_seq')}`")
	frappe.cache.hdel("table_columns", f"tab{doctype}")
	frappe.clear_cache(doctype=doctype)


def _readable_rows(doctype: str, filters=None) -> int:
	"""The rows of ``doctype`` the caller may read, counted (frappe.get_list: their DocPerms and
	user permissions apply)."""
	return frappe.get_list(doctype, fields=["count(name) as total"], filters=filters or {})[0].total


def _row_count(doctype: str) -> int:
	"""Every row for who may change the table (deleting it deletes them all), else the rows the
	caller may read."""
	if has_capability(None, "table.write"):
		return frappe.db.count(doctype)
	return _readable_rows(doctype) if frappe.has_permission(doctype, "read") else 0


def _as_dict(table, with_fields: bool = True) -> dict:
	out = {
		"name": table.name,
		"table_name": table.table_name,
		"doctype": table.doctype_name,
		"description": table.description or "",
		"icon": table.icon or "",
		"field_count": table.field_count,
		"autoname_method": table.autoname_method,
		"title_field_name": table.title_field_name or "",
		"owner_role": table.owner_role or DEFAULT_OWNER_ROLE,
		"reader_role": table.reader_role or DEFAULT_READER_ROLE,
		"modified": table.modified,
		"row_count": _row_count(table.doctype_name),
	}
	if with_fields:
		out["fields"] = _fields(table.doctype_name)
		out["tools"] = _tools_using(table.doctype_name)
	return out


def _tools_using(doctype: str) -> list[str]:
	"""The agent tools that act on the table (its delete question names them), for who may see tools."""
	if not has_capability(None, "tool.read"):
		return []
	return frappe.get_all("Agent Tool Function", filters={"reference_doctype": doctype}, pluck="name", order_by="name asc", ignore_permissions=True)


@frappe.whitelist(methods=["POST"])
@needs("table.write")
def create_data_table(
	table_name: str,
	fields,
	description: str = "",
	autoname_method: str = "Autoincrement",
	title_field_name: str | None = None,
	owner_role: str | None = None,
	reader_role: str | None = None,
	icon: str | None = None,
) -> dict:
	table_name = check_table_name(table_name)
	cleaned = clean_fields(fields)
	title_field_name = (title_field_name or "").strip() or None
	autoname = _autoname(autoname_method or "Autoincrement", title_field_name, cleaned)
	owner_role = _role(owner_role, DEFAULT_OWNER_ROLE, _("owner role"))
	reader_role = _role(reader_role, DEFAULT_READER_ROLE, _("reader role"))
	if autoname.startswith("field:"):
		for field in cleaned:
			if field["fieldname"] == title_field_name:
				field["reqd"] = 1
	doctype = doctype_of(table_name)
	spec = {
		"doctype": "DocType",
		"name": doctype,
		"module": "Huf",
		"custom": 1,
		"allow_import": 1,
		"autoname": autoname,
		"naming_rule": "Autoincrement" if autoname == "autoincrement" else "By fieldname",
		"title_field": title_field_name,
		"show_title_field_in_link": 1 if title_field_name else 0,
		"search_fields": title_field_name,
		"sort_field": "creation",
		"sort_order": "DESC",
		"description": description or "",
		"fields": [dict(docfield(field, i), unique=1 if autoname == f"field:{field['fieldname']}" else 0) for i, field in enumerate(cleaned)],
		"permissions": _perms(owner_role, reader_role),
	}
	try:
		frappe.get_doc(spec).insert(ignore_permissions=True)
		frappe.get_doc(
			{
				"doctype": "Huf Data Table",
				"table_name": table_name,
				"doctype_name": doctype,
				"description": description or "",
				"icon": icon or "",
				"field_count": len(cleaned),
				"autoname_method": "Field" if autoname.startswith("field:") else "Autoincrement",
				"title_field_name": title_field_name,
				"owner_role": owner_role,
				"reader_role": reader_role,
			}
		).insert(ignore_permissions=True)
	except Exception:
		frappe.db.rollback()
		frappe.flags.huf_data_table_deleting = True
		try:
			frappe.db.delete("Huf Data Table", {"table_name": table_name})
			_drop(doctype)
			frappe.db.commit()
		finally:
			frappe.flags.huf_data_table_deleting = False
		raise
	return {"name": table_name, "doctype": doctype}


# --- changing a table -----------------------------------------------------------------------------


def _filled(doctype: str, fieldname: str, fieldtype: str):
	"""Rows whose column holds a value: (count, examples)."""
	column = f"`{fieldname}`"
	where = f"{column} is not null and {column} != 0" if fieldtype == "Check" else f"{column} is not null and {column} != ''"
	count = frappe.db.sql(f"select count(*) from `tab{doctype}` where {where}")[0][0]
	examples = [r[0] for r in frappe.db.sql(f"select {column} from `tab{doctype}` where {where} limit {EXAMPLES}")]
	return count, examples


def _unfit(doctype: str, old: dict, new: dict):
	"""Stored values of ``old`` that the changed field ``new`` cannot keep: [(name, value, converted or None)]."""
	column = f"`{old['fieldname']}`"
	rows = frappe.db.sql(f"select name, {column} from `tab{doctype}` where {column} is not null and {column} != ''")
	links = None
	if new["fieldtype"] == "Link":
		links = set(frappe.get_all(new["options"], pluck="name", ignore_permissions=True)) if frappe.db.exists("DocType", new["options"]) else set()
	lost = []
	for name, value in rows:
		if old["fieldtype"] in ("Float", "Currency") and new["fieldtype"] == "Int":
			if float(value) != int(float(value)):
				lost.append((name, value, int(float(value))))
			continue
		try:
			converted = convert(new, value)
		except BadValue:
			if new["fieldtype"] == "Data" and isinstance(value, str):
				lost.append((name, value, value[:140]))
			else:
				lost.append((name, value, None))
			continue
		if links is not None and converted not in links:
			lost.append((name, value, None))
	return lost


def _what(old: dict, new: dict) -> str:
	if new["fieldtype"] == "Data" and old["fieldtype"] != "Data":
		return _("values longer than 140 characters would be cut to 140")
	if old["fieldtype"] in ("Float", "Currency") and new["fieldtype"] == "Int":
		return _("fractional values would lose their decimals")
	if new["fieldtype"] == "Select":
		return _("values that are not among the choices would be cleared")
	if new["fieldtype"] == "Link":
		return _("values that are not {0} records would be cleared").format(new["options"])
	return _("values that are not a valid {0} would be cleared").format(new["fieldtype"])


@frappe.whitelist(methods=["POST"])
@needs("table.write")
def update_data_table(
	name: str,
	fields,
	description: str | None = None,
	title_field_name: str | None = None,
	confirm=0,
	owner_role: str | None = None,
	reader_role: str | None = None,
) -> dict:
	"""Adds, changes and removes fields (``fields`` is the whole new list; a field keeps its data by
	keeping its fieldname). A change that would lose data is only made with ``confirm=1``; without
	it the answer lists the losses and nothing changes. ``owner_role`` / ``reader_role``, when given,
	become who may change and who may read the rows."""
	table = _registry(name)
	owner_role = _role(owner_role, table.owner_role or DEFAULT_OWNER_ROLE, _("owner role")) if owner_role is not None else None
	reader_role = _role(reader_role, table.reader_role or DEFAULT_READER_ROLE, _("reader role")) if reader_role is not None else None
	doctype = table.doctype_name
	cleaned = clean_fields(fields)
	old = {f["fieldname"]: f for f in _fields(doctype)}
	new = {f["fieldname"]: f for f in cleaned}
	if title_field_name is None:
		title_field_name = table.title_field_name
	title_field_name = (title_field_name or "").strip() or None
	if title_field_name and title_field_name not in new:
		frappe.throw(_("The title field {0} is not one of the table's fields.").format(frappe.bold(title_field_name)), frappe.ValidationError)
	if table.autoname_method == "Field":
		if table.title_field_name not in new:
			frappe.throw(_("Rows are named by {0}; that field cannot be removed.").format(frappe.bold(table.title_field_name)), frappe.ValidationError)
		if title_field_name != table.title_field_name:
			frappe.throw(_("Rows are named by {0}; the title field stays that field.").format(frappe.bold(table.title_field_name)), frappe.ValidationError)
		new[table.title_field_name]["reqd"] = 1

	losses, removed, fixes = [], [], []
	for fieldname, field in old.items():
		if fieldname not in new:
			count, examples = _filled(doctype, fieldname, field["fieldtype"])
			removed.append(fieldname)
			if count:
				losses.append({"field": fieldname, "what": _("the field would be removed with its values"), "rows": count, "examples": examples})
			continue
		changed = new[fieldname]
		if (changed["fieldtype"], changed["options"]) == (field["fieldtype"], field["options"]):
			continue
		lost = _unfit(doctype, field, changed)
		if lost:
			losses.append({"field": fieldname, "what": _what(field, changed), "rows": len(lost), "examples": [value for _n, value, _c in lost[:EXAMPLES]]})
			fixes.append((fieldname, lost))
	if losses and not frappe.utils.cint(confirm):
		return {"needs_confirmation": True, "losses": losses}

	# the values that cannot stay are changed first, so the column's new type takes the rest
	for fieldname, lost in fixes:
		for row, _value, converted in lost:
			frappe.db.sql(f"update `tab{doctype}` set `{fieldname}` = %s where name = %s", (converted, row))
	meta_doc = frappe.get_doc("DocType", doctype)
	meta_doc.set("fields", [dict(docfield(field, i), unique=1 if meta_doc.autoname == f"field:{field['fieldname']}" else 0) for i, field in enumerate(cleaned)])
	meta_doc.title_field = title_field_name
	meta_doc.show_title_field_in_link = 1 if title_field_name else 0
	meta_doc.search_fields = title_field_name
	if description is not None:
		meta_doc.description = description
	if owner_role or reader_role:
		table.owner_role = owner_role or table.owner_role or DEFAULT_OWNER_ROLE
		table.reader_role = reader_role or table.reader_role or DEFAULT_READER_ROLE
		meta_doc.set("permissions", _perms(table.owner_role, table.reader_role))
	meta_doc.save(ignore_permissions=True)
	for fieldname in removed:  # Frappe keeps a removed field's column; a removed field's data goes with it
		if frappe.db.has_column(doctype, fieldname):
			frappe.db.sql_ddl(f"alter table `tab{doctype}` drop column `{fieldname}`")
	frappe.cache.hdel("table_columns", f"tab{doctype}")
	roles = {"owner_role": table.owner_role, "reader_role": table.reader_role}
	table.reload()
	table.update(roles)
	table.field_count = len(cleaned)
	table.title_field_name = title_field_name
	if description is not None:
		table.description = description
	table.save(ignore_permissions=True)
	frappe.clear_cache(doctype=doctype)
	return {"name": table.name, "doctype": doctype, "losses": losses, "applied": True}


@frappe.whitelist(methods=["POST"])
@needs("table.write")
def delete_data_table(name: str) -> dict:
	table = _registry(name)
	frappe.flags.huf_data_table_deleting = True
	try:
		frappe.delete_doc("Huf Data Table", table.name, force=True, ignore_permissions=True)
		_drop(table.doctype_name)
	finally:
		frappe.flags.huf_data_table_deleting = False
	return {"name": table.name, "doctype": table.doctype_name, "deleted": True}


@frappe.whitelist()
@needs("table.read")
def get_data_table(name: str) -> dict:
	return _as_dict(_registry(name))


@frappe.whitelist()
@needs("table.read")
def list_data_tables() -> list[dict]:
	names = frappe.get_all("Huf Data Table", pluck="name", order_by="table_name asc", ignore_permissions=True)
	return [_as_dict(frappe.get_doc("Huf Data Table", n), with_fields=False) for n in names]


@frappe.whitelist()
@needs("table.read")
def count_rows(name: str) -> int:
	"""How many rows the caller may read (a 403 for who may read none, as ``list_rows``)."""
	return _readable_rows(_registry(name).doctype_name)


# --- rows -----------------------------------------------------------------------------------------


def _order_by(order_by: str | None, fieldnames: set[str]) -> str:
	if not order_by:
		return "creation desc"
	parts = str(order_by).strip().split()
	column = parts[0].strip("`")
	direction = parts[1].lower() if len(parts) > 1 else "asc"
	if column not in fieldnames | {"name", "creation", "modified", "owner"} or direction not in ("asc", "desc") or len(parts) > 2:
		frappe.throw(_("Rows can be sorted by one of the table's fields, asc or desc; not by {0}.").format(frappe.bold(order_by)), frappe.ValidationError)
	return f"`{column}` {direction}"


@frappe.whitelist()
@needs("table.read")
def list_rows(name: str, filters=None, order_by: str | None = None, start: int = 0, page_length: int = 20) -> dict:
	"""One page of rows as the caller may read them (frappe.get_list: their DocPerms apply)."""
	table = _registry(name)
	fieldnames = [f["fieldname"] for f in _fields(table.doctype_name)]
	filters = frappe.parse_json(filters) if isinstance(filters, str) and filters else (filters or {})
	rows = frappe.get_list(
		table.doctype_name,
		fields=["name", *fieldnames, "owner", "creation", "modified"],
		filters=filters,
		order_by=_order_by(order_by, set(fieldnames)),
		start=frappe.utils.cint(start),
		page_length=frappe.utils.cint(page_length),
	)
	total = _readable_rows(table.doctype_name, filters)
	return {"rows": rows, "total": total, "start": frappe.utils.cint(start), "page_length": frappe.utils.cint(page_length)}


def _cell(value) -> str:
	if value is None:
		return ""
	if hasattr(value, "isoformat"):
		return value.isoformat(sep=" ") if hasattr(value, "hour") else value.isoformat()
	if isinstance(value, float) and value == int(value):
		return str(value)
	return str(value)


@frappe.whitelist()
@needs("table.read")
def export_csv(name: str) -> str:
	"""A text/csv download of the rows the caller can read: one column per field (by fieldname)."""
	table = _registry(name)
	fieldnames = [f["fieldname"] for f in _fields(table.doctype_name)]
	rows = frappe.get_list(table.doctype_name, fields=fieldnames, order_by="creation asc, name asc", limit_page_length=0, as_list=True)
	out = io.StringIO()
	writer = csv.writer(out, lineterminator="\n")
	writer.writerow(fieldnames)
	for row in rows:
		writer.writerow([_cell(v) for v in row])
	text = out.getvalue()
	frappe.response["type"] = "csv"
	frappe.response["doctype"] = table.doctype_name
	frappe.response["result"] = text
	return text


def _check(table, content: str) -> dict:
	"""The CSV read and every row checked, nothing written: {header_ok, missing, unknown, rows, good, bad}."""
	fields = _fields(table.doctype_name)
	by_key = {}
	for field in fields:
		by_key[field["fieldname"].lower()] = field
		by_key.setdefault(field["label"].strip().lower(), field)
	reader = csv.reader(io.StringIO((content or "").lstrip("\ufeff")))
	header = next(reader, None) or []
	columns, unknown = [], []
	for cell in header:
		field = by_key.get(cell.strip().lower())
		columns.append(field)
		if field is None:
			unknown.append(cell)
	present = {f["fieldname"] for f in columns if f}
	missing = [f["fieldname"] for f in fields if f["reqd"] and f["fieldname"] not in present]
	doubled = sorted({f["fieldname"] for f in columns if f and sum(1 for c in columns if c is f) > 1})
	header_ok = bool(header) and not unknown and not missing and not doubled
	links = {}
	for field in fields:
		if field["fieldtype"] == "Link" and field["fieldname"] in present:
			links[field["fieldname"]] = None  # filled below with the values that exist
	raw_rows = [row for row in reader if any(cell.strip() for cell in row)]
	for fieldname in links:
		position = next(i for i, f in enumerate(columns) if f and f["fieldname"] == fieldname)
		wanted = {row[position].strip() for row in raw_rows if position < len(row) and row[position].strip()}
		target = next(f["options"] for f in fields if f["fieldname"] == fieldname)
		links[fieldname] = set(frappe.get_all(target, filters={"name": ("in", list(wanted))}, pluck="name", ignore_permissions=True)) if wanted else set()
	naming = table.title_field_name if table.autoname_method == "Field" else None
	taken = set(frappe.get_all(table.doctype_name, pluck="name", ignore_permissions=True)) if naming else set()
	rows, good = [], 0
	for number, raw in enumerate(raw_rows, 2):  # the header is line 1
		values, errors = {}, []
		if len(raw) != len(header):
			errors.append(_("has {0} cells; the header has {1}").format(len(raw), len(header)))
		for position, field in enumerate(columns):
			if field is None:
				continue
			cell = raw[position] if position < len(raw) else ""
			try:
				value = convert(field, cell)
			except BadValue as e:
				errors.append(f"{field['label']}: {e}")
				continue
			if value is None and field["reqd"]:
				errors.append(_("{0}: a value is required").format(field["label"]))
			if value is not None and field["fieldtype"] == "Link" and value not in links[field["fieldname"]]:
				errors.append(_("{0}: {1} is not a {2}").format(field["label"], value, field["options"]))
			values[field["fieldname"]] = value
		for field in fields:
			if field["reqd"] and field["fieldname"] not in present:
				errors.append(_("{0}: a value is required").format(field["label"]))
		if naming and values.get(naming) is not None:
			key = str(values[naming])
			if key in taken:
				errors.append(_("{0}: a row named {1} already exists").format(naming, key))
			taken.add(key)
		good += not errors
		rows.append({"row": number, "values": values, "errors": errors})
	return {
		"header_ok": header_ok,
		"missing": missing,
		"unknown": unknown,
		"duplicated": doubled,
		"rows": rows,
		"good": good,
		"bad": len(rows) - good,
	}


@frappe.whitelist(methods=["POST"])
@needs("table.read")
def preview_csv(name: str, content: str) -> dict:
	return _check(_registry(name), content)


@frappe.whitelist(methods=["POST"])
@needs("table.write")
def import_csv(name: str, content: str, good_rows_only=0) -> dict:
	"""All rows, or none unless ``good_rows_only``: then the good ones, the bad ones reported.
	Checked row by row first, then inserted in one transaction as the caller (who must be allowed
	to create rows of the table)."""
	table = _registry(name)
	checked = _check(table, content)
	bad = [{"row": r["row"], "errors": r["errors"]} for r in checked["rows"] if r["errors"]]
	answer = {k: checked[k] for k in ("header_ok", "missing", "unknown", "duplicated", "good", "bad")} | {"errors": bad, "imported": 0}
	if not checked["header_ok"] or (bad and not frappe.utils.cint(good_rows_only)):
		return answer
	good = [r["values"] for r in checked["rows"] if not r["errors"]]
	if good:
		answer["imported"] = _insert(table, good)
	return answer


def _insert(table, rows: list[dict]) -> int:
	doctype = table.doctype_name
	frappe.has_permission(doctype, "create", throw=True)
	from frappe.permissions import get_user_permissions

	if get_user_permissions(frappe.session.user):  # restrictions are checked per document: the full path
		for values in rows:
			frappe.get_doc({"doctype": doctype, **values}).insert()
		return len(rows)
	fields = _fields(doctype)
	fieldnames = [f["fieldname"] for f in fields]
	checks = {f["fieldname"] for f in fields if f["fieldtype"] in ("Check", "Int", "Float", "Currency")}  # NOT NULL DEFAULT 0 columns
	now, user = now_datetime(), frappe.session.user
	naming = table.title_field_name if table.autoname_method == "Field" else None
	columns = ["name", "creation", "modified", "owner", "modified_by", "docstatus", "idx", *fieldnames]
	# an autoincrement row takes its name from the DocType's sequence inside the INSERT
	name_sql = "%s" if naming else f"nextval(`{frappe.scrub(doctype + '_id_seq')}`)"
	one = "(" + ", ".join([name_sql] + ["%s"] * (len(columns) - 1)) + ")"
	head = f"insert into `tab{doctype}` ({', '.join(f'`{c}`' for c in columns)}) values "
	for start in range(0, len(rows), CHUNK):
		chunk = rows[start : start + CHUNK]
		params = []
		for row in chunk:
			if naming:
				params.append(str(row[naming]))
			params += [now, now, user, user, 0, 0]
			params += [(row.get(f) or 0) if f in checks else row.get(f) for f in fieldnames]
		frappe.db.sql(head + ", ".join([one] * len(chunk)), params)
	return len(rows)
