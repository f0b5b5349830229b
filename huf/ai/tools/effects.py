"""A tool's effect (``engine/effects.py``) from its Agent Tool Function: what its form says, else
what its kind implies. The Desk field reads as what happens "If a run stops during a call"; MCP
Server Tool rows have the same field (``chosen_effect``), whose Automatic follows the server's hints."""

from __future__ import annotations

from huf.ai.engine.effects import DATABASE, ONCE, REPEATABLE
from huf.ai.tools.doctype_tools import HANDLERS

CHOSEN = {"Safe to repeat": REPEATABLE, "Ask before repeating": ONCE}
DECLARED = {REPEATABLE: "Safe to repeat", DATABASE: "Safe to repeat", ONCE: "Ask before repeating"}  # an app's ``effect``
KIND = {"GET": REPEATABLE, "Speech to Text": REPEATABLE}  # POST, functions and Run Agent: ONCE


def chosen_effect(value: str | None) -> str | None:
	"""The effect a form's "If a run stops during a call" chooses; None for Automatic (or nothing)."""
	return CHOSEN.get(value or "")


def tool_effect(doc) -> str:
	"""DATABASE for the document tools (their writes commit with the step or round that made them);
	REPEATABLE for GET requests; ONCE for the rest, unless the form says otherwise."""
	chosen = chosen_effect(doc.get("effect"))
	if chosen:
		return chosen
	if doc.types in HANDLERS:
		return DATABASE
	return KIND.get(doc.types, ONCE)


def declared_field(effect: str) -> str | None:
	"""The form's value for an app's declared ``effect`` ("repeatable", "database" or "once"); None
	for a value that is none of them."""
	return DECLARED.get(effect)
