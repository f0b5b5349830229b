"""Queue-first runs.

``queue_run`` persists an Agent Run as Queued (with the conversation's next run sequence) and wakes
the conversation's drainer. The drainer is an RQ job that holds the conversation's Redis lock and
executes its Queued runs one at a time in sequence order. A heartbeat thread keeps the lock and the
current run's heartbeat key alive; when a worker dies both expire, ``sweep_stale_runs`` fails the run
with the reason and re-wakes conversations whose queued runs nobody is draining.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from functools import partial

import frappe
import redis
from frappe import _
from frappe.utils import add_to_date, now_datetime, time_diff_in_seconds

from huf.ai import agents, event_log, titles
from huf.ai.attachments import image_bytes, parse_names, read_attachments
from huf.ai.conversations import resolve_conversation
from huf.ai.cost import cost_function
from huf.ai.engine.attachments import user_content, with_attachments
from huf.ai.engine.loop import LoopResult, run_loop
from huf.ai.knowledge.context_builder import record as record_knowledge
from huf.ai.rate_limits import check_guest_run
from huf.ai.recorder import Recorder, recorded_tool_result
from huf.ai.rows import insert_row, next_sequence, update_row, update_where
from huf.ai.tools.context import RunContext
from huf.permissions import can_run_agent

DEFAULT_LOCK_TTL = 30  # seconds a lock (and a run's heartbeat) outlives its last beat
INLINE_LOCK_WAIT = 120  # how long an inline run waits for runs queued before it
CANCEL_CHECK_EVERY = 0.25
DEFAULT_MAX_PROMPT_CHARS = 100_000


def lock_ttl() -> int:
	"""Site config ``huf_lock_ttl`` shortens it for tests; beats come three times per TTL."""
	return int(frappe.conf.get("huf_lock_ttl") or DEFAULT_LOCK_TTL)


def _key(name: str) -> str:
	return frappe.cache.make_key(name)


def key_exists(key: str) -> bool:
	"""EXISTS on an already prefixed key (``frappe.cache.exists`` would prefix it a second time)."""
	return bool(redis.Redis.exists(frappe.cache, key))


def lock_key(conversation: str) -> str:
	return _key(f"huf:conversation_lock:{conversation}")


def heartbeat_key(run: str) -> str:
	return _key(f"huf:run_heartbeat:{run}")


def cancel_key(run: str) -> str:
	return _key(f"huf:run_cancel:{run}")


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
	agent = agents.load_agent(agent_name)
	if not can_run_agent(agent, user):
		frappe.throw(_("You are not allowed to run the agent {0}.").format(frappe.bold(agent.name)), frappe.PermissionError)
	check_guest_run()  # guests: a run rate limit per address (429)
	agents.check_provider(agent.model)  # a provider without a key fails here, before any row is written
	files = read_attachments(agent, parse_names(attachments), user) + list(checked_files or [])
	conversation = resolve_conversation(
		agent.name, user, conversation_id, channel_id, external_id, bool(agent.persist_conversation)
	)
	run = insert_row(
		"Agent Run",
		{
			"agent": agent.name,
			"conversation": conversation,
			"user": user,
			"channel": channel_id or "api",
			"trigger": trigger,
			"triggered_by": triggered_by,
			"prompt": prompt,
			"attachments": json.dumps(files) if files else None,
			"status": "Queued",
			"sequence": next_sequence(conversation, "last_run_sequence"),
			"provider": agent.provider,
			"model": agent.model,
			"run_kind": "agent",
			"depth": 0,
		},
	)
	publish_status(run, "Queued", user, conversation)
	if user != "Guest" and (now or agent.run_immediately):  # guests never hold a web worker
		frappe.db.commit()
		drain_conversation(conversation, until=run, wait=INLINE_LOCK_WAIT)
		return run_status(run)
	wake(conversation)
	return {"run": run, "conversation": conversation, "status": "Queued"}


def check_prompt(prompt) -> str:
	if not isinstance(prompt, str) or not prompt.strip():
		frappe.throw(_("The message is empty. Type what you want the agent to do."))
	limit = frappe.db.get_single_value("Agent Settings", "max_prompt_chars") or DEFAULT_MAX_PROMPT_CHARS
	if len(prompt) > limit:
		frappe.throw(
			_("The message is {0} characters long; the limit is {1}. Shorten it, or raise the limit in Agent Settings.").format(
				f"{len(prompt):,}", f"{limit:,}"
			)
		)
	return prompt


def wake(conversation: str) -> None:
	"""Enqueue a drainer once the current transaction commits (so it sees the new run).

	Never deduplicated: a drainer that is just finishing could otherwise swallow the wake-up. An
	extra drainer finds the lock held, or nothing queued, and exits at once."""
	frappe.enqueue(
		"huf.ai.runs.drain_conversation",
		queue="long",
		conversation=conversation,
		enqueue_after_commit=True,
	)


def run_status(run: str) -> dict:
	row = frappe.db.get_value(
		"Agent Run",
		run,
		["name", "conversation", "status", "response", "error_message", "error_kind", "total_tokens", "total_cost"],
		as_dict=True,
	)
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


def publish_status(run: str, status: str, user: str, conversation: str, **extra) -> None:
	"""Record a run's new state in its event log, and tell the conversation's owner (only) live."""
	message = {"run": run, "conversation": conversation, "status": status, **extra}
	append = partial(event_log.append, run, "status", dict(message, type="status"))
	if status in event_log.FINAL_STATUSES:
		# A final status ends every stream, and clients then read the run: only once it is committed.
		frappe.db.after_commit.add(append)
	else:
		append()
	if user != "Guest":
		frappe.publish_realtime("agent_run_status", message, user=user, after_commit=True)


# --- draining ----------------------------------------------------------------------------------


def drain_conversation(conversation: str, until: str | None = None, wait: float = 0) -> None:
	"""Execute the conversation's Queued runs in order while holding its lock (RQ job entry point).

	``until`` stops after that run (inline runs); whatever is still queued then gets a drainer."""
	lock = frappe.cache.lock(lock_key(conversation), timeout=lock_ttl(), blocking_timeout=wait, thread_local=False)
	if not lock.acquire(blocking=wait > 0):
		return
	original_user = frappe.session.user
	try:
		with heartbeat(lock) as beat:
			while run := next_queued(conversation):
				execute_run(run, beat)
				if run == until:
					break
	finally:
		frappe.set_user(original_user)
		_release(lock)
	if next_queued(conversation):
		wake(conversation)
		frappe.db.commit()


def next_queued(conversation: str) -> str | None:
	frappe.db.commit()  # end the old snapshot: see runs committed since
	rows = frappe.db.sql(
		"""select name from `tabAgent Run` where conversation = %s and status = 'Queued'
		order by sequence asc limit 1""",
		conversation,
	)
	return rows[0][0] if rows else None


def _release(lock) -> None:
	try:
		lock.release()
	except Exception:  # noqa: BLE001 - the lock expired; the next holder already owns it
		pass


class Beat:
	"""What the heartbeat thread refreshes: the lock, and the heartbeat key of the run in progress."""

	def __init__(self, lock):
		self.lock = lock
		self.ttl = lock_ttl()
		self.key: str | None = None
		self.stopped = threading.Event()

	def start_run(self, run: str) -> None:
		self.key = heartbeat_key(run)
		self.touch()

	def touch(self) -> None:
		if self.key:
			frappe.cache.set(self.key, "1", ex=self.ttl)

	def loop(self) -> None:
		while not self.stopped.wait(self.ttl / 3):
			try:
				self.lock.reacquire()
				self.touch()
			except Exception:  # noqa: BLE001 - Redis hiccup: the next beat tries again
				pass


@contextmanager
def heartbeat(lock):
	beat = Beat(lock)
	thread = threading.Thread(target=beat.loop, name="huf-heartbeat", daemon=True)
	thread.start()
	try:
		yield beat
	finally:
		beat.stopped.set()
		if beat.key:
			frappe.cache.delete(beat.key)


# --- executing ---------------------------------------------------------------------------------


RUN_FIELDS = ["name", "agent", "conversation", "user", "prompt", "attachments", "status", "model"]


def execute_run(run_name: str, beat: Beat) -> None:
	run = frappe.db.get_value("Agent Run", run_name, RUN_FIELDS, as_dict=True)
	frappe.set_user(run.user)
	started = now_datetime()
	claimed = update_where(
		"update `tabAgent Run` set status = 'Started', started_at = %s, modified = %s where name = %s and status = 'Queued'",
		(started, started, run.name),
	)
	frappe.db.commit()
	if not claimed:  # cancelled while it waited
		return
	beat.start_run(run.name)
	publish_status(run.name, "Started", run.user, run.conversation)
	frappe.db.commit()
	recorder = Recorder(run.name, run.conversation, run.agent, run.user, relays=[event_log.relay(run.name, run.conversation)])
	try:
		agent = agents.load_agent(run.agent)
		ctx = RunContext(
			run=run.name,
			conversation=run.conversation,
			agent=agent.name,
			user=run.user,
			depth=0,
			chain=(agent.name,),
			max_depth=agent.get("max_agent_depth") or 2,
		)
		files = json.loads(run.attachments) if run.attachments else []
		content = user_content(with_attachments(run.prompt, files), image_bytes(files))
		prepared = agents.prepare_run(agent, run.conversation, content, ctx, query=run.prompt)
		record_knowledge(run.name, prepared.knowledge)
		recorder.message("user", "Message", run.prompt, raw_payload=json.dumps({"attachments": files}) if files else None)
		frappe.db.commit()
		result = loop(prepared, recorder, agent.model, cancel_of=run.name)
		result.usage += prepared.summary_usage
		result.cost += prepared.summary_cost
	except Exception as error:  # noqa: BLE001 - Huf's own failure (configuration, database): a Failed run
		frappe.db.rollback()
		fail_run(run, describe(error), "setup", started)
		return
	finish_run(run, result, started)
	if result.status == "success":
		titles.after_run(run)
		frappe.db.commit()


def loop(prepared: agents.PreparedRun, recorder: Recorder, model: str, cancel_of: str) -> LoopResult:
	"""The engine loop with Huf's ports: the recorder, the run's cancel flag, prices, recorded results."""
	return run_loop(
		prepared.request,
		prepared.tools,
		recorder,
		prepared.settings,
		should_cancel=cancel_checker(cancel_of),
		cost_of=cost_function(model),
		lookup_result=recorded_tool_result,
	)


def describe(error: Exception) -> str:
	"""A message a Desk user can act on; unexpected errors are logged in full for the admin."""
	if isinstance(error, frappe.ValidationError):
		frappe.clear_last_message()
		return frappe.utils.strip_html(str(error))
	log = frappe.log_error(title="Huf agent run failed")
	return _("Huf hit an unexpected error ({0}: {1}). The details are in Error Log {2}.").format(
		type(error).__name__, str(error)[:300], log.name
	)


def cancel_checker(run: str):
	"""A cheap ``should_cancel``: reads the run's cancel flag at most every CANCEL_CHECK_EVERY seconds."""
	key = cancel_key(run)
	state = {"at": 0.0, "cancelled": False}

	def should_cancel() -> bool:
		now = time.monotonic()
		if not state["cancelled"] and now - state["at"] >= CANCEL_CHECK_EVERY:
			state["at"] = now
			state["cancelled"] = key_exists(key)
		return state["cancelled"]

	return should_cancel


