"""One assistant turn on the site: the model chosen in Agent Settings (``assistant_model``, with its
fallbacks), the engine's propose-check-retry turn, and its progress in the event log, where the web
app reads it through the chat's own stream (``/huf/stream/assistant/<turn>``, huf/ai/run/stream.py).

A turn's log is named by the person and the turn id the web app makes, so only they can follow it;
it ends with a final ``status`` event like a run's.

Every turn is recorded as an Agent Run of the person (``record``): agent "Builder Assistant"
(``agent.py``), run_kind "assistant", the model the turn uses and its provider, the request as its
prompt, a short summary of the answer as its response, and the tokens and cost summed over the
turn's model calls, ended through ``lifecycle.finish`` / ``fail``. The row is committed Started
before the first model call, so a worker that dies mid-turn leaves a run the minute sweep ends as
Failed (``runs.sweep_stale_runs``, ``resume.interrupted``: never resumed, never queued)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Sequence

import frappe
from frappe import _

from huf.ai import models
from huf.ai.run import event_log, lifecycle
from huf.ai.assistant import agent
from huf.ai.run.cost import cost_function
from huf.ai.engine import llm
from huf.ai.engine.assistant.prompts import MAX_REQUEST_CHARS
from huf.ai.engine.assistant.proposal import Checked
from huf.ai.engine.assistant.turn import Answer, Progress, run_turn
from huf.ai.engine.events import ErrorEvent
from huf.ai.engine.loop import LoopResult
from huf.ai.engine.tools import Tool

TURN_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
CALL_TIMEOUT = 60.0  # seconds a provider may stay silent
CALL_DEADLINE = 60.0  # seconds one model call may take in all
MAX_SUMMARY_CHARS = 2_000  # of the answer, kept as the run's response
TURN_SECONDS = 90.0  # a turn runs inside a web request: past this it stops (a model call in flight too), the best attempt so far is the answer


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


def run(
	turn: str | None, prompt: str, messages: list[dict], tools: Sequence[Tool], check: Callable[[str], Checked]
) -> dict:
	"""One turn: ``prompt`` is what the person asked, in words (the run's prompt)."""
	name = agent.assistant_model()
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

	recorded = record(name, prompt)
	ends = time.monotonic() + TURN_SECONDS
	try:
		answer = run_turn(request, tools, check, progress, cost_of=cost_function(name), should_cancel=lambda: time.monotonic() > ends)
	except Exception:
		frappe.db.rollback()
		lifecycle.fail(recorded, _("The assistant stopped before it answered; ask again."), "internal")
		event_log.append(log, "status", {"status": "Failed"})  # the turn's stream ends too
		raise
	ended = lifecycle.finish(recorded, spent(answer))
	event_log.append(log, "status", {"status": "Failed" if answer.status == "failed" else "Success"})
	return {"turn": turn, "run": ended["run"], **answer.to_dict()}


def record(model: str, prompt: str) -> lifecycle.Run:
	"""The turn's Agent Run, Started and committed before the first model call (the Builder Assistant
	agent made again first, when an admin deleted it)."""
	agent.ensure(model)
	run = lifecycle.create(
		"assistant", agent.identity(model), frappe.session.user, (prompt or "")[:MAX_REQUEST_CHARS], None,
		status="Started", channel="assistant",
	)  # fmt: skip
	frappe.db.commit()
	return run


def spent(answer: Answer) -> LoopResult:
	"""The turn as the loop's result ``lifecycle.finish`` ends a run with."""
	failed = answer.status == "failed"
	error = (answer.error or ErrorEvent("internal", _("The assistant had no answer."))) if failed else None
	return LoopResult(
		status="failed" if failed else "success",
		response=summary(answer),
		usage=answer.usage,
		cost=answer.cost,
		turns=answer.model_calls,
		model=answer.model,
		error=error,
	)


def summary(answer: Answer) -> str:
	"""What the turn proposed or explained, and the problems left, in a few lines."""
	said = answer.proposal or {}
	lines = [str(said.get(key)).strip() for key in ("summary", "what_went_wrong", "what_to_change") if str(said.get(key) or "").strip()]
	changed = ", ".join(f"{what} {', '.join(map(str, ids))}" for what, ids in (answer.changes or {}).items() if ids)
	if changed:
		lines.append(f"Steps {changed}.")
	if isinstance(answer.result, dict) and answer.result.get("agent_name") and not said.get("summary"):
		lines.append(f"Drafted the agent {answer.result['agent_name']}.")
	missing = said.get("not_possible")
	lines += [f"Not possible: {item}" for item in (missing if isinstance(missing, list) else []) if isinstance(item, str)]
	if answer.problems:
		lines.append(f"Problems left after {answer.attempts} attempt(s): " + "; ".join(answer.problems))
	if answer.status == "failed" and answer.error:
		lines.append(answer.error.message)
	return "\n".join(lines)[:MAX_SUMMARY_CHARS]
