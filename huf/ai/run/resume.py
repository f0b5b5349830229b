"""Agent runs that go on after the worker running them died, from their last recorded step.

A run's worker can die at any moment (a deploy, the out-of-memory killer, a crash). What it had
recorded is committed; the round in flight is not (``recorder.py``). ``interrupted`` decides what
the run does next, from its committed rows alone:

- **resumed**: nothing that may act only once was in flight. The run is Queued again
  (``resumed_count`` + 1, ``interrupted_at``) and its drainer goes on from its last recorded message
  (``going_on``): the person's message is not written again, recorded rounds are not asked again,
  calls of its last round that have a result are not run again, the others are (database tools:
  their writes were rolled back with the round; repeatable tools: same arguments, same call id, so
  the same idempotency key). The chat shows "Resumed after an interruption" (``ResumedEvent``).
- **attention**: a call whose tool may act only once (``engine/effects.py`` ONCE: a POST, a custom
  function, an MCP tool not marked idempotent) was in flight: a committed Started row without a
  result. Nobody can tell whether it acted, so the run stops as Needs Attention, the call is
  Interrupted, and the run's owner gets a notification. ``resolve`` is their answer: Retry (the call
  runs again), Skip (a value, or a note, is its result) or End (the run is Cancelled).
- **failed**: after ``MAX_RESUMES`` resumes (a run that kills its worker each time must not loop),
  for runs no drainer executes (flow orchestrator and tool runs), and for a flow's agent run whose
  flow no longer runs. A builder assistant turn (run_kind ``assistant``) answered a web request that
  is gone: it ends Failed with "The assistant stopped before it answered; ask again." (the sweep
  leaves it alone for ``runs.ASSISTANT_TURN_LIMIT`` first: a turn has no heartbeat).
- **skipped**: nothing to do (the run is not Started any more: someone else decided; or it is a
  sub-agent or title run, which go with the run they belong to).

Sub-agent runs (the Run Agent tool) are not resumed by themselves: their worker was their parent's,
so they are failed (``worker_lost``) and the parent's Run Agent call is decided like any other call
(ONCE unless the tool is marked safe to repeat). Agent runs of a flow step are resumed by their flow
(``flow/ports.py``), not by the sweep or ``recover_conversation``.

Who calls ``interrupted``: ``recover_conversation`` (the RQ job enqueued when a conversation's
drainer is known to have died), the minute sweep (``runs.sweep_stale_runs``, the backstop: a Started
run whose heartbeat is gone) and a flow hop whose worker died. Each locks the run row and checks its
status again, so two of them at once decide once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlencode

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.run import event_log, lifecycle
from huf.ai.run.approvals import DECIDED, DecisionConflict
from huf.ai.run.conversations import to_openai
from huf.ai.run.cost import cost_function
from huf.ai.engine.events import ResumedEvent, ToolCall, Usage
from huf.ai.engine.loop import Decision, Resume
from huf.ai.run.recorder import Recorder
from huf.ai.run.rows import commit, update_row

MAX_RESUMES = 3
ATTENTION = "Needs Attention"
INTERRUPTED = "Interrupted"  # an Agent Tool Call that may or may not have acted
SKIPPED = "Skipped"
RESUMABLE_KINDS = {"chat", "trigger", "agent"}  # runs a conversation's drainer executes
ACTIONS = ("retry", "skip", "end")
MAX_VALUE = 20_000  # characters of a value a person gives a skipped call as its result
RUN_FIELDS = "name, agent, user, conversation, run_kind, channel, parent_run, flow_run, started_at, status, resumed_count, model"
SPENT_FIELDS = ("input_tokens", "output_tokens", "cached_tokens", "total_tokens", "total_cost")


@dataclass
class GoingOn:
	"""What a run that goes on starts from (after a person's decision, or after its worker died)."""

	first_sequence: int  # the run's own user message: its history ends before it
	messages: list[dict]  # the run's messages after that one, as the model saw them
	resume: Resume | None  # None: no round was recorded, the run asks the model its first question again
	known: dict[str, str]  # call id -> its Agent Tool Call, for the calls still to run
	usage: Usage  # what the run spent before
	cost: float


def going_on(run: str) -> GoingOn:
	"""The run's recorded messages, and the calls of its last round that have no recorded result
	(with the decisions a person made on them). Its next model call is the round after that one."""
	rows = _messages(run)
	history = [to_openai(row) for row in rows[1:]]  # after the person's message, which prepare_run builds
	rounds = [index for index, message in enumerate(history) if message.get("tool_calls")]
	spent = frappe.db.get_value("Agent Run", run, ["input_tokens", "output_tokens", "cached_tokens", "total_cost"], as_dict=True)
	usage = Usage(spent.input_tokens or 0, spent.output_tokens or 0, spent.cached_tokens or 0)
	if not rounds:
		return GoingOn(rows[0].sequence, history, None, {}, usage, spent.total_cost or 0.0)
	last = rounds[-1]
	answered = {message.get("tool_call_id") for message in history[last + 1 :] if message["role"] == "tool"}
	remaining = [call for call in history[last]["tool_calls"] if call["id"] not in answered]
	calls = frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": run, "call_id": ["in", [call["id"] for call in remaining]]},
		fields=["name", "call_id", "status", "approval_comment"],
	) if remaining else []  # fmt: skip
	resume = Resume(
		turn=len(rounds),
		calls=tuple(ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in remaining),
		decisions={
			call.call_id: Decision(call.status == "Approved", call.approval_comment or "")
			for call in calls
			if call.status in DECIDED.values()
		},
	)
	known = {call.call_id: call.name for call in calls}
	return GoingOn(rows[0].sequence, history, resume, known, usage, spent.total_cost or 0.0)


