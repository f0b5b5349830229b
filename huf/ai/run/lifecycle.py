"""A run's life, the same for every kind of run: its Agent Run row from creation to its end.

    create (Queued, or Started for runs that start at once) -> start_next -> finish | fail | cancel
    start_next -> pause (Awaiting Approval) -> a person decides (Queued again) -> start_next -> ...
    Started, its worker died -> resume.interrupted -> Queued again (it goes on from its last
    recorded step) | Needs Attention (a call that may act only once was in flight) -> a person
    decides: Retry or Skip (Queued again) or End (Cancelled)

Every kind of run goes through here: ``chat`` (a person, an API call or a stream), ``trigger``,
``sub-agent`` (the Run Agent tool), ``title`` (naming a conversation) and ``assistant`` (a builder
assistant turn, run in its web request); flow node runs plug in
with theirs (``agent``, ``tool``, ``orchestrator``). Each change of status is one status event: in
the run's event log (streams) and live to the run's owner. What a run costs comes from
``huf.ai.run.cost`` (the AI Model's prices); the loop sums it per model call and ``finish`` stores it.

Nothing here imports agents or tools, so the Run Agent tool's sub-runs and the title job use it too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from functools import partial

import frappe
import redis
from frappe import _
from frappe.utils import now_datetime, time_diff_in_seconds

from huf.ai.run import event_log, inflight
from huf.ai.engine.loop import LoopResult
from huf.ai.run.rows import column_value, commit, insert_row, update_row, update_where

# run_kind (Agent Run's options): how the run started; agent, tool and orchestrator are for flow steps
# (huf-reference); assistant is a builder assistant turn (huf/ai/assistant/turns.py).
KINDS = ("chat", "trigger", "sub-agent", "title", "agent", "tool", "orchestrator", "assistant")
UNCOUNTED_KINDS = {"title"}  # not the agent's own runs: they leave its run count alone
CANCEL_CHECK_EVERY = 0.25  # seconds between reads of a run's cancel flag
# Statuses of a run that waits for a person: no worker holds it, and its conversation's later runs wait.
HELD = ("Awaiting Approval", "Needs Attention")
STATUS_FIELDS = ["name", "conversation", "status", "response", "error_message", "error_kind", "total_tokens", "total_cost"]


@dataclass
class Run:
	"""What the lifecycle needs to know about a run while it goes."""

	name: str
	agent: str
	user: str
	conversation: str | None
	kind: str
	started: datetime | None = None


def create(
	kind: str, agent, user: str, prompt: str, conversation: str | None, status: str = "Queued", log: list | None = None, **fields
) -> Run:
	"""Insert the Agent Run of ``agent`` (its document: provider and model are recorded) and tell
	its watchers. ``status``: Queued (the drainer starts it) or Started (it runs now). ``log``: the
	status event goes there instead of the run's event log, for the caller to send in a round trip of
	its own (``runs.drain``). ``fields``: what only some kinds have (sequence, channel, trigger,
	parent_run, depth, attachments)."""
	if kind not in KINDS:
		raise ValueError(f"unknown run kind {kind!r}")
	started = now_datetime() if status == "Started" else None
	values = {
		"agent": agent.name,
		"conversation": conversation,
		"user": user,
		"prompt": prompt,
		"status": status,
		"run_kind": kind,
		"provider": agent.provider,
		"model": agent.model,
		"depth": 0,
		"started_at": started,
		**fields,
	}
	run = Run(insert_row("Agent Run", values), agent.name, user, conversation, kind, started)
	publish_status(run, status, log=log)
	return run


def start_next(conversation: str, fields: list[str], known=None) -> tuple[dict, Run] | None:
	"""Claim the conversation's first Queued run for its drainer: one UPDATE, which reads the latest
	committed rows (no fresh snapshot needed; a run cancelled while it waited is no longer Queued) and
	leaves the claimed run's sequence in LAST_INSERT_ID. Returns the run's row (``fields``) and Run,
	or None when nothing is queued; ``known`` is a row its caller just wrote, not read again. Not
	committed here: the executor commits it with the run's first message."""
	started = now_datetime()
	claimed = update_where(
		"""update `tabAgent Run` set status = 'Started', started_at = coalesce(started_at, %s), modified = %s,
		sequence = LAST_INSERT_ID(sequence)
		where conversation = %s and status = 'Queued'
		and not exists (select 1 from `tabAgent Run` held where held.conversation = %s and held.status in %s)
		order by sequence asc limit 1""",
		(started, started, conversation, conversation, HELD),
	)
	if not claimed:
		return None
	sequence = int(frappe.db._cursor.lastrowid)
	if known and known.sequence == sequence:
		row = known
	else:
		row = frappe.db.sql(
			f"select {', '.join(fields)} from `tabAgent Run` where conversation = %s and sequence = %s",
			(conversation, sequence),
			as_dict=True,
		)[0]
	first_start = row.get("started_at") or started  # a resumed run keeps its first start
	run = Run(row.name, row.agent, row.user, row.conversation, row.run_kind or "chat", first_start)
	publish_status(run, "Started")
	return row, run


