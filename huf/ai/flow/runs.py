"""Flow Runs: started here, then executed hop by hop (one node a hop), several hops a job.

``start_run`` inserts the run Queued, its graph version pinned, and enqueues hop 0. ``run_hop`` is
the RQ job that runs hop N: it holds the run's Redis lock (with a heartbeat, and an in-flight entry
that lets a live worker notice within seconds that this one died: ``huf/ai/run/inflight.py``) for as
long as it works on the run, so two jobs never work on one run (a job waits a moment for it: the
job before enqueues it just before letting go, and a worker without a fork starts it at once), and
does nothing unless the run is Queued/Running at hop_count N. It records the hop (a Flow Run Step
marked Running, committed) BEFORE the node acts, calls the engine's ``step``, then ``save`` writes
context, loop cursors, hop count, status and the step's result in one transaction.

Then the same job runs hop N+1 itself, still holding the lock, when the next step is ready at once
and the job has been on the run for less than Agent Settings' Flow time slice: a fork per step (a
stock ``bench worker``) costs more than most steps do. It hands over, enqueueing the next hop after
the commit exactly as a single hop did, when a step waits (an approval, a retry's backoff), when the
slice is used up (so that one long flow does not keep a worker from other jobs), or when the run
ended. Each hop is committed on its own either way, so a worker that dies in the middle of a chain
leaves what any hop job leaves: its in-flight entry, and the watcher's recovery runs the current
hop.

A hop job that finds its step still Running knows a worker died during it. The node's effect
(``engine/effects.py``) decides: one whose writes went only to the database (they were rolled
back with the dead worker's transaction), or that is safe to repeat (a read, a model call, an
agent run, which resumes by its own tools' effects, a request with an Idempotency-Key its receiver
honours), runs again, and the step row counts the repeat; one that may have acted outside and is
not known to be repeatable is not run again: the run stops as Needs Attention, naming the step, and
its owner and the flow's approvers are told (``attention.py``: Retry, Skip or End)."""

from __future__ import annotations

import json
import time

import frappe
from frappe import _
from frappe.utils import add_to_date, get_datetime, now_datetime

from huf.ai.run import inflight
from huf.ai.engine.effects import ONCE, may_repeat, step_effect
from huf.ai.engine.flow.control import approvers
from huf.ai.engine.flow.graph import Graph, parse
from huf.ai.engine.flow.step import RunState, StepResult, step
from huf.ai.flow import events
from huf.ai.flow.definitions import check, definition_at, parsed
from huf.ai.flow.ports import SitePorts
from huf.ai.run.rows import commit, insert_row, update_row
from huf.ai.run.runs import heartbeat, lock_ttl
from huf.ai.tools.effects import tool_effect

HOP_JOB = "huf.ai.flow.runs.run_hop"
FIELDS = [
	"name", "flow_definition", "flow_id", "flow_version", "mode", "status", "user", "current_node_id", "hop_count",
	"max_hops", "context_json", "loop_state", "attempt", "due_at", "waiting", "last_agent_run", "conversation", "is_test",
	"definition_json",
]  # fmt: skip
SHORT_WAIT = 10.0  # seconds: a retry due sooner waits in its hop job, a later one for the sweep
STATUS = {"continue": "Queued", "waiting": "Waiting Approval", "success": "Success", "failed": "Failed"}
ATTENTION = "Needs Attention"
OUTPUT_CHARS = 20_000  # characters of a node's output kept on its step row
HANDOFF_WAIT = 2.0  # seconds a hop waits for the run's lock: the hop before enqueues it, then lets go
TIME_SLICE = 2.0  # seconds a job goes on running a run's ready hops (Agent Settings' Flow time slice)