def _messages(run: str) -> list[dict]:
	return frappe.db.sql(
		"""select sequence, role, kind, content, tool_call_id, tool_calls, raw_payload from `tabAgent Message`
		where agent_run = %s and context_policy != 'exclude' order by sequence""",
		run,
		as_dict=True,
	)


# --- a run whose worker died -----------------------------------------------------------------------


def interrupted(run: str) -> str:
	"""Decide what a Started run whose worker died does next (the caller knows the worker died):
	"resumed", "attention", "failed" or "skipped" (see the module's docstring). Commits."""
	row = _locked(run)
	if not row or row.status != "Started" or row.parent_run:
		commit()  # let the row go
		return "skipped"
	current = lifecycle.of_row(row)
	if row.run_kind == "assistant":  # a turn answers its web request, which is gone: never run again
		lifecycle.fail(current, _(ASSISTANT_LOST), "worker_lost")
		return "failed"
	if (row.run_kind or "chat") not in RESUMABLE_KINDS or (row.flow_run and frappe.db.get_value("Flow Run", row.flow_run, "status") != "Running"):
		lifecycle.fail(current, _(LOST), "worker_lost")  # nothing would read its answer any more
		return "failed"
	if (row.resumed_count or 0) >= MAX_RESUMES:
		message = _(
			"The background worker running this stopped {0} times during it (it was restarted or killed each time), "
			"so it was not started again. Send the message again to retry."
		).format(row.resumed_count + 1)
		lifecycle.fail_with_children(current, message, "worker_lost")
		return "failed"
	now = now_datetime()
	spent = _spent(row)
	flying = frappe.db.get_value(
		"Agent Tool Call", {"agent_run": run, "status": "Started"}, ["name", "call_id", "tool", "tool_args"], as_dict=True
	)
	if flying:
		update_row("Agent Tool Call", flying.name, {"status": INTERRUPTED})
		update_row("Agent Run", run, {"status": ATTENTION, "interrupted_at": now, **spent})
		_notify(row, flying.tool)
		lifecycle.publish_status(current, ATTENTION, call=call_info(flying))
		outcome = "attention"
	else:
		update_row("Agent Run", run, {"status": "Queued", "resumed_count": (row.resumed_count or 0) + 1, "interrupted_at": now, **spent})
		_announce(current)
		outcome = "resumed"
	commit()  # the run's new status; the row lock goes with it
	lifecycle.fail_children(run, _(CHILD_LOST), "worker_lost")
	return outcome


