"""Executing one run: the agent's settings, tools and history (``agents``), the engine loop, the
recorder, and the run's end through ``lifecycle``.

``execute`` runs a queued run for its conversation's drainer (chat and trigger runs); ``run_subagent``
runs another agent inside a tool call of the current run. The Run Agent tool reaches it through its
``RunContext`` (``ctx.run_subagent``), so tools never import the code that runs agents.
"""

from __future__ import annotations

import json

import frappe
from frappe import _
from pymysql.err import MySQLError

from huf.ai.run import event_log, lifecycle, resume, run_setup, titles
from huf.ai.media.attachments import image_bytes
from huf.ai.run.cost import cost_function
from huf.ai.engine.attachments import user_content, with_attachments
from huf.ai.engine.events import Usage
from huf.ai.engine.loop import LoopResult, Resume, run_loop
from huf.ai.engine.tools import ToolError
from huf.ai.knowledge.context_builder import record as record_knowledge
from huf.ai.run.recorder import Recorder, recorded_tool_result
from huf.ai.tools.context import RunContext
from huf.permissions import can_run_agent

# What the drainer reads of a Queued run (``lifecycle.start_next``) to execute it. A Queued run with
# turns was paused for a person's approval, one with interrupted_at lost its worker once: both go on.
QUEUED_FIELDS = [
	"name", "agent", "conversation", "user", "prompt", "attachments", "run_kind", "sequence", "turns", "started_at", "interrupted_at",
]  # fmt: skip


def execute(row, run: lifecycle.Run, on_start=None) -> dict:
	"""Execute a run its drainer has just started (``row``: QUEUED_FIELDS); returns its final status.
	``on_start(run)``: the drainer's heartbeat. A run that paused for a person's approval, or lost
	its worker, goes on from its last recorded step (``resume.going_on``)."""
	if frappe.session.user != row.user:  # set_user empties the process's local caches: only when it changes
		frappe.set_user(row.user)
	if on_start:
		on_start(run.name)
	relay = event_log.relay(run.name, run.conversation)
	recorder = Recorder(run.name, run.conversation, run.agent, run.user, relays=[relay])
	prepared, held = None, []
	try:
		agent = run_setup.load_agent(run.agent)
		ctx = RunContext(
			run=run.name,
			conversation=run.conversation,
			agent=agent.name,
			user=run.user,
			chain=(agent.name,),
			max_depth=agent.get("max_agent_depth") or 2,
			run_subagent=run_subagent,
		)
		files = json.loads(row.attachments) if row.attachments else []
		content = user_content(with_attachments(row.prompt, files), image_bytes(files))
		paused = resume.going_on(run.name) if row.turns or row.get("interrupted_at") else None
		new = bool(row.get("new_conversation"))  # made for this run (runs.queue_run): no history, no numbers taken
		recorder.own_numbers = new
		prepared = run_setup.prepare_run(
			agent, run.conversation, content, ctx, with_history=not new, query=row.prompt,
			history_before=paused.first_sequence if paused else 0,
		)  # fmt: skip
		recorder.effects = {tool.name: tool.effect for tool in prepared.tools}
		if paused:
			prepared.request.messages.extend(paused.messages)
			recorder.known, recorder.waiting = paused.known, len(paused.resume.calls) if paused.resume else 0
		else:
			record_knowledge(run.name, prepared.knowledge)
			recorder.message("user", "Message", row.prompt, raw_payload=json.dumps({"attachments": files}) if files else None)
		recorder.flush(commit=True)  # Started, with the person's message, before the first model call
		result = loop(
			prepared, recorder, agent.model, cancel_of=run.name, resume=paused.resume if paused else None,
			cancel_seen=row.get("cancel_seen"),
		)  # fmt: skip
		# What the relay still holds (the run's complete; a result of a run stopped between two calls):
		# logged with the run's status, after its commit, in one round trip
		held = relay.take()
		recorder.flush()
		result.usage += prepared.summary_usage + (paused.usage if paused else Usage())
		result.cost += prepared.summary_cost + (paused.cost if paused else 0.0)
	except Exception as error:  # noqa: BLE001 - Huf's own failure (configuration, database): a Failed run
		_flush_quietly(relay, held)
		if recorder.has_committed or not row.get("new_conversation") or isinstance(error, MySQLError):
			frappe.db.rollback()
			recorder.sync(committed_only=True)
		# else: a new conversation's first run failed in its setup, before its first commit: nothing of it
		# is committed yet, and what its transaction holds (the conversation, the run) is kept as Failed
		return lifecycle.fail(run, describe(error), "setup")
	finally:
		if prepared is not None:
			prepared.close()  # the run's MCP sessions: a paused run opens new ones when it goes on
	if result.status == "paused":
		recorder.sync()
		return lifecycle.pause(run, result, before=held, **prepared.recorded)
	status = lifecycle.finish(run, result, recorder.counts(), before=held, **prepared.recorded)
	if result.status == "success":
		titles.after_run(run)
	return status


