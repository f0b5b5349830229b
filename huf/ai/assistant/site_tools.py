"""The assistant's tools: read-only, run as the person asking, each answering only with what they
may use (agents they may run, tools they may use, what Frappe lets them read). Nothing here writes.

``PersonKnows`` is what a proposal may name: the flow save's rule (the agent or tool exists) narrowed
to the person (an agent they may run); a tool the person may not use is reported by
``refusals`` in the words of ``flow/readiness.py``."""

from __future__ import annotations

import frappe

from huf.ai.engine.assistant.catalog import catalog
from huf.ai.engine.assistant.proposal import worded
from huf.ai.engine.effects import REPEATABLE
from huf.ai.engine.flow.graph import parse
from huf.ai.engine.flow.validate import validate
from huf.ai.engine.tools import Tool
from huf.ai.flow.definitions import SiteKnows
from huf.ai.flow.readiness import refusals_of, tool_refusals
from huf.ai.tools.schema import get_doctype_schema
from huf.permissions import can_run_agent, has_capability, runnable_agents

MAX_LISTED = 100
NO_ARGUMENTS = {"type": "object", "properties": {}}


class PersonKnows(SiteKnows):
	def agent(self, name: str) -> bool:
		return super().agent(name) and can_run_agent(frappe.get_cached_doc("Agent", name))


def refusals(definition: dict) -> list[str]:
	"""Why the person may not use a tool the definition names (nothing for tools they may use)."""
	user = frappe.session.user
	return [
		f"Step {node.id!r} ({node.label}): {reason}"
		for node in parse(definition).nodes.values()
		if node.type == "tool.call"
		for reason in tool_refusals(str(node.config.get("tool") or ""), user)
	]


def check(definition: dict) -> list[str]:
	"""The flow save's checks as the person: every problem in words."""
	return [worded(problem) for problem in validate(definition, PersonKnows())] + refusals(definition)


def usable_tools() -> list[dict]:
	"""The tools the person may see (tool.read) and use: none they would be refused."""
	if not has_capability(frappe.session.user, "tool.read"):
		return []
	rows = frappe.get_all(
		"Agent Tool Function",
		fields=["name", "description", "types", "reference_doctype", "agent", "requires_approval"],
		order_by="name asc",
		limit=MAX_LISTED * 5,
	)
	user = frappe.session.user
	return [
		{
			"name": row.name,
			"description": (row.description or "")[:200],
			"kind": row.types,
			"doctype": row.reference_doctype,
			"asks_first": bool(row.requires_approval),
		}
		for row in rows
		if not refusals_of(row, user)
	][:MAX_LISTED]


def models() -> list[str]:
	return frappe.get_list("AI Model", pluck="name", order_by="name asc", limit=MAX_LISTED)


def _agents(_args) -> list[dict]:
	return [{"name": agent["name"], "description": agent["description"][:200]} for agent in runnable_agents()][:MAX_LISTED]


def _mcp_tools(_args) -> list[dict] | str:
	if not frappe.has_permission("MCP Server", "read"):
		return "You may not see MCP servers on this site."
	servers = frappe.get_list("MCP Server", pluck="name", limit=MAX_LISTED)
	rows = frappe.get_all(
		"MCP Server Tool",
		filters={"parent": ("in", servers or [""]), "enabled": 1},
		fields=["parent", "tool_name", "description"],
		limit=MAX_LISTED,
	)
	return [{"server": row.parent, "tool": row.tool_name, "description": (row.description or "")[:200]} for row in rows]


def _knowledge(_args) -> list[dict]:
	return frappe.get_list("Knowledge Source", fields=["name", "description", "status"], limit=MAX_LISTED)


def _doctypes(args) -> list[str]:
	like = f"%{args.get('search') or ''}%"
	names = frappe.get_all(
		"DocType", filters={"istable": 0, "name": ("like", like)}, pluck="name", order_by="name asc", limit=MAX_LISTED * 3
	)
	return [name for name in names if frappe.has_permission(name, "read")][:MAX_LISTED]


def _check_flow(args) -> dict:
	definition = args.get("definition")
	if not isinstance(definition, dict):
		return {"problems": ["definition must be a JSON object with nodes and edges."]}
	return {"problems": check(definition)}


def reader(name: str, description: str, parameters: dict, handler) -> Tool:
	"""A tool that only reads: running it again (after a worker died) is harmless."""
	return Tool(name, description, parameters, handler, effect=REPEATABLE)


def tools(agent_draft: bool = False) -> list[Tool]:
	found = [
		reader("list_agents", "The agents you may use in a flow step (agent.run), with what each does.", NO_ARGUMENTS, _agents),
		reader(
			"list_tools",
			"The tools you may use (tool.call, or on an agent); asks_first: a person approves each call.",
			NO_ARGUMENTS,
			lambda _a: usable_tools(),
		),
		reader("list_mcp_tools", "The tools of the site's MCP servers that you may see.", NO_ARGUMENTS, _mcp_tools),
		reader("list_knowledge_sources", "The knowledge sources you may read.", NO_ARGUMENTS, _knowledge),
		reader(
			"list_doctypes",
			"The DocTypes (record types) you may read whose name contains search.",
			{"type": "object", "properties": {"search": {"type": "string"}}},
			_doctypes,
		),
		reader(
			"get_doctype_schema",
			"A DocType's fields you may read, with guidance on using it.",
			{"type": "object", "properties": {"doctype": {"type": "string"}}, "required": ["doctype"]},
			lambda args: get_doctype_schema(args["doctype"]),
		),
	]
	if agent_draft:
		return [*found, reader("list_models", "The site's AI models an agent may use.", NO_ARGUMENTS, lambda _a: models())]
	return [
		*found,
		reader(
			"node_catalog",
			"Every flow node type with its settings and outcomes, and the edge types.",
			NO_ARGUMENTS,
			lambda _a: catalog(),
		),
		reader(
			"check_flow",
			"Check a whole flow definition with the builder's checks; answers the problems (none: it passes).",
			{"type": "object", "properties": {"definition": {"type": "object"}}, "required": ["definition"]},
			_check_flow,
		),
	]


def may_set_up() -> bool:
	"""Whether the person can choose the assistant's model (Agent Settings) and add providers."""
	return has_capability(frappe.session.user, "agent.write") and has_capability(frappe.session.user, "provider.write")
