"""Document tools: each runs as the current user, through Frappe's own permission checks."""

from __future__ import annotations

import base64

import frappe
from frappe import _

from huf.ai.engine.tools import ToolError
from huf.ai.tools.files import readable_file

MAX_LIST = 500
MAX_REPORT_ROWS = 200
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024


def get_document(doctype: str, args: dict) -> dict:
	doc = frappe.get_doc(doctype, args["name"])
	doc.check_permission("read")
	doc.apply_fieldlevel_read_permissions()
	return _clean(doc.as_dict())


def get_multiple_documents(doctype: str, args: dict) -> list:
	return [get_document(doctype, {"name": name}) for name in args["names"]]


def get_list(doctype: str, args: dict) -> list:
	fields = args.get("fields") or ["name"]
	meta = frappe.get_meta(doctype)
	unknown = [f for f in fields if not _known_field(meta, f)]
	if unknown:
		raise ToolError(
			_("{0} has no field {1}. Use describe_doctype to see its fields.").format(doctype, ", ".join(unknown))
		)
	limit = min(int(args.get("limit") or 20), MAX_LIST)
	return frappe.get_list(
		doctype,
		filters=args.get("filters"),
		fields=fields,
		order_by=args.get("order_by") or "modified desc",
		limit_start=int(args.get("start") or 0),
		limit_page_length=limit,
	)


def create_document(doctype: str, args: dict) -> dict:
	doc = frappe.get_doc({**args["data"], "doctype": doctype})
	doc.insert()
	return {"name": doc.name, "doctype": doctype, "created": True}


def create_multiple_documents(doctype: str, args: dict) -> list:
	return [create_document(doctype, {"data": data}) for data in args["documents"]]


def update_document(doctype: str, args: dict) -> dict:
	doc = frappe.get_doc(doctype, args["name"])
	data = {key: value for key, value in args["data"].items() if key not in ("doctype", "name", "docstatus")}
	doc.update(data)
	doc.save()
	return {"name": doc.name, "doctype": doctype, "updated": sorted(data)}


def update_multiple_documents(doctype: str, args: dict) -> list:
	return [update_document(doctype, item) for item in args["documents"]]


def delete_document(doctype: str, args: dict) -> dict:
	frappe.delete_doc(doctype, args["name"])
	return {"name": args["name"], "doctype": doctype, "deleted": True}


def delete_multiple_documents(doctype: str, args: dict) -> list:
	return [delete_document(doctype, {"name": name}) for name in args["names"]]


def submit_document(doctype: str, args: dict) -> dict:
	_require_submittable(doctype)
	doc = frappe.get_doc(doctype, args["name"])
	doc.submit()
	return {"name": doc.name, "doctype": doctype, "docstatus": doc.docstatus}


def cancel_document(doctype: str, args: dict) -> dict:
	_require_submittable(doctype)
	doc = frappe.get_doc(doctype, args["name"])
	doc.cancel()
	return {"name": doc.name, "doctype": doctype, "docstatus": doc.docstatus}


def get_amended_document(doctype: str, args: dict) -> dict:
	"""Create the amendment of a cancelled document (a new draft with amended_from set)."""
	_require_submittable(doctype)
	source = frappe.get_doc(doctype, args["name"])
	source.check_permission("read")
	if source.docstatus != 2:
		raise ToolError(_("{0} {1} is not cancelled; only a cancelled document can be amended.").format(doctype, source.name))
	amended = frappe.copy_doc(source)
	amended.amended_from = source.name
	amended.docstatus = 0
	amended.insert()
	return {"name": amended.name, "doctype": doctype, "amended_from": source.name}


def get_value(doctype: str, args: dict):
	from frappe.client import get_value as client_get_value

	if not args.get("name") and not args.get("filters"):
		raise ToolError(_("Give either the document's name or filters."))
	return client_get_value(doctype, args["fieldname"], filters=args.get("filters") or args.get("name"))


def set_value(doctype: str, args: dict) -> dict:
	doc = frappe.get_doc(doctype, args["name"])
	if not doc.meta.get_field(args["fieldname"]):
		raise ToolError(_("{0} has no field {1}.").format(doctype, args["fieldname"]))
	doc.set(args["fieldname"], args["value"])
	doc.save()
	return {"name": doc.name, "doctype": doctype, args["fieldname"]: doc.get(args["fieldname"])}