def finish_run(run, result: LoopResult, started) -> None:
	status = {"success": "Success", "cancelled": "Cancelled"}.get(result.status, "Failed")
	ended = now_datetime()
	values = {
		"status": status,
		"response": result.response,
		"input_tokens": result.usage.input_tokens,
		"output_tokens": result.usage.output_tokens,
		"cached_tokens": result.usage.cached_tokens,
		"total_tokens": result.usage.total_tokens,
		"total_cost": result.cost,
		"turns": result.turns,
		"model_used": result.model,
		"ended_at": ended,
		"duration_seconds": time_diff_in_seconds(ended, started),
	}
	if result.error:
		values.update(error_message=result.error.message, error_kind=result.error.kind)
	update_row("Agent Run", run.name, values)
	count_agent_run(run.agent, ended)
	publish_status(run.name, status, run.user, run.conversation, error=values.get("error_message"))
	frappe.db.commit()


def fail_run(run, message: str, kind: str, started=None, counted: bool = True) -> None:
	"""The one way a run ends Failed: the row, the agent's run count (``counted``; title runs are not
	the agent's runs) and the status event its watchers are waiting for."""
	ended = now_datetime()
	values = {"status": "Failed", "error_message": message, "error_kind": kind, "ended_at": ended}
	if started:
		values["duration_seconds"] = time_diff_in_seconds(ended, started)
	update_row("Agent Run", run.name, values)
	if counted:
		count_agent_run(run.agent, ended)
	publish_status(run.name, "Failed", run.user, run.conversation, error=message)
	frappe.db.commit()