def start_run(
	flow: str, payload: dict | None, user: str, trigger_type: str = "Manual", mode: str | None = None, draft: dict | None = None
) -> str:  # fmt: skip
	"""Insert a Queued Flow Run of ``flow`` (its current version pinned) acting as ``user`` and
	enqueue its first hop after the commit; returns its name. Permissions are the caller's job.
	``draft``: a test run of that graph (already checked: ``start_draft_run``), kept on the run; it
	is started by a person only, so its trigger type is always Manual."""
	row = frappe.db.get_value("Flow Definition", flow or "", ["name", "status", "version"], as_dict=True)
	if not row:
		frappe.throw(_("There is no flow {0}.").format(frappe.bold(flow or "")), frappe.DoesNotExistError)
	if row.status != "Active" and trigger_type != "Manual":
		frappe.throw(_("The flow {0} is {1}; only Active flows are started by triggers.").format(frappe.bold(flow), row.status))
	if draft is not None and trigger_type != "Manual":
		frappe.throw(_("Test runs of a draft are started from the builder only, never by a trigger."))
	definition = draft if draft is not None else definition_at(row.name, row.version)
	graph = parse(definition)
	if not graph.entry:
		frappe.throw(_("The flow {0} has no steps yet; add some and save it first.").format(frappe.bold(flow)))
	mode = mode or definition.get("mode") or "Normal"
	if mode not in ("Normal", "Agentic"):
		frappe.throw(_("Mode must be Normal or Agentic, not {0}.").format(frappe.bold(mode)))
	payload = parsed(payload) if isinstance(payload, str) else payload or {}
	if not isinstance(payload, dict):
		frappe.throw(_("The input of a flow must be an object (name: value pairs)."))
	name = insert_row(
		"Flow Run",
		{
			"flow_definition": row.name, "flow_id": row.name, "flow_version": row.version, "mode": mode, "status": "Queued",
			"user": user, "trigger_type": trigger_type, "current_node_id": graph.entry, "hop_count": 0, "max_hops": graph.max_hops,
			"trigger_payload": payload, "context_json": {"trigger": payload, "nodes": {}}, "attempt": 0,
			**({"is_test": 1, "definition_json": draft} if draft is not None else {}),
		},
	)  # fmt: skip
	enqueue_hop(name, 0)
	events.run_status(name, user, "Queued", graph.entry, 0)
	return name


def enqueue_hop(flow_run: str, hop: int, suffix: str = "") -> None:
	"""Hop ``hop`` of the run, after the commit; the same hop enqueued twice is one job (the sweep
	passes a ``suffix``: a job whose worker died may still be listed as started)."""
	inflight.enqueue("flow", flow_run, HOP_JOB, f"huf-flow:{flow_run}:{hop}{suffix}", deduplicate=True, flow_run=flow_run, hop=hop)


def recover(flow_run: str) -> None:
	"""The job a watcher queues when the worker holding this run died (``huf/ai/run/inflight.py``): the
	run's current hop, whatever it was doing (it may have died after saving a hop and before
	queueing the next one)."""
	commit()
	run = load(flow_run)
	if run and run.status in ("Queued", "Running"):
		run_hop(flow_run, run.hop_count or 0)


def lock_key(flow_run: str) -> str:
	return frappe.cache.make_key(f"huf:flow_run_lock:{flow_run}")


def run_hop(flow_run: str, hop: int) -> None:
	"""The RQ job that runs hop ``hop`` and, within the time slice, the ready hops after it (its
	dotted path is in queued jobs: keep it)."""
	lock = frappe.cache.lock(lock_key(flow_run), timeout=lock_ttl(), sleep=0.01, thread_local=False)
	if not lock.acquire(blocking=True, blocking_timeout=HANDOFF_WAIT):
		return  # another worker is on this run now; hop_count tells a later job whether this hop is done
	original = frappe.session.user
	try:
		with heartbeat(lock) as beat, inflight.held("flow", flow_run, lock, beat):
			hop, until = int(hop), time.monotonic() + time_slice()
			while _hop(flow_run, hop, until):
				hop += 1
	finally:
		if frappe.session.user != original:
			frappe.set_user(original)
		try:
			lock.release()
		except Exception:  # noqa: BLE001 - it expired; whoever holds it now goes on
			pass


def time_slice() -> float:
	"""Agent Settings' Flow time slice: seconds a job goes on with a run's ready hops (0: one hop a
	job). The cached settings document: a value never saved (a site from before the setting) is the
	default, not 0."""
	value = frappe.get_cached_doc("Agent Settings").get("flow_time_slice")
	return TIME_SLICE if value is None else max(float(value), 0.0)


def load(flow_run: str, lock: bool = False):
	"""The run's FIELDS (the latest committed row); ``lock``: FOR UPDATE, until the next commit."""
	rows = frappe.db.sql(
		f"select {', '.join(f'`{f}`' for f in FIELDS)} from `tabFlow Run` where name = %s{' for update' if lock else ''}",
		flow_run,
		as_dict=True,
	)
	return rows[0] if rows else None


def start_draft_run(flow: str, definition, payload: dict | None, user: str, mode: str | None = None) -> str:
	"""A test run of ``definition``, the unsaved graph of ``flow`` as the builder shows it: checked as
	a save checks it (nothing is written when it is refused), kept on the run, started as ``user``."""
	doc = frappe._dict(flow_id=flow, definition_json=parsed(definition), status="Active")
	draft = check(doc, secrets=False)
	return start_run(flow, payload, user, "Manual", mode, draft=draft)