ASSISTANT_LOST = "The assistant stopped before it answered; ask again."
LOST = "The background worker running this stopped before it finished (it was restarted or killed)."
CHILD_LOST = (
	"The background worker running this stopped before it finished (it was restarted or killed). "
	"The run that asked for it goes on without it, or asks its owner what to do."
)


def _locked(run: str):
	rows = frappe.db.sql(f"select {RUN_FIELDS} from `tabAgent Run` where name = %s for update", run, as_dict=True)
	return rows[0] if rows else None


def _spent(row) -> dict:
	"""What the run has spent, counted again from its recorded model rounds (each assistant message
	keeps its call's usage): a run's totals are otherwise written only when it pauses or ends.
	Never less than what its row already says (a model call whose answer was lost is not known)."""
	cost_of = cost_function(row.model)
	usage, cost = Usage(), 0.0
	for (payload,) in frappe.db.sql(
		"select raw_payload from `tabAgent Message` where agent_run = %s and role = 'agent' and raw_payload is not null", row.name
	):
		data = json.loads(payload) if isinstance(payload, str) else payload
		if not isinstance(data, dict) or "usage" not in data:
			continue
		got = data["usage"]
		spent = Usage(got.get("input_tokens", 0), got.get("output_tokens", 0), got.get("cached_tokens", 0), got.get("cache_write_tokens", 0))
		usage += spent
		cost += cost_of(data.get("model") or "", spent)
	before = frappe.db.get_value("Agent Run", row.name, list(SPENT_FIELDS), as_dict=True)
	counted = {
		"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens, "cached_tokens": usage.cached_tokens,
		"total_tokens": usage.total_tokens, "total_cost": round(cost, 8),
	}  # fmt: skip
	return {field: max(counted[field], before[field] or 0) for field in SPENT_FIELDS}


def call_info(call) -> dict:
	"""The interrupted call as the chat shows it: id, tool name and the arguments the model gave."""
	args = call.tool_args
	return {"id": call.call_id, "name": call.tool, "arguments": args if isinstance(args, str) else json.dumps(args or {})}


def _announce(run: lifecycle.Run) -> None:
	"""The run goes on: its stream says so (the text it goes on from: its recorded rounds' text,
	without the round that was lost), then that it is Queued."""
	text = "".join(
		content or ""
		for (content,) in frappe.db.sql(
			"select content from `tabAgent Message` where agent_run = %s and role = 'agent' and kind = 'Tool Call' order by sequence",
			run.name,
		)
	)
	event_log.relay(run.name, run.conversation)(ResumedEvent(text=text))
	lifecycle.publish_status(run, "Queued")


def _notify(row, tool: str) -> None:
	"""Tell the run's owner (Frappe's notifications: the bell in the Desk, and its email settings)."""
	from frappe.desk.doctype.notification_settings.notification_settings import is_notifications_enabled

	if row.user in (None, "Guest") or not is_notifications_enabled(row.user):
		return
	chat = urlencode({"agent": row.agent, "conversation": row.conversation})
	link = f"/huf/chat?{chat}" if row.channel == "chat" else f"/huf/runs/{row.name}"
	subject = _(
		"{0} was interrupted while it was using {1}. It may or may not have done it: open the run to retry it, skip it or end the run."
	).format(frappe.bold(row.agent), frappe.bold(tool))
	frappe.get_doc(
		{
			"doctype": "Notification Log",
			"for_user": row.user,
			"type": "Alert",
			"document_type": "Agent Run",
			"document_name": row.name,
			"subject": subject,
			"link": link,
		}
	).insert(ignore_permissions=True)  # Huf writes it for the run's owner, whoever found the run


# --- a person decides -------------------------------------------------------------------------------


