"""Tools that need a person's approval: what a paused run waits on, a person's decision, and what a
resumed run goes on from.

A run pauses (``lifecycle.pause``) when the model asks for a call of a tool marked Requires
approval; its Agent Tool Call rows say Awaiting Approval and its conversation's later runs wait
(``runs.next_queued``). ``decide`` records a decision; once every waiting call of the round is
decided the run is Queued again and its drainer woken, and ``paused_state`` gives the executor the
run's own messages and the decisions, so the loop goes on with that round (``engine/loop.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai import event_log, lifecycle
from huf.ai.conversations import to_openai
from huf.ai.engine.events import ToolCall, Usage
from huf.ai.engine.loop import Decision, Resume
from huf.ai.rows import update_row

WAITING = "Awaiting Approval"
DECIDED = {True: "Approved", False: "Rejected"}
MAX_COMMENT = 1000


class DecisionConflict(frappe.ValidationError):
	"""The run is not waiting, or the call was already decided."""

	http_status_code = 409


@dataclass
class Paused:
	first_sequence: int  # the run's own user message: its history ends before it
	messages: list[dict]  # the run's messages after that one, as the model saw them
	resume: Resume
	known: dict[str, str]  # call id -> its Agent Tool Call
	usage: Usage  # what the run spent before it paused
	cost: float


def decide(run: str, call_id: str, approved: bool, comment: str) -> dict:
	"""Record a person's decision on a waiting call (the caller checked they may decide). Row-locks
	the run, so two decisions at once cannot both re-queue it."""
	rows = frappe.db.sql(
		"select name, agent, user, conversation, run_kind, status from `tabAgent Run` where name = %s for update",
		run,
		as_dict=True,
	)
	if rows[0].status != WAITING:
		raise DecisionConflict(_("This run is not waiting for a decision any more (it is {0}).").format(_(rows[0].status)))
	call = frappe.db.get_value("Agent Tool Call", {"agent_run": run, "call_id": call_id}, ["name", "status"], as_dict=True)
	if not call:
		frappe.throw(_("This run has no tool call {0}.").format(call_id), frappe.DoesNotExistError)
	if call.status != WAITING:
		raise DecisionConflict(_("This tool call was already decided ({0}).").format(_(call.status)))
	status = DECIDED[approved]
	values = {"status": status, "decided_by": frappe.session.user, "decided_at": now_datetime(), "approval_comment": comment or None}
	update_row("Agent Tool Call", call.name, values)
	event_log.append(run, "tool_decision", {"type": "tool_decision", "run": run, "id": call_id, "decision": status})
	left = frappe.db.count("Agent Tool Call", {"agent_run": run, "status": WAITING})
	if not left:  # the round is decided: the run goes on in the background, before its conversation's later runs
		update_row("Agent Run", run, {"status": "Queued"})
		lifecycle.publish_status(lifecycle.of_row(rows[0]), "Queued")
		lifecycle.wake(rows[0].conversation)
	return {"run": run, "call_id": call_id, "decision": status, "status": WAITING if left else "Queued", "waiting": left}


def paused_state(run: str) -> Paused:
	"""What a resumed run goes on from: its messages, the waiting round and the decisions on it."""
	messages = frappe.db.sql(
		"""select sequence, role, kind, content, tool_call_id, tool_calls, raw_payload from `tabAgent Message`
		where agent_run = %s and context_policy != 'exclude' order by sequence""",
		run,
		as_dict=True,
	)
	calls = frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": run, "status": ["in", [WAITING, *DECIDED.values()]]},
		fields=["name", "call_id", "status", "approval_comment", "turn"],
	)
	spent = frappe.db.get_value(
		"Agent Run", run, ["input_tokens", "output_tokens", "cached_tokens", "total_cost"], as_dict=True
	)
	history = [to_openai(row) for row in messages[1:]]  # after the person's message, which prepare_run builds
	waiting = history[-1]["tool_calls"]  # the round that paused is the run's last message
	resume = Resume(
		turn=max(call.turn or 0 for call in calls),
		calls=tuple(ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in waiting),
		decisions={
			call.call_id: Decision(call.status == "Approved", call.approval_comment or "")
			for call in calls
			if call.status in DECIDED.values()
		},
	)
	usage = Usage(spent.input_tokens or 0, spent.output_tokens or 0, spent.cached_tokens or 0)
	known = {call.call_id: call.name for call in calls}
	return Paused(messages[0].sequence, history, resume, known, usage, spent.total_cost or 0.0)