def graph_of(run) -> Graph:
	"""The graph the run follows: its test draft, else the version pinned when it started."""
	if run.get("is_test") and run.get("definition_json"):
		return parse(parsed(run.definition_json))
	return parse(definition_at(run.flow_definition, run.flow_version))


def state_of(run) -> RunState:
	return RunState(
		node_id=run.current_node_id, context=parsed(run.context_json or "{}"), hop_count=run.hop_count or 0,
		max_hops=run.max_hops or 100, mode=run.mode or "Normal", attempt=run.attempt or 0, loop=parsed(run.loop_state or "{}"),
		run=run.name,
	)  # fmt: skip


def _hop(flow_run: str, hop: int, until: float = 0.0) -> bool:
	"""Hop ``hop``, if the run is at it; True when the next hop is ready and this job runs it itself
	(nothing was enqueued for it): it is before ``until`` (``time.monotonic()``)."""
	commit()  # a fresh snapshot: what the last hop committed
	run = load(flow_run)
	if not run or run.status not in ("Queued", "Running") or run.hop_count != hop:
		return False
	if run.due_at and get_datetime(run.due_at) > now_datetime():
		wait = (get_datetime(run.due_at) - now_datetime()).total_seconds()
		if wait > SHORT_WAIT:
			return False  # the sweep enqueues it when it is due
		time.sleep(wait)
	if frappe.session.user != run.user:
		frappe.set_user(run.user)
	graph = graph_of(run)
	node = graph.nodes.get(run.current_node_id)
	recorded = frappe.db.get_value(
		"Flow Run Step", {"parent": flow_run, "hop": hop}, ["name", "started_at", "status", "repeats"], as_dict=True
	)
	died = recorded and recorded.status == "Running"  # the worker that began this step stopped before saving it
	if died and node and not may_repeat(effect_of(node)):
		stop_for_attention(run, node, recorded.name, hop)
		return False
	step_name = record_start(run, node, hop, recorded, repeat=bool(died))
	began = time.monotonic()
	ports = SitePorts(run, graph, since=recorded.started_at if recorded else None)
	result = step(graph, state_of(run), ports)
	chained = ready(result) and time.monotonic() < until
	duration_ms = int((time.monotonic() - began) * 1000)
	save(run, result, step_name, hop_increment=1, duration_ms=duration_ms, node=node, enqueue_next=not chained, sent=ports.sent)
	return chained


def ready(result: StepResult) -> bool:
	"""Whether the hop after ``result`` may run at once: the run goes on and waits for nothing."""
	return result.status == "continue" and result.retry_in is None


def effect_of(node) -> str:
	"""What running ``node`` again would do (``engine/effects.py``); a tool that is gone: ONCE."""

	def of_tool(name: str) -> str:
		return tool_effect(frappe.get_cached_doc("Agent Tool Function", name)) if frappe.db.exists("Agent Tool Function", name) else ONCE

	return step_effect(node.type, node.config, of_tool)


def stop_for_attention(run, node, step_name: str, hop: int) -> None:
	"""The run stops at ``node``, which may or may not have acted before its worker died, until a
	person decides (``attention.py``): its owner and the flow's approvers are told."""
	now = now_datetime()
	graph = graph_of(run)
	waiting = {
		"kind": "attention", "node_id": node.id, "label": node.label, "since": str(now), "approvers": graph_approvers(graph),
		"message": _(
			"Huf was interrupted while running the step '{0}' (for example, the server restarted). The step may or may not "
			"have acted (for example, sent its request). Check, then retry the step, skip it, or end the run."
		).format(node.label),
	}  # fmt: skip
	update_row("Flow Run", run.name, {"status": ATTENTION, "waiting": waiting, "due_at": None, "last_error": None})
	update_row("Flow Run Step", step_name, {"status": ATTENTION, "error": waiting["message"]})
	events.run_status(run.name, run.user, ATTENTION, node.id, hop, None, waiting)
	events.notify_attention(run, waiting)
	commit()


def graph_approvers(graph: Graph) -> dict:
	"""Everyone the flow's approval steps name: they may decide for a run that needs attention too."""
	named = [approvers(node.config) for node in graph.nodes.values() if node.type == "human.approval"]
	return {key: sorted({value for each in named for value in each[key]}) for key in ("users", "roles")}


