"""What a person may do in Huf: every capability, in one place, and the Huf Roles built from them.

A capability is ``<area>.<action>``. A Huf Role holds a set of them and maps to one Frappe Role
(``Huf Role.frappe_role``); whoever holds that Frappe Role has the Huf Role's capabilities
(huf/permissions.py ``has_capability``). Whitelisted methods name theirs with ``needs``, which is
how the permission walk (tests/site/test_access_matrix.py) and the README's capability table
(``python -m huf.capabilities``) know them.

``DOCTYPE_RIGHTS`` is what each capability lets its holder do to Huf's records in Desk and through
the REST API; a custom Huf Role gets exactly those rights (huf_role.py), and the built-in roles'
standard permissions are checked against it (tests/site/test_huf_roles.py).
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
	"provider.write": "Add and change AI providers and models, and test their connection.",
	"knowledge.read": "See knowledge sources and search them.",
	"knowledge.write": "Create knowledge sources, add to them and rebuild their index.",
	"flow.read": "See flows and their runs.",
	"flow.run": "Start flows and act on one's own flow runs (resume, retry, skip, end).",
	"flow.write": "Create, change and delete flows.",
	"trigger.write": "Create and change triggers, run them now and send test deliveries.",
	"prompt.read": "See the prompt library and its versions.",
	"prompt.write": "Write and change prompts in the prompt library.",
	"settings.write": "Decide who has which Huf role, make custom roles and manage content that apps ship.",
}

R, RW = "r", "rwcd"
DOCTYPE_RIGHTS: dict[str, dict[str, str]] = {
	"agent.read": {"Agent": R, "AI Provider": R, "AI Model": R},
	"agent.run": {"Agent Chat": R, "Agent Run Feedback": "rwc"},
	"run.read": {"Agent Conversation": R, "Agent Message": R, "Agent Run": R, "Agent Tool Call": R},
	"agent.write": {"Agent": RW, "Agent Settings": RW},
	"run.read.all": {
		"Agent Conversation": "rd", "Agent Message": "rd", "Agent Run": "rd", "Agent Tool Call": "rd", "Agent Run Feedback": "rd",
	},
	"tool.read": {"Agent Tool Function": R, "Agent Tool Type": R},
	"tool.write": {"Agent Tool Function": RW, "Agent Tool Type": RW},
	"tool.mcp.write": {"MCP Server": RW},
	"provider.write": {"AI Provider": RW, "AI Model": RW},
	"knowledge.read": {"Knowledge Source": R, "Knowledge Input": R},
	"knowledge.write": {"Knowledge Source": RW, "Knowledge Input": RW},
	"flow.read": {"Flow Definition": R, "Flow Definition Version": R, "Flow Run": R},
	"flow.run": {"Flow Run": R},
	"flow.write": {"Flow Definition": RW, "Flow Run": "rcd"},
	"trigger.write": {"Agent Trigger": RW},
	"prompt.read": {p: R for p in ("Agent Prompt", "Agent Prompt Category", "Agent Summary Prompt", "Agent Summary Prompt Category")},
	"prompt.write": {p: RW for p in ("Agent Prompt", "Agent Prompt Category", "Agent Summary Prompt", "Agent Summary Prompt Category")},
	"settings.write": {"Huf Role": RW, "Huf User Role": RW, "Huf Seed Record": R},
}

_USE = ("agent.read", "agent.run", "run.read", "tool.read", "knowledge.read", "flow.read", "flow.run", "prompt.read")

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
			from huf.permissions import require

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
	"""The README's table: each capability, what it allows, and which built-in Huf Roles hold it."""
	lines = ["| Capability | What it allows | Built-in Huf Roles that hold it |", "| :--- | :--- | :--- |"]
	for name, about in CAPABILITIES.items():
		lines.append(f"| `{name}` | {about} | {', '.join(roles_with(name))} |")
	return "\n".join(lines)


if __name__ == "__main__":
	print(markdown_table())
