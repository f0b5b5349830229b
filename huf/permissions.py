"""Who may do what in Huf: capabilities (huf/capabilities.py) held through Huf Roles, who may run an
agent, and whose conversations and runs a person sees; ``get_me`` for the web app.

A person's capabilities are those of every Huf Role whose Frappe Role they hold (``has_capability``,
``require``: in huf/capabilities.py, beside the list, and named here too).

Conversations belong to the user who started them (`Agent Conversation.user`). Runs, messages and
tool calls follow their conversation. Whoever holds ``run.read.all`` sees everyone's.
"""

from __future__ import annotations

import frappe
from frappe import _

from huf.capabilities import (  # the checks live beside the list (no import back); these are their names here
	CAPABILITIES,
	capabilities,
	forget_capabilities,  # noqa: F401
	has_capability,
	open_to,
	require,  # noqa: F401
)


def sees_all_runs(user: str | None = None) -> bool:
	"""Sees everyone's conversations and runs, not only their own (``run.read.all``)."""
	return has_capability(user, "run.read.all")


def can_run_agent(agent, user: str | None = None) -> bool:
	"""Guests only where the agent allows them; otherwise read access to the Agent, narrowed by its
	Users / Roles lists when either has rows."""
	user = user or frappe.session.user
	if user == "Guest":
		return bool(agent.allow_guest)
	if not has_capability(user, "agent.run"):
		return False
	if has_capability(user, "agent.write"):
		return True
	if not frappe.has_permission("Agent", "read", doc=agent, user=user):
		return False
	users = {row.user for row in agent.get("agent_users") or []}
	roles = {row.role for row in agent.get("agent_roles") or []}
	if not users and not roles:
		return True
	return user in users or bool(roles.intersection(frappe.get_roles(user)))


def runnable_agents(user: str | None = None, chat_only: bool = False) -> list[dict]:
	"""The enabled agents ``user`` may run (only those open for chat when ``chat_only``), by name."""
	user = user or frappe.session.user
	filters = {"disabled": 0, **({"allow_chat": 1} if chat_only else {}), **({"allow_guest": 1} if user == "Guest" else {})}
	names = frappe.get_all("Agent", filters=filters, pluck="name", order_by="name asc", ignore_permissions=True)
	agents = [frappe.get_cached_doc("Agent", name) for name in names]
	return [
		{
			"name": agent.name,
			"description": agent.get("description") or "",
			"allow_chat": agent.allow_chat,
			"allow_file_attachments": agent.get("allow_file_attachments") or 0,
		}
		for agent in agents
		if can_run_agent(agent, user)
	]


def owns_conversation(conversation: str, user: str | None = None) -> bool:
	user = user or frappe.session.user
	return sees_all_runs(user) or frappe.db.get_value("Agent Conversation", conversation, "user") == user


@frappe.whitelist()
@open_to("Anyone signed in: it says what they themselves may do.")
def get_me() -> dict:
	"""What the signed-in user may do in Huf, so the web app can hide what they can't (the server still checks)."""
	user = frappe.session.user
	held = capabilities(user)
	return {
		"user": user,
		"full_name": frappe.utils.get_fullname(user),
		"is_manager": "run.read.all" in held,
		"capabilities": {name: name in held for name in CAPABILITIES},
	}


# --- row-level hooks (hooks.py: permission_query_conditions / has_permission) -------------------


def _escaped(user: str | None) -> str:
	return frappe.db.escape(user or frappe.session.user)


def conversation_query(user: str | None = None) -> str:
	if sees_all_runs(user):
		return ""
	return f"`tabAgent Conversation`.`user` = {_escaped(user)}"


def run_query(user: str | None = None) -> str:
	if sees_all_runs(user):
		return ""
	return f"`tabAgent Run`.`user` = {_escaped(user)}"


def _through(doctype: str, column: str, parent: str, user: str | None) -> str:
	"""Rows of ``doctype`` whose ``column`` names one of ``user``'s conversations or runs (``parent``)."""
	if sees_all_runs(user):
		return ""
	return f"`tab{doctype}`.`{column}` in (select name from `tab{parent}` where `user` = {_escaped(user)})"


def message_query(user: str | None = None) -> str:
	return _through("Agent Message", "conversation", "Agent Conversation", user)


def tool_call_query(user: str | None = None) -> str:
	return _through("Agent Tool Call", "agent_run", "Agent Run", user)


def artifact_query(user: str | None = None) -> str:
	return _through("Agent Context Artifact", "conversation", "Agent Conversation", user)


def orchestration_query(user: str | None = None) -> str:
	return _through("Agent Orchestration", "parent_run", "Agent Run", user)


def conversation_has_permission(doc, ptype=None, user=None) -> bool:
	return sees_all_runs(user) or doc.user == (user or frappe.session.user)


def run_has_permission(doc, ptype=None, user=None) -> bool:
	return sees_all_runs(user) or doc.user == (user or frappe.session.user)


def message_has_permission(doc, ptype=None, user=None) -> bool:
	return owns_conversation(doc.conversation, user)


def owns_run(run: str, user: str | None = None) -> bool:
	user = user or frappe.session.user
	return sees_all_runs(user) or frappe.db.get_value("Agent Run", run, "user") == user


def tool_call_has_permission(doc, ptype=None, user=None) -> bool:
	return owns_run(doc.agent_run, user)


def artifact_has_permission(doc, ptype=None, user=None) -> bool:
	return owns_conversation(doc.conversation, user)


def orchestration_has_permission(doc, ptype=None, user=None) -> bool:
	return owns_run(doc.parent_run, user)


def check_run_access(run: str) -> dict:
	"""The run's status fields when the current user owns it (or holds run.read.all); PermissionError otherwise."""
	row = frappe.db.get_value(
		"Agent Run",
		run,
		["name", "user", "conversation", "status", "response", "error_message", "error_kind", "total_tokens", "total_cost"],
		as_dict=True,
	)
	if not row:
		frappe.throw(_("Agent Run {0} was not found.").format(run), frappe.DoesNotExistError)
	user = frappe.session.user
	if user == "Guest" or not (sees_all_runs(user) or row.user == user):
		frappe.throw(_("This run belongs to someone else."), frappe.PermissionError)
	return row