def record_start(run, node, hop: int, recorded=None, repeat: bool = False) -> str:
	"""The hop's step row (Running) and the run Running, committed before the node acts. A step row
	that exists already (its worker died, or a person asked to retry it) is marked Running again;
	``repeat`` counts a run again after a dead worker on it, and keeps the step's first start: what
	the step made since then (``SitePorts.since``) is still its own, however often workers died."""
	started = now_datetime()
	if recorded:
		name = recorded.name
		update_row(
			"Flow Run Step", name,
			{
				"status": "Running", "started_at": recorded.started_at if repeat else started, "error": None,
				"repeats": (recorded.repeats or 0) + (1 if repeat else 0),
			},
		)  # fmt: skip
	else:
		name = insert_row(
			"Flow Run Step",
			{
				"parent": run.name, "parenttype": "Flow Run", "parentfield": "steps", "idx": hop + 1, "hop": hop,
				"node_id": run.current_node_id, "node_label": node.label if node else None, "node_type": node.type if node else None,
				"status": "Running", "started_at": started,
			},
		)  # fmt: skip
	frappe.db.sql(
		"update `tabFlow Run` set status = 'Running', started_at = coalesce(started_at, %s), modified = %s where name = %s",
		(started, started, run.name),
	)
	events.node_started(run, node, hop)
	commit()
	return name


def save(
	run, result: StepResult, step_name: str | None, hop_increment: int, duration_ms: int | None = None, node=None,
	step_status: str | None = None, note: str | None = None, enqueue_next: bool = True, sent=None,
) -> str:  # fmt: skip
	"""Everything a hop (or a person's decision) changed, in one transaction; then the next hop.
	``step_status``/``note``: the step row's status and error text when a person decided them.
	``enqueue_next`` False: the caller runs the next hop itself (``run_hop``'s chain), so no job is
	queued for it. ``sent``: what the step sent (a tool's arguments, an agent's prompt: ``SitePorts.sent``),
	kept on the step row as its input."""
	status = STATUS[result.status]
	hop_count = (run.hop_count or 0) + hop_increment
	now = now_datetime()
	retrying = result.retry_in is not None
	waiting = _waiting(result.waiting, now) if result.waiting else None
	due = add_to_date(now, seconds=result.retry_in) if retrying else (waiting or {}).get("timeout_at")
	values = {
		"status": status, "context_json": result.context, "loop_state": result.loop, "hop_count": hop_count,
		"current_node_id": result.next_node_id if result.status == "continue" else result.node_id,
		"last_agent_run": result.agent_run or run.last_agent_run, "attempt": (run.attempt or 0) + 1 if retrying else 0,
		"due_at": due, "waiting": waiting, "last_error": result.error if result.status == "failed" else None,
		"completed_at": now if status in ("Success", "Failed") else None,
	}  # fmt: skip
	update_row("Flow Run", run.name, values)
	step_status = step_status or _step_status(result)
	output = None if result.output is None else json.dumps(result.output, default=str)[:OUTPUT_CHARS]
	if step_name:
		fields = {"status": step_status, "output": output, "error": note or result.error or _error_of(result), "agent_run": result.agent_run}
		if duration_ms is not None:
			fields["duration_ms"] = duration_ms
		if sent is not None:
			fields["input"] = json.dumps(sent, default=str)[:OUTPUT_CHARS]
		update_row("Flow Run Step", step_name, fields)
	if enqueue_next and result.status == "continue" and (not retrying or result.retry_in <= SHORT_WAIT):
		enqueue_hop(run.name, hop_count)
	events.node_finished(run, result, node, step_status, output, hop_count - 1)
	events.run_status(run.name, run.user, status, values["current_node_id"], hop_count, result.error, waiting)
	commit()
	return status


def _waiting(waiting: dict, now) -> dict:
	timeout = waiting.get("timeout_seconds")
	return {
		"node_id": waiting.get("node_id"), "approvers": waiting.get("approvers") or {"users": [], "roles": []},
		"message": waiting.get("message"), "since": str(now),
		"timeout_at": str(add_to_date(now, seconds=float(timeout))) if timeout else None,
	}  # fmt: skip


def _step_status(result: StepResult) -> str:
	if result.retry_in is not None:
		return "Retrying"
	if result.status == "failed" or _error_of(result):
		return "Failed"
	return "Waiting" if result.status == "waiting" else "Success"


def _error_of(result: StepResult) -> str | None:
	"""The reason of a node that failed into its on_failure edge (its output is ``{"error": ...}``)."""
	output = result.output
	if result.status == "continue" and isinstance(output, dict) and set(output) <= {"error", "attempt"} and "error" in output:
		return str(output["error"])
	return None
