"""Tools that apps declare with the ``huf_tools`` hook become App Provided Agent Tool Functions.

Runs after install and every migrate. Idempotent: a tool is saved only when its declaration changed.
A tool an app stops declaring is left in place: agents may still use it.
"""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.engine.schema import JSON_TYPES
from huf.ai.tools.custom import FunctionNotAllowed, allowed_function

REQUIRED_KEYS = ("tool_name", "description", "function_path")


def sync_app_tools() -> list[str]:
	"""Upsert every declared tool; returns the names of the tools written."""
	written = []
	for app in frappe.get_installed_apps():
		for declaration in declared_tools(app):
			validate_declaration(app, declaration)
			if upsert(app, declaration):
				written.append(declaration["tool_name"])
	return written


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
	try:
		allowed_function(declaration["function_path"], app)
	except FunctionNotAllowed as error:
		frappe.clear_last_message()
		frappe.throw(_("The app {0} declares the tool {1}, but it cannot be used: {2}").format(app, name, error), FunctionNotAllowed)


def upsert(app: str, declaration: dict) -> bool:
	name = declaration["tool_name"]
	values = {
		"types": "App Provided",
		"tool_type": "App Provided",
		"description": declaration["description"],
		"function_path": declaration["function_path"],
		"provider_app": app,
		"pass_parameters_as_json": 1 if declaration.get("pass_parameters_as_json") else 0,
		"is_builtin": 1 if app == "huf" else 0,
	}
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
	if exists and doc.provider_app and doc.provider_app != app:
		frappe.log_error(title=f"Huf tool {name} declared by two apps", message=f"{doc.provider_app} and {app}; kept {doc.provider_app}.")
		return False
	doc.update(values)
	doc.tool_name = name
	doc.set("parameters", params)
	doc.flags.ignore_permissions = True  # install-time system work, never a model action
	doc.save() if exists else doc.insert()
	return True


def _same(doc, values: dict, params: list[dict]) -> bool:
	current = [
		{key: row.get(key) or (0 if key == "required" else None) for key in ("fieldname", "label", "type", "required", "description", "options")}
		for row in doc.parameters
	]
	wanted = [{key: p.get(key) or (0 if key == "required" else None) for key in current[0]} for p in params] if current else params
	return all(doc.get(key) == value for key, value in values.items()) and json.dumps(current, sort_keys=True) == json.dumps(
		wanted, sort_keys=True
	)
