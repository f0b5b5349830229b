"""Tools that apps declare with the ``huf_tools`` hook become App Provided Agent Tool Functions.

Runs after install and every migrate. Idempotent: a tool is saved only when its declaration changed.
A tool an app stops declaring is left in place: agents may still use it.

Names: another app's tool is stored, and shown to the model, as ``<app>__<tool_name>``
(``engine/tool_names.namespaced``), so two apps may both declare ``create_ticket``; Huf's own tools
keep their plain names. A declared tool whose name is taken (by a tool someone made by hand, or by
the same app twice) is not registered: the tool holding the name says so in its Name Conflict field
(a red "Name conflict" in the Desk list and in the web app's tool picker), and the Error Log gets it
once. The next sync clears the field when the conflict is gone.
"""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.engine.schema import JSON_TYPES
from huf.ai.engine.tool_names import namespaced
from huf.ai.tools.custom import FunctionNotAllowed, allowed_function
from huf.ai.tools.effects import declared_field

REQUIRED_KEYS = ("tool_name", "description", "function_path")


def sync_app_tools() -> list[str]:
	"""Upsert every declared tool; returns the names of the tools written."""
	written: list[str] = []
	claimed: dict[str, str] = {}  # stored name -> the app whose tool has it
	conflicts: dict[str, list[str]] = {}  # stored name -> why a declaration could not have it
	for app in frappe.get_installed_apps():
		for declaration in declared_tools(app):
			validate_declaration(app, declaration)
			name = stored_name(app, declaration["tool_name"])
			conflict = _conflict(app, declaration["tool_name"], name, claimed)
			if conflict:
				conflicts.setdefault(name, []).append(conflict)
				continue
			claimed[name] = app
			if upsert(app, name, declaration):
				written.append(name)
	record_conflicts(conflicts)
	return written


def stored_name(app: str, tool_name: str) -> str:
	"""The Agent Tool Function (and the model's) name of ``app``'s tool ``tool_name``."""
	return tool_name if app == "huf" else namespaced(app, tool_name)


def declared_tools(app: str) -> list[dict]:
	tools = []
	for path in frappe.get_hooks("huf_tools", app_name=app) or []:
		value = frappe.get_attr(path) if isinstance(path, str) else path
		for item in value if isinstance(value, (list, tuple)) else [value]:
			tools.extend(item if isinstance(item, (list, tuple)) else [item])
	return tools


def validate_declaration(app: str, declaration: dict) -> None:
	name = declaration.get("tool_name") or "?"
	missing = [key for key in REQUIRED_KEYS if not declaration.get(key)]
	if missing:
		frappe.throw(_("The app {0} declares the tool {1} without {2}.").format(app, name, ", ".join(missing)))
	for param in declaration.get("parameters") or []:
		if param.get("type", "string") not in JSON_TYPES:
			frappe.throw(
				_("The app {0} declares the tool {1} with a parameter {2} of unknown type {3}.").format(
					app, name, param.get("fieldname"), param.get("type")
				)
			)
	if "effect" in declaration and not declared_field(declaration["effect"]):
		frappe.throw(
			_("The app {0} declares the tool {1} with effect {2}; use repeatable, database or once.").format(
				app, name, declaration["effect"]
			)
		)
	try:
		allowed_function(declaration["function_path"], app)
	except FunctionNotAllowed as error:
		frappe.clear_last_message()
		frappe.throw(_("The app {0} declares the tool {1}, but it cannot be used: {2}").format(app, name, error), FunctionNotAllowed)


def upsert(app: str, name: str, declaration: dict) -> bool:
	values = {
		"types": "App Provided",
		"tool_type": "App Provided",
		"description": declaration["description"],
		"function_path": declaration["function_path"],
		"provider_app": app,
		"pass_parameters_as_json": 1 if declaration.get("pass_parameters_as_json") else 0,
		"is_builtin": 1 if app == "huf" else 0,
	}
	if "effect" in declaration:  # else an administrator's choice on the form stays
		values["effect"] = declared_field(declaration["effect"])
	params = [
		{
			"fieldname": p["fieldname"],
			"label": p.get("label") or p["fieldname"],
			"type": p.get("type", "string"),
			"required": 1 if p.get("required") else 0,
			"description": p.get("description"),
			"options": "\n".join(p["options"]) if isinstance(p.get("options"), list) else p.get("options"),
		}
		for p in declaration.get("parameters") or []
	]
	exists = frappe.db.exists("Agent Tool Function", name)
	doc = frappe.get_doc("Agent Tool Function", name) if exists else frappe.new_doc("Agent Tool Function")
	if exists and _same(doc, values, params):
		return False
	doc.update(values)
	doc.tool_name = name
	doc.set("parameters", params)
	doc.flags.ignore_permissions = True  # install-time system work, never a model action
	doc.save() if exists else doc.insert()
	return True


def _conflict(app: str, declared: str, name: str, claimed: dict[str, str]) -> str | None:
	"""Why ``app``'s tool ``declared`` cannot be stored as ``name``, or None when it can."""
	if name in claimed:
		return _("The app {0} declares the tool {1} more than once; only its first declaration is used.").format(app, declared)
	holder = frappe.db.get_value("Agent Tool Function", name, ["types", "provider_app"], as_dict=True)
	if holder and (holder.types != "App Provided" or holder.provider_app != app):
		return _(
			"The app {0} declares a tool named {1}, but this tool already has that name, so the app's tool is not "
			"available. Rename or delete this tool, then run bench migrate."
		).format(app, name)
	return None


def record_conflicts(conflicts: dict[str, list[str]]) -> None:
	"""Each conflict on the tool holding the name (logged once, when it appears); cleared where gone."""
	held = frappe.get_all("Agent Tool Function", filters={"sync_conflict": ["is", "set"]}, fields=["name", "sync_conflict"], as_list=True)
	before = dict(held)
	for name in sorted(set(before) | set(conflicts)):
		text = "\n".join(conflicts.get(name, [])) or None
		if before.get(name) == text:
			continue
		frappe.db.set_value("Agent Tool Function", name, "sync_conflict", text, update_modified=False)
		if text:
			frappe.log_error(title=f"Huf tool name conflict: {name}", message=text)


def _same(doc, values: dict, params: list[dict]) -> bool:
	current = [
		{key: row.get(key) or (0 if key == "required" else None) for key in ("fieldname", "label", "type", "required", "description", "options")}
		for row in doc.parameters
	]
	wanted = [{key: p.get(key) or (0 if key == "required" else None) for key in current[0]} for p in params] if current else params
	return all(doc.get(key) == value for key, value in values.items()) and json.dumps(current, sort_keys=True) == json.dumps(
		wanted, sort_keys=True
	)