def _flush_quietly(relay, held: list) -> None:
	"""Send what the run's relay still holds (and ``held``, taken from it), before a failed run's
	status, but not its ``complete``: a run whose end failed did not end so. A Redis failure here
	must not hide the error the run is failing with."""
	events = [event for event in [*held, *relay.take()] if event[0] != "complete"]
	try:
		if events:
			event_log.append_many(relay.run, events)
	except Exception:  # noqa: BLE001
		frappe.logger("huf").exception("a run's last events were not logged")


def run_subagent(agent_name: str, prompt: str, ctx: RunContext) -> str:
	"""Run another agent inside the current turn and return its answer.

	The sub-run is its own Agent Run (parent_run, depth) with its own tool calls, but it never touches
	conversation-level state: no lock, no queue, no messages in the parent's conversation."""
	agent = run_setup.load_agent(agent_name)
	if not can_run_agent(agent, ctx.user):
		raise ToolError(_("You are not allowed to run the agent {0}.").format(agent.name))
	depth = ctx.depth + 1
	run = lifecycle.create("sub-agent", agent, ctx.user, prompt, ctx.conversation, status="Started", parent_run=ctx.run, depth=depth)
	child = RunContext(
		run=run.name,
		conversation=ctx.conversation,
		agent=agent.name,
		user=ctx.user,
		depth=depth,
		chain=(*ctx.chain, agent.name),
		max_depth=ctx.max_depth,
		run_subagent=run_subagent,
	)
	prepared = None
	try:
		prepared = run_setup.prepare_run(agent, ctx.conversation, prompt, child, with_history=False)
		record_knowledge(run.name, prepared.knowledge)
		recorder = Recorder(run.name, ctx.conversation, agent.name, ctx.user, write_messages=False)
		# stopping the parent stops it; nobody can be asked to approve a call from inside a tool call
		result = loop(prepared, recorder, agent.model, cancel_of=ctx.run, can_pause=False)
		recorder.flush()
	except Exception as error:  # noqa: BLE001 - the parent model reads why its sub-agent failed
		message = describe(error)
		lifecycle.fail(run, message, "setup")
		raise ToolError(message) from None
	finally:
		if prepared is not None:
			prepared.close()
	lifecycle.finish(run, result, **prepared.recorded)
	if result.status != "success":
		raise ToolError(result.error.message if result.error else _("The agent {0} was stopped.").format(agent.name))
	return result.response


def loop(
	prepared: run_setup.PreparedRun,
	recorder: Recorder,
	model: str,
	cancel_of: str,
	resume: Resume | None = None,
	can_pause: bool = True,
	cancel_seen: tuple[float, bool] | None = None,
) -> LoopResult:
	"""The engine loop with Huf's ports: the recorder, the run's cancel flag (``cancel_seen``: read
	already, ``lifecycle.cancel_checker``), prices, recorded results."""
	return run_loop(
		prepared.request,
		prepared.tools,
		recorder,
		prepared.settings,
		should_cancel=lifecycle.cancel_checker(cancel_of, cancel_seen),
		cost_of=cost_function(model),
		lookup_result=recorded_tool_result,
		resume=resume,
		can_pause=can_pause,
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