def get_report_result(_doctype: str | None, args: dict) -> dict:
	from frappe.desk.query_report import run

	report = frappe.get_doc("Report", args["report_name"])
	if not report.is_permitted():
		raise frappe.PermissionError(_("You do not have access to the report {0}.").format(report.name))
	result = run(report.name, filters=args.get("filters") or {}, ignore_prepared_report=True)
	rows = result.get("result") or []
	columns = [
		(c.get("fieldname") or c.get("label")) if isinstance(c, dict) else str(c).split(":")[0] for c in result.get("columns") or []
	]
	shown = rows[:MAX_REPORT_ROWS]
	answer = {"columns": columns, "rows": shown, "row_count": len(rows)}
	if len(rows) > len(shown):
		answer["note"] = f"Only the first {len(shown)} of {len(rows)} rows are shown; narrow the filters for the rest."
	return answer


def attach_file_to_document(doctype: str, args: dict) -> dict:
	target = frappe.get_doc(doctype, args["name"])
	target.check_permission("write")
	values = {
		"doctype": "File",
		"attached_to_doctype": doctype,
		"attached_to_name": target.name,
		"is_private": 1 if args.get("is_private", True) else 0,
	}
	if args.get("content_base64"):
		content = base64.b64decode(args["content_base64"], validate=True)
		if len(content) > MAX_ATTACHMENT_BYTES:
			raise ToolError(_("The file is {0} MB; the limit is 10 MB.").format(round(len(content) / 1048576, 1)))
		values.update(file_name=args.get("file_name") or "attachment", content=content)
	elif args.get("file_url"):
		source = readable_file(None, args["file_url"])  # a copy must not open a file the user may not read
		values.update(file_url=source.file_url, file_name=args.get("file_name") or source.file_name, is_private=source.is_private)
	else:
		raise ToolError(_("Give the file as file_url or as content_base64."))
	file = frappe.get_doc(values)
	file.insert()
	return {"name": file.name, "file_url": file.file_url, "attached_to": f"{doctype} {target.name}"}


HANDLERS = {
	"Get Document": get_document,
	"Get Multiple Documents": get_multiple_documents,
	"Get List": get_list,
	"Create Document": create_document,
	"Create Multiple Documents": create_multiple_documents,
	"Update Document": update_document,
	"Update Multiple Documents": update_multiple_documents,
	"Delete Document": delete_document,
	"Delete Multiple Documents": delete_multiple_documents,
	"Submit Document": submit_document,
	"Cancel Document": cancel_document,
	"Get Amended Document": get_amended_document,
	"Get Value": get_value,
	"Set Value": set_value,
	"Get Report Result": get_report_result,
	"Attach File to Document": attach_file_to_document,
}
READ_ONLY = {"Get Document", "Get Multiple Documents", "Get List", "Get Value", "Get Report Result"}
# what each type does to its DocType, as a refusal names it ("You do not have permission to create ToDo")
ACTIONS = {
	"Get Document": "read",
	"Get Multiple Documents": "read",
	"Get List": "read",
	"Get Value": "read",
	"Create Document": "create",
	"Create Multiple Documents": "create",
	"Update Document": "update",
	"Update Multiple Documents": "update",
	"Set Value": "update",
	"Delete Document": "delete",
	"Delete Multiple Documents": "delete",
	"Submit Document": "submit",
	"Cancel Document": "cancel",
	"Get Amended Document": "amend",
	"Attach File to Document": "attach a file to",
}


def action(types: str, doctype: str | None) -> str | None:
	"""What a tool of ``types`` on ``doctype`` was refused, e.g. "create ToDo"; None for other tools."""
	if types == "Get Report Result":
		return _("run this report")
	if types in ACTIONS and doctype:
		return f"{_(ACTIONS[types])} {_(doctype)}"
	return None


def _require_submittable(doctype: str) -> None:
	if not frappe.get_meta(doctype).is_submittable:
		raise ToolError(_("{0} documents cannot be submitted or cancelled.").format(doctype))


def _known_field(meta, fieldname: str) -> bool:
	name = fieldname.split(" as ")[0].strip().strip("`")
	return name in frappe.model.default_fields or bool(meta.get_field(name)) or name == "*"


def _clean(values: dict) -> dict:
	"""Drop bookkeeping columns a model does not need."""
	skip = {"doctype", "docstatus", "idx", "parentfield", "parenttype", "parent", "__onload"}
	cleaned = {}
	for key, value in values.items():
		if key in skip or value is None or value == "":
			continue
		if isinstance(value, list):
			value = [_clean(v) if isinstance(v, dict) else v for v in value]
		cleaned[key] = value
	return cleaned