def count_agent_run(agent: str, at) -> None:
	"""Atomic counter update: concurrent runs of one agent never lose a count."""
	frappe.db.sql("update `tabAgent` set total_run = total_run + 1, last_run = %s where name = %s", (at, agent))


# --- cancelling ----------------------------------------------------------------------------------


def cancel_run(run: str) -> dict:
	"""Stop a run: a Queued one at once, a Started one at its next chunk or round boundary."""
	stopped = update_where(
		"update `tabAgent Run` set status = 'Cancelled', error_message = %s, ended_at = %s where name = %s and status = 'Queued'",
		(_("Stopped before it started."), now_datetime(), run),
	)
	frappe.cache.set(cancel_key(run), "1", ex=3600)
	if stopped:  # nobody will run it, so say here that it ended: its streams are waiting for that
		row = frappe.db.get_value("Agent Run", run, ["user", "conversation"], as_dict=True)
		publish_status(run, "Cancelled", row.user, row.conversation)
	return run_status(run)


# --- sub-agents (Run Agent tool) -----------------------------------------------------------------


def run_subagent(agent_name: str, prompt: str, ctx: RunContext) -> str:
	"""Run another agent inside the current turn and return its answer.

	The sub-run is its own Agent Run (parent_run, depth) with its own tool calls, but it never touches
	conversation-level state: no lock, no queue, no messages in the parent's conversation."""
	from huf.ai.engine.tools import ToolError

	agent = agents.load_agent(agent_name)
	if not can_run_agent(agent, ctx.user):
		raise ToolError(_("You are not allowed to run the agent {0}.").format(agent.name))
	started = now_datetime()
	run = frappe._dict(name=None, agent=agent.name, user=ctx.user, conversation=ctx.conversation)
	run.name = insert_row(
		"Agent Run",
		{
			"agent": agent.name,
			"conversation": ctx.conversation,
			"user": ctx.user,
			"prompt": prompt,
			"status": "Started",
			"started_at": started,
			"parent_run": ctx.run,
			"depth": ctx.depth + 1,
			"provider": agent.provider,
			"model": agent.model,
			"run_kind": "agent",
		},
	)
	child = RunContext(
		run=run.name,
		conversation=ctx.conversation,
		agent=agent.name,
		user=ctx.user,
		depth=ctx.depth + 1,
		chain=(*ctx.chain, agent.name),
		max_depth=ctx.max_depth,
	)
	try:
		prepared = agents.prepare_run(agent, ctx.conversation, prompt, child, with_history=False)
		record_knowledge(run.name, prepared.knowledge)
		recorder = Recorder(run.name, ctx.conversation, agent.name, ctx.user, write_messages=False)
		result = loop(prepared, recorder, agent.model, cancel_of=ctx.run)  # stopping the parent stops it
	except Exception as error:  # noqa: BLE001 - the parent model reads why its sub-agent failed
		message = describe(error)
		fail_run(run, message, "setup", started)
		raise ToolError(message) from None
	finish_run(run, result, started)
	if result.status != "success":
		raise ToolError(result.error.message if result.error else _("The agent {0} was stopped.").format(agent.name))
	return result.response


