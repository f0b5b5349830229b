"""The web app's first screen: how far this site is on the way to a first chat, as the person asking
sees it, and Huf's example added from there.

Four steps, in order: a provider, a model, an agent open for chat, a first chat. Each counts only
what the caller may read (Frappe's own permission checks; an agent counts when the caller may chat
with it, a chat when it is with one of those agents), so everyone gets their own answer. A person who
may not set anything up learns who can (``helpers``)."""

from __future__ import annotations

import frappe

from huf import examples
from huf.capabilities import frappe_roles_with, has_capability, needs, require
from huf.permissions import runnable_agents

HELPERS = 3  # names given to someone who has to ask
EXAMPLE_NEEDS = ("agent.write", "tool.write", "knowledge.write", "flow.write")  # what the example makes


@frappe.whitelist(methods=["GET"])
@needs("agent.run")
def get_checklist() -> dict:
	"""The chat page's guide: each step done or not, with the name of what is there (the first
	provider, model, agent), the example's state for those who may add it, and who can help the
	others when they have no agent to chat with."""
	provider = _first("AI Provider", {})
	model = _first("AI Model", {"disabled": 0})
	agents = [agent["name"] for agent in runnable_agents(chat_only=True)]
	chat = _first("Agent Conversation", {"channel": "chat", "agent": ("in", agents)}) if agents else None
	steps = [
		{"step": "provider", "done": bool(provider), "name": provider},
		{"step": "model", "done": bool(model), "name": model},
		{"step": "agent", "done": bool(agents), "name": agents[0] if agents else None},
		{"step": "chat", "done": bool(chat), "name": None},
	]
	can_set_up = has_capability(None, "provider.write")
	return {
		"steps": steps,
		"done": all(step["done"] for step in steps),
		"can_set_up": can_set_up,
		"example": examples.status() if can_set_up else None,
		"helpers": [] if can_set_up or agents else helpers("agent.write" if model else "provider.write"),
	}


@frappe.whitelist(methods=["POST"])
@needs("provider.write")
def add_example() -> dict:
	"""The guide's "Add the example": Huf's example agent, knowledge source and flow (huf/examples),
	made once and never over someone's edits. The seeding writes as the system, so the caller must
	also be able to make each of those things by hand."""
	for capability in EXAMPLE_NEEDS:
		require(capability)
	report = examples.seed()
	return {**examples.status(), "problems": report["skipped"]}


def _first(doctype: str, filters: dict) -> str | None:
	"""The oldest record of ``doctype`` the caller may read, by name."""
	if not frappe.has_permission(doctype, "read"):
		return None
	found = frappe.get_list(doctype, filters=filters, pluck="name", order_by="creation asc", limit=1)
	return found[0] if found else None


def helpers(capability: str) -> list[str]:
	"""A few people (their full names) who hold ``capability``; never Administrator or Guest."""
	roles = frappe_roles_with(capability)
	if not roles:
		return []
	HasRole, User = frappe.qb.DocType("Has Role"), frappe.qb.DocType("User")
	rows = (
		frappe.qb.from_(HasRole).join(User).on(User.name == HasRole.parent)
		.select(User.name, User.full_name).distinct()
		.where(
			(HasRole.parenttype == "User") & HasRole.role.isin(roles) & (User.enabled == 1) & (User.user_type == "System User")
			& User.name.notin(("Guest", "Administrator"))
		)
		.orderby(User.full_name).orderby(User.name)
		.limit(HELPERS)
		.run(as_dict=True)
	)  # fmt: skip
	return [row.full_name or row.name for row in rows]
