"""What a person may do in Huf: every capability, in one place, and the Huf Roles built from them.

A capability is ``<area>.<action>``. A Huf Role holds a set of them and maps to one Frappe Role
(``Huf Role.frappe_role``); whoever holds that Frappe Role has the Huf Role's capabilities
(huf/permissions.py ``has_capability``). Whitelisted methods name theirs with ``needs``, which is
how the permission walk (tests/site/access/test_access_matrix.py), the capability table of
docs/who-may-do-what.md (``python -m huf.capabilities``) and the docs' API reference know them.

``DOCTYPE_RIGHTS`` is what each capability lets its holder do to Huf's records in Desk and through
the REST API; a custom Huf Role gets exactly those rights (huf_role.py), and the built-in roles'
standard permissions are checked against it (tests/site/access/test_huf_roles.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

CAPABILITIES: dict[str, str] = {
	"agent.read": "See agents and how they are set up.",
	"agent.run": "Chat with agents and start their runs (each agent can still narrow who may use it).",
	"agent.write": "Create, change and delete agents.",
	"run.read": "See one's own conversations and runs.",
	"run.read.all": "See everyone's conversations and runs, not only one's own, with the full text of tool failures.",
	"tool.read": "See the tools agents can use.",
	"tool.write": "Create, change and delete tools.",
	"tool.mcp.write": "Connect MCP servers, sign in to them and bring in their tools.",
	"tool.mcp.stdio": "Add or change an MCP server that starts a program on this server (with tool.mcp.write).",
	"provider.write": "Add and change AI providers and models, and test their connection.",
	"knowledge.read": "See knowledge sources and search them.",
	"knowledge.write": "Create knowledge sources, add to them and rebuild their index.",
	"flow.read": "See flows and their runs.",
	"flow.run": "Start flows and act on one's own flow runs (resume, retry, skip, end).",
	"flow.write": "Create, change and delete flows.",
	"trigger.write": "Create and change triggers, run them now and send test deliveries.",
	"prompt.read": "See the prompt library and its versions.",
	"prompt.write": "Write and change prompts in the prompt library.",
	"table.read": "See data tables and their rows (each table still says who may read its rows).",
	"table.write": "Create, change and delete data tables and import rows into them.",
	"integration.write": "Set up integrations (email, chat webhooks, site notifications) that agents send messages through, and send test messages.",
	"settings.write": "Decide who has which Huf role, make custom roles and manage content that apps ship.",
}

R, RW = "r", "rwcd"
DOCTYPE_RIGHTS: dict[str, dict[str, str]] = {
	"agent.read": {"Agent": R, "AI Provider": R, "AI Model": R},
	"agent.run": {"Agent Chat": R, "Agent Run Feedback": "rwc"},
	"run.read": {"Agent Conversation": R, "Agent Message": R, "Agent Run": R, "Agent Tool Call": R, "Agent Context Artifact": R, "Agent Orchestration": R},
	"agent.write": {"Agent": RW, "Agent Settings": RW},
	"run.read.all": {
		"Agent Conversation": "rd", "Agent Message": "rd", "Agent Run": "rd", "Agent Tool Call": "rd", "Agent Run Feedback": "rd",
		"Agent Context Artifact": "rd", "Agent Orchestration": "rd",
	},
	"tool.read": {"Agent Tool Function": R, "Agent Tool Type": R},
	"tool.write": {"Agent Tool Function": RW, "Agent Tool Type": RW},
	"tool.mcp.write": {"MCP Server": RW},
	"tool.mcp.stdio": {},  # a check in MCP Server's validate, on top of tool.mcp.write's rights
	"provider.write": {"AI Provider": RW, "AI Model": RW, "OpenAI Settings": RW, "Groq Settings": RW, "Elevenlabs Settings": RW},
	"knowledge.read": {"Knowledge Source": R, "Knowledge Input": R},
	"knowledge.write": {"Knowledge Source": RW, "Knowledge Input": RW},
	"flow.read": {"Flow Definition": R, "Flow Definition Version": R, "Flow Run": R},
	"flow.run": {"Flow Run": R},
	"flow.write": {"Flow Definition": RW, "Flow Run": "rcd"},
	"trigger.write": {"Agent Trigger": RW},
	"prompt.read": {p: R for p in ("Agent Prompt", "Agent Prompt Category", "Agent Summary Prompt", "Agent Summary Prompt Category")},
	"prompt.write": {p: RW for p in ("Agent Prompt", "Agent Prompt Category", "Agent Summary Prompt", "Agent Summary Prompt Category")},
	"table.read": {"Huf Data Table": R},
	"table.write": {"Huf Data Table": RW},
	"integration.write": {"Integration Service": R, "Integration Settings": RW},
	"settings.write": {"Huf Role": RW, "Huf User Role": RW, "Huf Seed Record": R},
}

_USE = ("agent.read", "agent.run", "run.read", "tool.read", "knowledge.read", "flow.read", "flow.run", "prompt.read", "table.read")

# name: (Frappe Role, description, capabilities). A person holds one of the first four; Huf Gateway
# User is held beside it (the account a channel runs as).
BUILTIN_ROLES: dict[str, tuple[str, str, tuple[str, ...]]] = {
	"Huf Admin": ("System Manager", "Everything, including who may do what.", tuple(CAPABILITIES)),
	"Huf Manager": (
		"Huf Manager",
		"Builds and runs everything: agents, tools, knowledge, flows, triggers, providers and prompts.",
		tuple(c for c in CAPABILITIES if c != "settings.write"),
	),
	"Huf User": ("Huf User", "Uses agents, chat, knowledge, tools and flows; builds nothing.", _USE),
	"Huf Viewer": ("Huf Viewer", "Looks at agents and at their own conversations; changes nothing.", ("agent.read", "run.read")),
	"Huf Gateway User": ("Huf Gateway User", "The account a channel runs as: may only use agents.", ("agent.read", "agent.run", "run.read")),
}
GATEWAY_ROLE = "Huf Gateway User"

# "module.function" of a whitelisted method -> the capability it needs ("" when it is open to
# everyone who reaches it, and says why in `open_to`).
NEEDS: dict[str, str] = {}
OPEN: dict[str, str] = {}


class UnknownCapability(ValueError):
	pass


def check_known(capability: str) -> str:
	if capability not in CAPABILITIES:
		raise UnknownCapability(capability)
	return capability


def needs(capability: str) -> Callable:
	"""Put a whitelisted method under ``capability``: a caller without it gets 403 before the body runs.
	Goes under ``@frappe.whitelist()`` (so Frappe whitelists the checking function)."""
	check_known(capability)

	def wrap(fn: Callable) -> Callable:
		@functools.wraps(fn)
		def checked(*args, **kwargs):
			require(capability)
			return fn(*args, **kwargs)

		NEEDS[f"{fn.__module__}.{fn.__qualname__}"] = capability
		return checked

	return wrap


def open_to(reason: str) -> Callable:
	"""Mark a whitelisted method that checks who calls it itself (a Guest may reach it), saying why."""

	def wrap(fn: Callable) -> Callable:
		OPEN[f"{fn.__module__}.{fn.__qualname__}"] = reason
		return fn

	return wrap


def roles_with(capability: str) -> list[str]:
	return [name for name, (_role, _about, caps) in BUILTIN_ROLES.items() if capability in caps]


def markdown_table() -> str:
	"""The table in docs/who-may-do-what.md: each capability, what it allows, and which built-in Huf Roles hold it."""
	lines = ["| Capability | What it allows | Built-in Huf Roles that hold it |", "| :--- | :--- | :--- |"]
	for name, about in CAPABILITIES.items():
		lines.append(f"| `{name}` | {about} | {', '.join(roles_with(name))} |")
	return "\n".join(lines)


# --- who holds what ---------------------------------------------------------------------------
# A person's capabilities are those of every Huf Role whose Frappe Role they hold. They are worked out
# once per request (``frappe.local``) from the Frappe roles Frappe already caches and one cached map
# of role -> capabilities, so a check after the first costs a dictionary lookup and no SQL. (Frappe
# is imported inside: ``python -m huf.capabilities`` prints the table without it.)

ROLE_MAP_KEY = "huf:role_capabilities"


def _role_capabilities() -> dict[str, frozenset[str]]:
	"""Frappe Role -> the capabilities of the Huf Roles mapped to it (cached until a Huf Role changes)."""
	import frappe

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


def frappe_roles_with(capability: str) -> list[str]:
	"""The Frappe Roles whose holders have ``capability`` (through a Huf Role)."""
	check_known(capability)
	return sorted(role for role, held in _role_capabilities().items() if capability in held)


def forget_capabilities() -> None:
	"""After a Huf Role changed: the site-wide role -> capabilities map too."""
	import frappe

	frappe.cache.delete_value(ROLE_MAP_KEY)
	forget_held()
	frappe.local.huf_role_map = None


def forget_held() -> None:
	"""After someone's roles changed (a Huf User Role, a User saved): only this request's answers;
	the role -> capabilities map does not depend on who holds the roles."""
	import frappe

	frappe.local.huf_capabilities = {}


def capabilities(user: str | None = None) -> frozenset[str]:
	import frappe

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
	import frappe

	if capability not in CAPABILITIES:
		check_known(capability)
	user = user or frappe.session.user
	known = getattr(frappe.local, "huf_capabilities", None)
	if known is not None and user in known:
		return capability in known[user]
	return capability in capabilities(user)


def require(capability: str, user: str | None = None) -> None:
	"""403 unless the user holds ``capability``, with words a person can take to an admin."""
	import frappe
	from frappe import _

	if not has_capability(user, capability):
		frappe.throw(
			_("You need the Huf permission \"{0}\" ({1}) for this. Ask whoever runs Huf here to give you a role that has it.").format(
				capability, _(CAPABILITIES[capability]).rstrip(".").lower()
			),
			frappe.PermissionError,
			title=_("Not allowed"),
		)


if __name__ == "__main__":
	print(markdown_table())