def fail_children(parent: str, message: str) -> None:
	"""Sub-agent runs still Started under a run that died die with it."""
	parents = [parent]
	while parents:
		children = frappe.get_all(
			"Agent Run", filters={"parent_run": ["in", parents], "status": "Started"}, fields=["name", "agent", "user", "conversation"]
		)
		for child in children:
			fail_run(child, message, "worker_lost")
		parents = [child.name for child in children]


# --- sweeping (scheduler, every minute) ------------------------------------------------------------


def sweep_stale_runs() -> None:
	"""Fail Started runs whose worker stopped beating; wake conversations with unattended queued runs."""
	cutoff = add_to_date(now_datetime(), seconds=-lock_ttl())
	for run in frappe.get_all(
		"Agent Run",
		filters={"status": "Started", "started_at": ["<", cutoff], "parent_run": ["is", "not set"]},
		fields=["name", "agent", "user", "conversation"],
	):
		if key_exists(heartbeat_key(run.name)):
			continue
		message = _(
			"The background worker running this stopped before it finished (it was restarted or killed). "
			"Nothing after the last recorded step was kept; send the message again to retry."
		)
		fail_run(run, message, "worker_lost")
		fail_children(run.name, message)
	# title runs (huf.ai.titles) have no heartbeat: one still going after ten minutes lost its worker
	for run in frappe.get_all(
		"Agent Run",
		filters={"status": "Started", "channel": "title", "started_at": ["<", add_to_date(now_datetime(), minutes=-10)]},
		fields=["name", "agent", "user", "conversation"],
	):
		fail_run(run, _("The background worker naming this conversation stopped before it finished."), "worker_lost", counted=False)
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
