"""Who may do what in Huf: capabilities (huf/capabilities.py) held through Huf Roles, who may run an
agent, and whose conversations and runs a person sees; ``get_me`` for the web app.

A person's capabilities are those of every Huf Role whose Frappe Role they hold. They are worked out
once per request (``frappe.local``) from the Frappe roles Frappe already caches and one cached map
of role -> capabilities, so a check after the first costs a dictionary lookup and no SQL.

Conversations belong to the user who started them (`Agent Conversation.user`). Runs, messages and
tool calls follow their conversation. Whoever holds ``run.read.all`` sees everyone's.
"""

from __future__ import annotations

import frappe
from frappe import _

from huf.capabilities import CAPABILITIES, check_known, open_to

ROLE_MAP_KEY = "huf:role_capabilities"


def _role_capabilities() -> dict[str, frozenset[str]]:
	"""Frappe Role -> the capabilities of the Huf Roles mapped to it (cached until a Huf Role changes)."""
	cached = frappe.cache.get_value(ROLE_MAP_KEY)
	if cached is None:
		rows = frappe.get_all(
			"Huf Role Permission",
			filters={"parenttype": "Huf Role"},
			fields=["parent", "capability"],
			ignore_permissions=True,
		)
		roles = dict(frappe.get_all("Huf Role", fields=["name", "frappe_role"], as_list=True, ignore_permissions=True))
		cached = {}
		for row in rows:
			if roles.get(row.parent):
				cached.setdefault(roles[row.parent], []).append(row.capability)
		frappe.cache.set_value(ROLE_MAP_KEY, cached)
	return {role: frozenset(caps) for role, caps in cached.items()}


def forget_capabilities() -> None:
	"""After a Huf Role, a Huf User Role or someone's Frappe roles changed."""
	frappe.cache.delete_value(ROLE_MAP_KEY)
	frappe.local.huf_capabilities = {}
	frappe.local.huf_role_map = None


def capabilities(user: str | None = None) -> frozenset[str]:
	user = user or frappe.session.user
	known = getattr(frappe.local, "huf_capabilities", None)
	if known is None:
		known = frappe.local.huf_capabilities = {}
	if user not in known:
		if user == "Guest":
			known[user] = frozenset()
		else:
			by_role = getattr(frappe.local, "huf_role_map", None)
			if by_role is None:
				by_role = frappe.local.huf_role_map = _role_capabilities()
			held = [by_role.get(role, frozenset()) for role in frappe.get_roles(user)]
			known[user] = frozenset().union(*held)
	return known[user]


def has_capability(user: str | None, capability: str) -> bool:
	"""Whether ``user`` (None: the signed-in user) holds ``capability``; an unknown name is a bug and raises."""
	if capability not in CAPABILITIES:
		check_known(capability)
	user = user or frappe.session.user
	known = getattr(frappe.local, "huf_capabilities", None)
	if known is not None and user in known:
		return capability in known[user]
	return capability in capabilities(user)


def require(capability: str, user: str | None = None) -> None:
	"""403 unless the user holds ``capability``, with words a person can take to an admin."""
	if not has_capability(user, capability):
		frappe.throw(
			_("You need the Huf permission \"{0}\" ({1}) for this. Ask whoever runs Huf here to give you a role that has it.").format(
				capability, _(CAPABILITIES[capability]).rstrip(".").lower()
			),
			frappe.PermissionError,
			title=_("Not allowed"),
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


def message_query(user: str | None = None) -> str:
	if sees_all_runs(user):
		return ""
	return (
		"`tabAgent Message`.`conversation` in "
		f"(select name from `tabAgent Conversation` where `user` = {_escaped(user)})"
	)


def tool_call_query(user: str | None = None) -> str:
	if sees_all_runs(user):
		return ""
	return f"`tabAgent Tool Call`.`agent_run` in (select name from `tabAgent Run` where `user` = {_escaped(user)})"


def conversation_has_permission(doc, ptype=None, user=None) -> bool:
	return sees_all_runs(user) or doc.user == (user or frappe.session.user)


def run_has_permission(doc, ptype=None, user=None) -> bool:
	return sees_all_runs(user) or doc.user == (user or frappe.session.user)


def message_has_permission(doc, ptype=None, user=None) -> bool:
	return owns_conversation(doc.conversation, user)


def tool_call_has_permission(doc, ptype=None, user=None) -> bool:
	return sees_all_runs(user) or frappe.db.get_value("Agent Run", doc.agent_run, "user") == (user or frappe.session.user)


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
