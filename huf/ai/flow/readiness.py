"""What a flow needs on this site before it can run, checked when it is activated and on each save
while it is Active (``definitions.check``), beside the engine's graph rules. The builder shows the
same problems as you build (frontend ``builder/checks.ts``, ``readiness``), with the same words where
it can tell; what only the site knows (who exists, who holds a role, what the runner may do) is
checked here.

- A web request trigger needs a secret: the webhook refuses every request without one.
- An approval needs somebody who can decide: people who exist, are enabled and can sign in (never
  Guest), or a role that such a person holds (never the Guest role).
- A tool step's tool must be one the flow's runner may use: a webhook runs the flow as the person who
  created it, so that person needs the permission the tool's action asks for on its record type (or
  may run the agent a "Run Agent" tool calls)."""

from __future__ import annotations

import frappe

from huf.ai.engine.flow.control import ROLE_TYPES, USER_TYPES
from huf.ai.engine.flow.graph import parse
from huf.ai.engine.flow.validate import Problem

NO_SECRET = (
	"It needs a secret before the flow can be activated: other systems send it with each request, and "
	"without one no request is accepted."
)
GUEST_USER = "Guest (someone who has not signed in) cannot decide; choose people who sign in."
GUEST_ROLE = "The role Guest cannot decide (it stands for people who have not signed in); choose another role."
NOBODY = "Nobody listed can decide, so a run would wait here for ever; choose people who can sign in."
NOBODY_WITH_ROLE = "Nobody who can sign in has any of these roles, so a run would wait here for ever; choose a role people hold."

# A record tool's action -> the permission it asks for on its record type.
PERMISSION = {
	"Get Document": "read", "Get Multiple Documents": "read", "Get List": "read", "Get Value": "read",
	"Get Amended Document": "amend", "Create Document": "create", "Create Multiple Documents": "create",
	"Update Document": "write", "Update Multiple Documents": "write", "Set Value": "write",
	"Attach File to Document": "write", "Delete Document": "delete", "Delete Multiple Documents": "delete",
	"Submit Document": "submit", "Cancel Document": "cancel",
}  # fmt: skip
WORDS = {
	"read": "read",
	"amend": "amend",
	"create": "create",
	"write": "change",
	"delete": "delete",
	"submit": "submit",
	"cancel": "cancel",
}


def problems(definition: dict, runner: str) -> list[Problem]:
	"""Every problem that would stop the flow's runs on this site; ``runner`` is who a webhook runs it as."""
	graph = parse(definition)
	found: list[Problem] = []
	for node in graph.nodes.values():
		messages = []
		if node.type == "trigger.webhook":
			secret = node.config.get("secret")
			if not (isinstance(secret, str) and secret.strip()):
				messages.append(NO_SECRET)
		elif node.type == "human.approval":
			messages += _deciders(node.config)
		elif node.type == "tool.call":
			messages += tool_refusals(str(node.config.get("tool") or ""), runner)
		found += [Problem(node.id, node.label, message) for message in messages]
	return found


def _names(value) -> list[str]:
	return [item.strip() for item in value if isinstance(item, str) and item.strip()] if isinstance(value, list) else []


def _deciders(config: dict) -> list[str]:
	kind = str(config.get("approval_type") or "").lower()
	if kind in USER_TYPES:
		users = _names(config.get("users"))
		if not users:
			return []  # the engine's check says it lists none
		found = [GUEST_USER] if "Guest" in users else []
		people = [user for user in users if user != "Guest"]
		able = frappe.get_all("User", filters={"name": ("in", people), "enabled": 1}, pluck="name") if people else []
		return found + ([] if able else [NOBODY])
	if kind in ROLE_TYPES:
		roles = _names(config.get("roles"))
		if not roles:
			return []
		found = [GUEST_ROLE] if "Guest" in roles else []
		held = [role for role in roles if role != "Guest"]
		return found + ([] if held and _someone_holds(held) else [NOBODY_WITH_ROLE])
	return []


def _someone_holds(roles: list[str]) -> bool:
	if {"All", "Desk User"} & set(roles):
		return bool(frappe.db.exists("User", {"enabled": 1, "name": ("not in", ("Guest",))}))
	HasRole, User = frappe.qb.DocType("Has Role"), frappe.qb.DocType("User")
	found = (
		frappe.qb.from_(HasRole).join(User).on(User.name == HasRole.parent)
		.select(HasRole.parent)
		.where((HasRole.parenttype == "User") & HasRole.role.isin(roles) & (User.enabled == 1) & (User.name != "Guest"))
		.limit(1)
		.run()
	)  # fmt: skip
	return bool(found)


def tool_refusals(name: str, runner: str) -> list[str]:
	"""Why ``runner`` may not use the tool ``name``; nothing when they may (or it does not exist: the
	engine's check says so)."""
	row = (
		frappe.db.get_value("Agent Tool Function", name, ["types", "reference_doctype", "agent"], as_dict=True) if name else None
	)
	return refusals_of(frappe._dict(row, name=name), runner) if row else []


def refusals_of(row, runner: str) -> list[str]:
	"""``tool_refusals`` for a tool row already read (name, types, reference_doctype, agent)."""
	name = row.name
	if row.types == "Run Agent" and row.agent:
		from huf.permissions import can_run_agent

		if not can_run_agent(frappe.get_cached_doc("Agent", row.agent), runner):
			return [
				f"{runner}, who this flow runs as, may not run the agent {row.agent} that the tool {name!r} calls; choose another tool or let them run it."
			]
		return []
	ptype = PERMISSION.get(row.types)
	if not ptype or not row.reference_doctype or not frappe.db.exists("DocType", row.reference_doctype):
		return []
	if frappe.has_permission(row.reference_doctype, ptype, user=runner):
		return []
	return [
		f"{runner}, who this flow runs as, may not {WORDS[ptype]} {row.reference_doctype} records, so the tool {name!r} "
		"would be refused; choose another tool or give them that permission."
	]
