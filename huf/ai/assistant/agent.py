"""The Builder Assistant: the assistant as a Huf agent, an Agent record that is its identity and
instructions. Its turns are Agent Runs of this agent (run_kind "assistant", ``turns.py``), so they
are counted and priced like every other model use.

One source of truth for its model: Agent Settings' ``assistant_model``. A turn reads the model
there; the agent's own model and provider are a copy kept for the record's sake (``follow``, on
every save of Agent Settings and at migrate), never read by a turn. Its ``instructions`` are the
assistant's own (``prompts.INSTRUCTIONS`` until an admin edits them; emptied, the built-in ones
apply again). It is not offered in chat (``allow_chat`` 0). ``ensure`` makes it when it is missing:
at install and every migrate (``huf/install.py``), and at a turn, so one an admin deleted comes back."""

from __future__ import annotations

import frappe

from huf.ai.engine.assistant import prompts

AGENT = "Builder Assistant"
DESCRIPTION = (
	"The builder assistant: drafts flows and agents from this site's parts and explains failed runs. Its model is "
	"Agent Settings' Builder Assistant Model; its turns are recorded as its runs."
)


def assistant_model() -> str | None:
	return frappe.db.get_single_value("Agent Settings", "assistant_model") or None


def ensure(model: str | None = None) -> str:
	"""The agent's name, after making it when it is missing (with the assistant model, read from Agent
	Settings unless the caller already has it)."""
	model = model or assistant_model()
	if follow(model):
		return AGENT
	doc = frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": AGENT,
			"description": DESCRIPTION,
			"instructions": prompts.INSTRUCTIONS,
			"allow_chat": 0,
			"model": model,
			"provider": _provider(model),
		}
	)
	doc.flags.ignore_mandatory = not model  # a new site has no model yet: Agent Settings gives it one later
	try:
		doc.insert(ignore_permissions=True)
	except frappe.DuplicateEntryError:  # a turn at the same moment made it
		frappe.clear_last_message()
	return AGENT


def follow(model: str | None = None) -> bool:
	"""Copy Agent Settings' assistant model (and its provider) onto the agent, when they differ;
	False when there is no such agent."""
	model = model if model is not None else assistant_model()
	now = frappe.db.get_value("Agent", AGENT, ["model", "provider"], as_dict=True)
	if now is None:
		return False
	provider = _provider(model)
	if (now.model or None, now.provider or None) != (model, provider):
		frappe.db.set_value("Agent", AGENT, {"model": model, "provider": provider}, update_modified=False)
	return True


def instructions() -> str | None:
	"""The agent's instructions as an admin left them (None: the built-in ones)."""
	return (frappe.db.get_value("Agent", AGENT, "instructions") or "").strip() or None


def identity(model: str):
	"""What ``lifecycle.create`` records a turn's run with: this agent, and the model the turn uses."""
	return frappe._dict(name=AGENT, model=model, provider=_provider(model))


def _provider(model: str | None) -> str | None:
	return frappe.get_cached_value("AI Model", model, "provider") if model else None
