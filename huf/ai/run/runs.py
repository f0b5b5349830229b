"""Queue-first runs: a conversation's runs, one at a time, in the order they were asked for.

``queue_run`` records a Queued run (``lifecycle.create``, with the conversation's next run sequence)
and wakes the conversation's drainer. The drainer is an RQ job that holds the conversation's Redis
lock and executes its Queued runs in sequence order (``executor.execute``). A heartbeat thread keeps
the lock and the current run's heartbeat key alive; when a worker dies both expire. The run then goes
on from its last recorded step, or waits for its owner's decision (``resume.interrupted``): at once
when the dead drainer is noticed (``resume.recover_conversation``), else by ``sweep_stale_runs``,
the minute backstop, which also re-wakes conversations whose queued runs nobody is draining.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager

import frappe
from frappe import _
from frappe.utils import add_to_date, now_datetime

from huf.ai import models
from huf.ai.run import event_log, executor, inflight, lifecycle, resume, run_setup, worker
from huf.ai.media.attachments import parse_names, read_attachments
from huf.ai.run.conversations import resolve_conversation
from huf.ai.run.lifecycle import heartbeat_key, key_exists, lock_key, lock_ttl, wake
from huf.ai.run.rate_limits import check_guest_run
from huf.ai.run.rows import commit, next_sequence
from huf.permissions import can_run_agent

INLINE_LOCK_WAIT = 120  # how long an inline run waits for runs queued before it
WARMING_POLL_MS = 50  # how often a run waiting for a process's warm-up looks at the warm-up again
DEFAULT_MAX_PROMPT_CHARS = 100_000


def waiting_key(conversation: str) -> str:
	"""Set by a drainer that found the lock held: the holder checks the queue again when it lets go."""
	return frappe.cache.make_key(f"huf:conversation_waiting:{conversation}")


# --- queueing ----------------------------------------------------------------------------------


def queue_run(
	agent_name: str,
	prompt: str,
	conversation_id: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	now: bool = False,
	attachments=None,
	checked_files: list[dict] | None = None,
	trigger: str | None = None,
	triggered_by: str | None = None,
) -> dict:
	"""Persist a Queued run for the current user and start it (in the background unless ``now``).

	``attachments``: names of Files the user uploaded, read here so a bad one is refused at once.
	``checked_files``: attachment entries the caller already checked (a trigger's document files).
	``trigger``, ``triggered_by``: the trigger that started the run and who caused its event (the
	run itself acts as the current user, the trigger's Run As)."""
	user = frappe.session.user
	prompt = check_prompt(prompt)
	agent = run_setup.load_agent(agent_name)
	if not can_run_agent(agent, user):
		frappe.throw(_("You are not allowed to run the agent {0}.").format(frappe.bold(agent.name)), frappe.PermissionError)
	check_guest_run()  # guests: a run rate limit per address (429)
	models.check_provider(agent.model)  # a provider without a key fails here, before any row is written
	files = read_attachments(agent, parse_names(attachments), user) + list(checked_files or [])
	conversation, new = resolve_conversation(
		agent.name, user, conversation_id, channel_id, external_id, bool(agent.persist_conversation)
	)
	inline = user != "Guest" and bool(now or agent.run_immediately)  # guests never hold a web worker
	cold = inline and worker.warming()  # this web process is still loading the AI libraries
	# A conversation made just now for an inline run: nobody knows it yet, so nothing can be queued
	# before its first run and no drainer can be waiting for it. The run starts here, without a commit
	# before it or a claim (its first commit comes with the person's message, in the executor).
	starting = inline and new and not cold
	attachments, sequence = json.dumps(files) if files else None, 1 if new else next_sequence(conversation, "last_run_sequence")
	logged: list = []  # a starting run's Started event: the drainer sends it with its in-flight entry
	run = lifecycle.create(
		"trigger" if trigger else "chat",
		agent,
		user,
		prompt,
		conversation,
		status="Started" if starting else "Queued",
		log=logged if starting else None,
		channel=channel_id or "api",
		trigger=trigger,
		triggered_by=triggered_by,
		attachments=attachments,
		sequence=sequence,
	)
	if inline:
		known = frappe._dict(
			name=run.name, agent=agent.name, conversation=conversation, user=user, prompt=prompt,
			attachments=attachments, run_kind=run.kind, sequence=sequence, new_conversation=new,
		)  # its row as the drainer would read it (executor.QUEUED_FIELDS)
		if starting:
			return drain(conversation, until=run.name, wait=INLINE_LOCK_WAIT, started=(known, run, logged)) or lifecycle.status_of(run.name)
		if cold:
			wake(conversation)  # a warm background worker may start it before this process could
		commit()  # visible to the drainer that may run it, and the conversation's row lock let go
		if cold:
			wait_while_warming(run.name)
		return drain(conversation, until=run.name, wait=INLINE_LOCK_WAIT, known=known) or lifecycle.status_of(run.name)
	wake(conversation)
	return {"run": run.name, "conversation": conversation, "status": "Queued"}


def wait_while_warming(run: str) -> None:
	"""An inline run that came while this web process was still loading the AI libraries (its first
	request: ``worker.warm_in_background``) is also offered to the background workers, which are warm
	(a stock ``bench worker`` runs it at once, in its own process). Wait until one of them has started
	it (its Started event) or this process is warm; then the inline drain waits for the conversation's
	lock as usual: for the worker to finish the run, or to run it here if no worker took it."""
	key, after = event_log.log_key(run), "0-0"
	while worker.warming():
		for entry_id, name, data in event_log.read(key, after, WARMING_POLL_MS):
			after = entry_id
			if name == "status" and data.get("status") != "Queued":
				return


def check_prompt(prompt) -> str:
	if not isinstance(prompt, str) or not prompt.strip():
		frappe.throw(_("The message is empty. Type what you want the agent to do."))
	limit = frappe.get_cached_doc("Agent Settings").max_prompt_chars or DEFAULT_MAX_PROMPT_CHARS
	if len(prompt) > limit:
		frappe.throw(
			_("The message is {0} characters long; the limit is {1}. Shorten it, or raise the limit in Agent Settings.").format(
				f"{len(prompt):,}", f"{limit:,}"
			)
		)
	return prompt


# --- draining ----------------------------------------------------------------------------------


def drain_conversation(conversation: str, until: str | None = None, wait: float = 0) -> None:
	"""The RQ job a wake-up enqueues (its dotted path is in queued jobs: keep it)."""
	drain(conversation, until, wait)


def drain(conversation: str, until: str | None = None, wait: float = 0, known=None, started=None) -> dict | None:
	"""Execute the conversation's Queued runs in order while holding its lock. ``until`` stops after
	that run (inline runs) and returns its final status (None if someone else ran it); an inline run
	waits up to ``wait`` seconds for the lock. ``known``: the row (executor.QUEUED_FIELDS) of a run
	the caller has just queued, so it is not read again. ``started``: (row, Run, its status events
	not logged yet) of the first run of a conversation the caller has just made, written as Started:
	it runs first, without a claim. Its events, its heartbeat and the first read of its cancel flag
	go in the round trip of the in-flight entry.

	A background drainer that finds the lock held marks the conversation as waiting before it gives
	up; the holder looks at the queue again after it lets go only when that mark is there, so a run
	queued while it worked is never stranded (and the sweep re-wakes any conversation left behind)."""
	if not wait:
		frappe.cache.set(waiting_key(conversation), "1", ex=max(lock_ttl() * 10, 60))
	# an inline run waiting behind another drainer looks every 10 ms (redis-py waits 100 ms between tries)
	lock = frappe.cache.lock(lock_key(conversation), timeout=lock_ttl(), blocking_timeout=wait, sleep=0.01, thread_local=False)
	if not lock.acquire(blocking=wait > 0):
		if started and started[2]:
			event_log.append_many(started[1].name, started[2])
		if wait:  # an inline run that waited too long: it runs in the background instead
			wake(conversation)
		return None
	original_user, status, beat, holding = frappe.session.user, None, None, None
	try:
		with heartbeat(lock, forget=False) as beat:
			if started:  # its heartbeat goes with the in-flight entry: one round trip less
				beat.key = heartbeat_key(started[1].name)

			def also(pipe):  # with the in-flight entry: the waiting mark goes, the known run's heartbeat starts
				pipe.delete(waiting_key(conversation))
				if beat.key:
					pipe.set(beat.key, "1", ex=beat.ttl)
				if started:  # its Started event, and the first read of its cancel flag (the last reply)
					if started[2]:
						event_log.append_in(pipe, started[1].name, started[2])
					pipe.exists(lifecycle.cancel_key(started[1].name))

			with inflight.held("conversation", conversation, lock, beat, also=also, forget=False) as holding:
				if started:
					started[0].cancel_seen = (time.monotonic(), bool(holding.extra[-1]))
				claimed = started[:2] if started else lifecycle.start_next(conversation, executor.QUEUED_FIELDS, known)
				while claimed:
					row, run = claimed
					done = executor.execute(row, run, on_start=beat.start_run)
					if row.name == until:
						status = done
						break
					claimed = lifecycle.start_next(conversation, executor.QUEUED_FIELDS, known)
	finally:
		if frappe.session.user != original_user:
			frappe.set_user(original_user)
		waiting = _let_go(lock, beat.key if beat else None, waiting_key(conversation), holding)
	if waiting and next_queued(conversation):
		wake(conversation)
		frappe.db.commit()
	return status


def _let_go(lock, beat_key: str | None, waiting: str, holding: inflight.Holding | None = None):
	"""In one round trip, in this order: the in-flight entry goes (``holding``), the run's heartbeat
	goes, the lock is released (if this drainer still holds it: it may have expired, and the next
	holder owns it now), and the waiting mark is read (set by a drainer that found the lock held;
	read after the release, so a mark set before it is seen). Returns the mark."""
	token, lock.local.token = lock.local.token, None
	pipe = frappe.cache.pipeline(transaction=False)
	if holding is not None:
		holding.forget(pipe)
	if beat_key:
		pipe.delete(beat_key)
	if token is not None:
		pipe.eval(lock.LUA_RELEASE_SCRIPT, 1, lock.name, token)
	pipe.get(waiting)
	try:
		return pipe.execute()[-1]
	except Exception:  # noqa: BLE001 - Redis away: the keys expire by themselves, the sweep re-wakes what waits
		frappe.logger("huf").exception("a drainer could not let go of %s", lock.name)
		return None


def next_queued(conversation: str) -> bool:
	frappe.db.commit()  # end the old snapshot: see runs queued since
	return bool(frappe.db.sql("select name from `tabAgent Run` where conversation = %s and status = 'Queued' limit 1", conversation))


class Beat:
	"""What the heartbeat thread refreshes: the lock (three times per lifetime), the heartbeat key of
	the run in progress, and the in-flight entry's pulse (``inflight.PULSE_EVERY``), by which
	watchers on other machines tell within seconds that this process stopped."""

	def __init__(self, lock):
		self.lock = lock
		self.ttl = lock_ttl()
		self.key: str | None = None
		self.pulse: str | None = None
		self.every = min(self.ttl / 3, inflight.PULSE_EVERY)
		self.stopped = threading.Event()

	def start_run(self, run: str) -> None:
		key = heartbeat_key(run)
		if key != self.key:  # not already set with the in-flight entry (drain)
			self.key = key
			self.touch()

	def touch(self) -> None:
		if self.key:
			frappe.cache.set(self.key, "1", ex=self.ttl)

	def loop(self) -> None:
		renewed = time.monotonic()
		while not self.stopped.wait(self.every):
			try:
				if pulse := self.pulse:
					frappe.cache.execute_command("SET", pulse, "1", "EX", inflight.PULSE_TTL)
				if time.monotonic() - renewed >= self.ttl / 3 - 0.05:
					self.lock.reacquire()
					self.touch()
					renewed = time.monotonic()
			except Exception:  # noqa: BLE001 - Redis hiccup: the next beat tries again
				pass


@contextmanager
def heartbeat(lock, forget: bool = True):
	"""A Beat with its thread while the block runs. ``forget``: delete the run's heartbeat key at the
	end (False: the caller deletes it, with the lock's release)."""
	beat = Beat(lock)
	thread = threading.Thread(target=beat.loop, name="huf-heartbeat", daemon=True)
	thread.start()
	try:
		yield beat
	finally:
		beat.stopped.set()
		if beat.key and forget:
			frappe.cache.delete(beat.key)


# --- sweeping (scheduler, every minute) ------------------------------------------------------------

SWEPT_FIELDS = ["name", "agent", "user", "conversation", "run_kind", "started_at"]


# seconds an assistant turn may be Started: it stops itself after 90 s (huf/ai/assistant/turns.py
# TURN_SECONDS) plus at most one model call's deadline (60 s); one older lost its web worker.
ASSISTANT_TURN_LIMIT = 300


def sweep_stale_runs() -> None:
	"""Started runs whose worker stopped beating go on from their last recorded step, or wait for
	their owner's decision (``resume.interrupted``); wake conversations with unattended queued runs.
	Runs waiting for a person (Awaiting Approval, Needs Attention) are left alone: no worker holds
	them until a person decides. A flow's agent runs are its flow's to resume, while the flow runs.
	An assistant turn (no heartbeat: it runs in a web request) still Started after
``ASSISTANT_TURN_LIMIT`` ends Failed (``resume.interrupted``), never queued."""
	cutoff = add_to_date(now_datetime(), seconds=-lock_ttl())
	assistant_cutoff = add_to_date(now_datetime(), seconds=-ASSISTANT_TURN_LIMIT)
	for row in frappe.get_all(
		"Agent Run",
		filters={"status": "Started", "started_at": ["<", cutoff], "parent_run": ["is", "not set"]},
		fields=[*SWEPT_FIELDS, "flow_run"],
	):
		if row.run_kind == "assistant" and row.started_at > assistant_cutoff:
			continue  # a turn runs in its web request, with no heartbeat: still within its time
		if key_exists(heartbeat_key(row.name)):
			continue
		if row.flow_run and row.run_kind == "agent" and frappe.db.get_value("Flow Run", row.flow_run, "status") == "Running":
			continue  # its flow step resumes it (flow/ports.py)
		if resume.interrupted(row.name) == "resumed":
			wake(row.conversation)
	# title runs (huf.ai.run.titles) have no heartbeat: one still going after ten minutes lost its worker
	for row in frappe.get_all(
		"Agent Run",
		filters={"status": "Started", "channel": "title", "started_at": ["<", add_to_date(now_datetime(), minutes=-10)]},
		fields=SWEPT_FIELDS,
	):
		message = _("The background worker naming this conversation stopped before it finished.")
		lifecycle.fail(lifecycle.of_row(row, kind="title"), message, "worker_lost")
	queued = frappe.get_all(
		"Agent Run",
		filters={"status": "Queued", "creation": ["<", cutoff]},
		pluck="conversation",
		distinct=True,
	)
	for conversation in set(queued):
		if not key_exists(lock_key(conversation)):
			wake(conversation)
	frappe.db.commit()