def finish(run: Run, result: LoopResult, messages: tuple[int, int] = (0, 0), before: list | None = None, **fields) -> dict:
	"""End the run as the loop ended it: answer, tokens, cost, turns, error; committed, then the final
	status event. Returns the run's status (as ``status_of`` would read it). ``messages``: (last
	number, how many) of the run's messages its conversation's counter does not count yet
	(``Recorder.counts``). ``before``: wire events still to log (the run's ``complete``,
	``event_log.relay``), sent with the final status in one round trip."""
	status = {"success": "Success", "cancelled": "Cancelled"}.get(result.status, "Failed")
	values = {**spent(result), **fields}
	if result.error:
		values.update(error_message=result.error.message, error_kind=result.error.kind)
	return _end(run, status, values, messages, before)


def pause(run: Run, result: LoopResult, before: list | None = None, **fields) -> dict:
	"""The run waits for a person's decision on ``result.pending``: what it spent so far is kept (a
	resume adds to it), committed, then its status event says which calls it waits on (``before``:
	wire events still to log first, in the same round trip)."""
	update_row("Agent Run", run.name, {"status": "Awaiting Approval", **spent(result), **fields})
	frappe.db.commit()  # before the status event: a person who reads it may decide at once
	publish_status(run, "Awaiting Approval", before=before, waiting_for=[call.id for call in result.pending])
	frappe.db.commit()  # sends the live status
	return {"run": run.name, "conversation": run.conversation, "status": "Awaiting Approval", "response": result.response}


def spent(result: LoopResult) -> dict:
	"""The Agent Run fields of what a run has said and spent."""
	return {
		"response": result.response,
		"input_tokens": result.usage.input_tokens,
		"output_tokens": result.usage.output_tokens,
		"cached_tokens": result.usage.cached_tokens,
		"total_tokens": result.usage.total_tokens,
		"total_cost": result.cost,
		"turns": result.turns,
		"model_used": result.model,
	}


def fail(run: Run, message: str, kind: str) -> dict:
	"""The one way a run ends Failed outside the loop (setup errors, a lost worker, a failed title)."""
	return _end(run, "Failed", {"error_message": message, "error_kind": kind})


def _end(run: Run, status: str, values: dict, messages: tuple[int, int] = (0, 0), before: list | None = None) -> dict:
	ended = now_datetime()
	values = {"status": status, "ended_at": ended, **values}
	if run.started:
		values["duration_seconds"] = time_diff_in_seconds(ended, run.started)
	_update_ending(run, values, ended, messages)
	publish_status(run, status, before=before, error=values.get("error_message"))
	commit()
	return {
		"run": run.name,
		"conversation": run.conversation,
		"status": status,
		"response": values.get("response"),
		"error": values.get("error_message"),
		"error_kind": values.get("error_kind"),
		"total_tokens": values.get("total_tokens", 0),
		"total_cost": values.get("total_cost", 0.0),
	}


def _update_ending(run: Run, values: dict, ended: datetime, messages: tuple[int, int]) -> None:
	"""The run's last values, the agent's run count and the conversation's message counter in one
	UPDATE (left joins: a deleted agent or conversation leaves the run's row still updated). The
	counts are atomic: concurrent runs of one agent never lose one."""
	joins, join_values = [], []
	sets = [f"r.`{field}` = %s" for field in values] + ["r.`modified` = %s"]
	set_values = [*(column_value(value) for value in values.values()), ended]
	if run.kind not in UNCOUNTED_KINDS:
		joins.append("left join `tabAgent` a on a.name = %s")
		join_values.append(run.agent)
		sets += ["a.total_run = a.total_run + 1", "a.last_run = %s"]
		set_values.append(ended)
	last, count = messages
	if count and run.conversation:
		joins.append("left join `tabAgent Conversation` c on c.name = %s")
		join_values.append(run.conversation)
		sets += ["c.last_message_sequence = greatest(c.last_message_sequence, %s)", "c.total_messages = c.total_messages + %s"]
		set_values += [last, count]
	frappe.db.sql(
		f"update `tabAgent Run` r {' '.join(joins)} set {', '.join(sets)} where r.name = %s",
		[*join_values, *set_values, run.name],
	)


def end(run: Run, message: str, kind: str) -> dict:
	"""A person ended a run that waited for them (Cancelled, with why)."""
	return _end(run, "Cancelled", {"error_message": message, "error_kind": kind})


def fail_with_children(run: Run, message: str, kind: str) -> None:
	"""Fail a run and the sub-agent runs still going under it (their worker died with it)."""
	fail(run, message, kind)
	fail_children(run.name, message, kind)


def fail_children(run: str, message: str, kind: str) -> None:
	"""Fail the sub-agent runs still going under ``run``, and theirs."""
	parents = [run]
	while parents:
		children = frappe.get_all(
			"Agent Run",
			filters={"parent_run": ["in", parents], "status": "Started"},
			fields=["name", "agent", "user", "conversation", "run_kind", "started_at"],
		)
		for child in children:
			fail(of_row(child), message, kind)
		parents = [child.name for child in children]


