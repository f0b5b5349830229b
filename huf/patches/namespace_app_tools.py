"""Tools that apps other than Huf declare are named ``<app>__<tool>`` now
(``huf.ai.tools.registry.stored_name``), so two apps may declare the same tool. Stored ones get
their new name; the agents that use them follow (``rename_doc`` updates the links), and so does the
name in the tool's function definition."""

import json

import frappe

from huf.ai.engine.tool_names import SEPARATOR
from huf.ai.tools.registry import stored_name


def execute():
	tools = frappe.get_all(
		"Agent Tool Function",
		filters={"types": "App Provided", "provider_app": ["not in", ["", "huf"]]},
		fields=["name", "provider_app", "function_definition"],
	)
	for tool in tools:
		new = stored_name(tool.provider_app, tool.name)
		if tool.name.startswith(tool.provider_app + SEPARATOR) or frappe.db.exists("Agent Tool Function", new):
			continue  # named already, or the name is taken: the next sync reports the conflict
		frappe.rename_doc("Agent Tool Function", tool.name, new, force=True, show_alert=False)
		definition = json.loads(tool.function_definition or "{}")
		if definition:
			definition["name"] = new
			frappe.db.set_value("Agent Tool Function", new, "function_definition", json.dumps(definition), update_modified=False)
