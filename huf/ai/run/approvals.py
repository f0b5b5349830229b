"""Tools that need a person's approval: what a paused run waits on, and a person's decision.

A run pauses (``lifecycle.pause``) when the model asks for a call of a tool marked Requires
approval; its Agent Tool Call rows say Awaiting Approval and its conversation's later runs wait
(``runs.next_queued``). ``decide`` records a decision; once every waiting call of the round is
decided the run is Queued again and its drainer woken, and ``resume.going_on`` gives the executor
the run's own messages and the decisions, so the loop goes on with that round (``engine/loop.py``).
"""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.run import event_log, lifecycle
from huf.ai.run.rows import update_row

WAITING = "Awaiting Approval"
DECIDED = {True: "Approved", False: "Rejected"}
MAX_COMMENT = 1000


class DecisionConflict(frappe.ValidationError):
	"""The run is not waiting, or the call was already decided."""

	http_status_code = 409


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