def of_row(row, kind: str | None = None) -> Run:
	"""A Run from an Agent Run row read with name, agent, user, conversation, run_kind, started_at."""
	return Run(row.name, row.agent, row.user, row.conversation, kind or row.get("run_kind") or "chat", row.get("started_at"))


# --- the keys a run's drainer holds (huf.ai.run.runs) --------------------------------------------------

DEFAULT_LOCK_TTL = 30  # seconds a lock (and a run's heartbeat) outlives its last beat


def lock_ttl() -> int:
	"""Site config ``huf_lock_ttl`` shortens it for tests; beats come three times per TTL."""
	return int(frappe.conf.get("huf_lock_ttl") or DEFAULT_LOCK_TTL)


def lock_key(conversation: str) -> str:
	return frappe.cache.make_key(f"huf:conversation_lock:{conversation}")


def heartbeat_key(run: str) -> str:
	return frappe.cache.make_key(f"huf:run_heartbeat:{run}")


# --- cancelling ----------------------------------------------------------------------------------


def cancel_key(run: str) -> str:
	return frappe.cache.make_key(f"huf:run_cancel:{run}")


def cancel(run: str) -> dict:
	"""Stop a run: a Queued one, or one waiting for a person (``HELD``), at once; a Started one at its
	next chunk or round boundary. A stopped waiting run lets its conversation's later runs go."""
	paused = frappe.db.get_value("Agent Run", run, "status") in HELD
	stopped = update_where(
		"""update `tabAgent Run` set status = 'Cancelled', error_message = %s, ended_at = %s
		where name = %s and status in ('Queued', 'Awaiting Approval', 'Needs Attention')""",
		(_("Stopped before it finished.") if paused else _("Stopped before it started."), now_datetime(), run),
	)
	frappe.cache.set(cancel_key(run), "1", ex=3600)
	if stopped:  # nobody will run it, so say here that it ended: its streams are waiting for that
		row = frappe.db.get_value("Agent Run", run, ["name", "agent", "user", "conversation", "run_kind"], as_dict=True)
		publish_status(of_row(row), "Cancelled")
		if paused and row.conversation:
			wake(row.conversation)
	return status_of(run)


def wake(conversation: str) -> None:
	"""Enqueue the conversation's drainer once the current transaction commits (so it sees the new run).

	Never deduplicated: a drainer that is just finishing could otherwise swallow the wake-up. An
	extra drainer finds the lock held, or nothing queued, and exits at once."""
	job_id = f"huf-drain:{conversation}:{frappe.generate_hash(length=10)}"
	inflight.enqueue("conversation", conversation, "huf.ai.run.runs.drain_conversation", job_id, conversation=conversation)


def cancel_checker(run: str, seen: tuple[float, bool] | None = None):
	"""A cheap ``should_cancel``: reads the run's cancel flag at most every CANCEL_CHECK_EVERY seconds.
	``seen``: (``time.monotonic()`` then, the flag) read by the caller (``runs.drain``, with the
	in-flight entry): the next read is due CANCEL_CHECK_EVERY after it."""
	key = cancel_key(run)
	at, cancelled = seen or (0.0, False)
	state = {"at": at, "cancelled": cancelled}

	def should_cancel() -> bool:
		now = time.monotonic()
		if not state["cancelled"] and now - state["at"] >= CANCEL_CHECK_EVERY:
			state["at"] = now
			state["cancelled"] = key_exists(key)
		return state["cancelled"]

	return should_cancel


def key_exists(key: str) -> bool:
	"""EXISTS on an already prefixed key (``frappe.cache.exists`` would prefix it a second time)."""
	return bool(redis.Redis.exists(frappe.cache, key))


# --- status ----------------------------------------------------------------------------------------


def status_of(run: str) -> dict:
	row = frappe.db.get_value("Agent Run", run, STATUS_FIELDS, as_dict=True)
	return {
		"run": row.name,
		"conversation": row.conversation,
		"status": row.status,
		"response": row.response,
		"error": row.error_message,
		"error_kind": row.error_kind,
		"total_tokens": row.total_tokens,
		"total_cost": row.total_cost,
	}


def publish_status(run: Run, status: str, before: list | None = None, log: list | None = None, **extra) -> None:
	"""Record a run's new state in its event log, and tell the run's owner (only) live. ``before``:
	wire events to log first, in the same round trip. ``log``: a list to put a status that is not
	final in, for the caller to send (in the round trip of its own commands) instead of at once."""
	message = {"run": run.name, "conversation": run.conversation, "status": status, **extra}
	events = [*(before or ()), ("status", dict(message, type="status"))]
	if status in event_log.FINAL_STATUSES:
		# A final status ends every stream, and clients then read the run: only once it is committed.
		frappe.db.after_commit.add(partial(event_log.append_many, run.name, events))
	elif log is not None:
		log.extend(events)
	else:
		event_log.append_many(run.name, events)
	if run.user != "Guest":
		frappe.publish_realtime("agent_run_status", message, user=run.user, after_commit=True)
