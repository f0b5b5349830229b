"""One assistant turn on the site: the model chosen in Agent Settings (``assistant_model``, with its
fallbacks), the engine's propose-check-retry turn, and its progress in the event log, where the web
app reads it through the chat's own stream (``/huf/stream/assistant/<turn>``, huf/ai/stream.py).

A turn's log is named by the person and the turn id the web app makes, so only they can follow it;
it ends with a final ``status`` event like a run's."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Sequence

import frappe
from frappe import _

from huf.ai import event_log, models
from huf.ai.cost import cost_function
from huf.ai.engine import llm
from huf.ai.engine.assistant.proposal import Checked
from huf.ai.engine.assistant.turn import Progress, run_turn
from huf.ai.engine.tools import Tool

TURN_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
CALL_TIMEOUT = 60.0  # seconds a provider may stay silent
CALL_DEADLINE = 60.0  # seconds one model call may take in all
TURN_SECONDS = 90.0  # a turn runs inside a web request: past this it stops (a model call in flight too), the best attempt so far is the answer


def assistant_model() -> str | None:
	return frappe.db.get_single_value("Agent Settings", "assistant_model") or None


def log_name(turn: str, user: str | None = None) -> str:
	"""The event log of ``turn`` for ``user``: another person's session computes another name."""
	who = hashlib.sha256((user or frappe.session.user).encode()).hexdigest()[:16]
	return f"assistant:{who}:{turn}"


def checked_turn_id(turn: str | None) -> str:
	if turn in (None, ""):
		return frappe.generate_hash(length=16)
	if not TURN_ID.match(str(turn)):
		frappe.throw(_("The turn id must be 8 to 64 letters, digits, dashes or underscores."))
	return str(turn)


def run(turn: str | None, messages: list[dict], tools: Sequence[Tool], check: Callable[[str], Checked]) -> dict:
	name = assistant_model()
	if not name:
		frappe.throw(
			_(
				"The builder assistant has no model yet. An administrator chooses one in Agent Settings (Builder Assistant Model)."
			),
			title=_("Set up the assistant"),
		)
	turn = checked_turn_id(turn)
	log = log_name(turn)
	request = llm.LLMRequest(
		model=models.model_spec(name),
		messages=messages,
		fallback_models=models.fallback_models(name),
		timeout=CALL_TIMEOUT,
		deadline=CALL_DEADLINE,
	)

	def progress(step: Progress) -> None:
		event_log.append(log, "progress", step.to_dict())

	ends = time.monotonic() + TURN_SECONDS
	answer = run_turn(request, tools, check, progress, cost_of=cost_function(name), should_cancel=lambda: time.monotonic() > ends)
	event_log.append(log, "status", {"status": "Failed" if answer.status == "failed" else "Success"})
	return {"turn": turn, **answer.to_dict()}