def resolve(run: str, call_id: str, action: str, value: str | None = None) -> dict:
	"""A person's answer to a run in Needs Attention (the caller checked they may answer): ``retry``
	runs the interrupted call again, ``skip`` records ``value`` (or a note saying it was skipped) as
	its result, ``end`` ends the run (Cancelled). ``value`` comes stripped and checked by the endpoint. Retry and Skip queue the run again. Row-locks the
	run: a second answer gets 409."""
	if action not in ACTIONS:
		frappe.throw(_("Choose retry, skip or end."))
	row = _locked(run)
	if row.status != ATTENTION:
		raise DecisionConflict(_("This run is not waiting for a decision about an interrupted step (it is {0}).").format(_(row.status)))
	call = frappe.db.get_value("Agent Tool Call", {"agent_run": run, "call_id": call_id}, ["name", "call_id", "tool", "status"], as_dict=True)
	if not call:
		frappe.throw(_("This run has no tool call {0}.").format(call_id), frappe.DoesNotExistError)
	if call.status != INTERRUPTED:
		raise DecisionConflict(_("This step was already decided ({0}).").format(_(call.status)))
	current = lifecycle.of_row(row)
	decided = {"decided_by": frappe.session.user, "decided_at": now_datetime()}
	lifecycle.wake(row.conversation)  # after commit: the conversation's later runs, or this one again
	if action == "end":
		update_row("Agent Tool Call", call.name, {**decided, "approval_comment": _("Ended the run")})
		message = _("Ended by {0} after an interruption: {1} may or may not have done what it was asked.").format(frappe.session.user, call.tool)
		status = lifecycle.end(current, message, "ended_after_interruption")
		return {"run": run, "call_id": call_id, "action": action, "status": status["status"]}
	if action == "retry":
		# Approved: the loop runs it (a call needing approval counts as approved by this choice)
		update_row("Agent Tool Call", call.name, {"status": "Approved", **decided, "approval_comment": _("Retried after an interruption")})
	else:
		result = value or json.dumps({"skipped": _(SKIPPED_NOTE).format(call.tool)})
		update_row("Agent Tool Call", call.name, {"status": SKIPPED, "tool_result": json.dumps({"skipped": True, "value": value or None}), **decided})
		recorder = Recorder(run, row.conversation, row.agent, row.user)
		recorder.message(
			"tool", "Tool Result", result, record_kind="tool_result", tool_call=call.name, tool_call_id=call_id,
			tool_name=call.tool, tool_status=SKIPPED,
		)  # fmt: skip
		recorder.flush()
	update_row("Agent Run", run, {"status": "Queued"})
	_announce(current)
	commit()
	return {"run": run, "call_id": call_id, "action": action, "status": "Queued"}


SKIPPED_NOTE = (
	"{0} was interrupted and may or may not have done what it was asked. A person chose to go on without running it again."
)


# --- recovering a conversation whose drainer died --------------------------------------------------


def recover_conversation(conversation: str) -> None:
	"""The RQ job enqueued when a conversation's drainer is known to have died (its dotted path is in
	queued jobs: keep it). Waits for the dead drainer's lock to lapse (at most one lock lifetime): a
	lock that is still renewed after that belongs to a live drainer, and nothing is done. Holding the
	lock, every Started run of the conversation has lost its worker: each goes through
	``interrupted`` (sub-agent runs with their parent; flow agent runs are their flow's). Then the
	conversation's drainer is woken."""
	frappe.db.commit()  # a fresh snapshot: what the dead worker committed last
	lock = frappe.cache.lock(
		lifecycle.lock_key(conversation), timeout=lifecycle.lock_ttl(), blocking_timeout=lifecycle.lock_ttl() + 1, thread_local=False
	)
	if not lock.acquire(blocking=True):
		return
	try:
		frappe.db.commit()  # and again after the wait
		for name in frappe.get_all(
			"Agent Run",
			filters={"conversation": conversation, "status": "Started", "parent_run": ["is", "not set"], "flow_run": ["is", "not set"]},
			pluck="name",
		):
			interrupted(name)
	finally:
		try:
			lock.release()
		except Exception:  # noqa: BLE001 - it lapsed while we worked: the next holder owns it
			pass
	lifecycle.wake(conversation)
	frappe.db.commit()
