"""Deciding a waiting ``human.approval``, resuming a stopped run, and the minute sweep.

A decision locks the run's row (FOR UPDATE), so of two decisions at once only the first finds it
Waiting Approval; the other gets a 409. The engine's ``resume`` goes on exactly from the waiting
node, and the approval's step row takes the decision as its output (no hop is added).

``resume_flow_run`` (its owner, or whoever manages flow runs: ``access.manages_flow_runs``) re-enqueues a run from its last persisted hop:
a Failed run runs the step it failed at again (the person asks for it, so a step that acts outside
may act again); a Queued or Running run whose hop job is gone (nobody holds its lock) gets its hop
enqueued again. Waiting and Successful runs are refused."""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils import add_to_date, now_datetime

from huf.ai.engine.flow.step import resume
from huf.ai.flow import runs
from huf.ai.flow.definitions import parsed
from huf.ai.run.lifecycle import key_exists
from huf.permissions import sees_all_runs


class NotWaiting(frappe.ValidationError):
	http_status_code = 409


def is_approver(waiting: dict | None, user: str) -> bool:
	approvers = (waiting or {}).get("approvers") or {}
	if user in (approvers.get("users") or []):
		return True
	return bool(set(approvers.get("roles") or []).intersection(frappe.get_roles(user)))


def decide(flow_run: str, outcome: str, comment: str | None, user: str | None) -> dict:
	"""``outcome``: approved | rejected (a named approver, ``user``) or timeout (the sweep, no user)."""
	run = runs.load(flow_run, lock=True)
	if not run:
		frappe.throw(_("There is no flow run {0}.").format(flow_run), frappe.DoesNotExistError)
	waiting = parsed(run.waiting or "{}") if run.status == "Waiting Approval" else {}
	if user is not None and not is_approver(waiting, user) and not (run.status != "Waiting Approval" and _may_know(run, user)):
		frappe.throw(_("Only the people this approval names may decide it."), frappe.PermissionError)
	if run.status != "Waiting Approval":
		frappe.throw(_("This flow run is not waiting for an approval (it is {0}); nothing was changed.").format(run.status), NotWaiting)
	decision = {"outcome": outcome, "comment": comment or "", "by": user}
	if user:
		remember_decider(run.name, user)
	graph = runs.graph_of(run)
	result = resume(graph, runs.state_of(run), decision)
	step = frappe.db.get_value("Flow Run Step", {"parent": run.name, "hop": (run.hop_count or 1) - 1}, "name")
	status = runs.save(run, result, step, hop_increment=0, node=graph.nodes.get(result.node_id))
	return {"flow_run": run.name, "status": status}


def remember_decider(flow_run: str, user: str) -> None:
	"""Who decided for a run keeps seeing it (``access.py``)."""
	deciders = json.loads(frappe.db.get_value("Flow Run", flow_run, "deciders") or "[]")
	if user not in deciders:
		frappe.db.set_value("Flow Run", flow_run, "deciders", json.dumps(sorted({*deciders, user})), update_modified=False)


def _may_know(run, user: str) -> bool:
	"""Whether ``user`` may hear that a run no longer waits: its owner, who sees every run, or who decided it."""
	if user == run.user or sees_all_runs(user):
		return True
	decided = frappe.get_all("Flow Run Step", {"parent": run.name, "node_type": "human.approval"}, pluck="output", order_by="hop desc", limit=1)
	return bool(decided) and (parsed(decided[0] or "{}") or {}).get("by") == user


def resume_run(flow_run: str) -> dict:
	run = runs.load(flow_run, lock=True)
	if run.status == "Failed":
		frappe.db.sql(
			"""update `tabFlow Run` set status = 'Queued', attempt = 0, due_at = null, completed_at = null,
			modified = %s where name = %s""",
			(now_datetime(), run.name),
		)
	elif run.status in ("Queued", "Running"):
		if key_exists(runs.lock_key(run.name)):
			frappe.throw(_("This flow run is running now; there is nothing to resume."), NotWaiting)
	elif run.status == "Waiting Approval":
		frappe.throw(_("This flow run waits for an approval: approve or reject it instead."), NotWaiting)
	elif run.status == "Needs Attention":
		frappe.throw(_("This flow run needs attention: retry its step, skip it, or end the run instead."), NotWaiting)
	else:
		frappe.throw(_("This flow run has finished ({0}); start the flow again instead.").format(run.status), NotWaiting)
	runs.enqueue_hop(run.name, run.hop_count, suffix=f":resume:{frappe.generate_hash(length=6)}")
	frappe.db.commit()
	return {"flow_run": run.name, "status": "Queued" if run.status == "Failed" else run.status}


def sweep() -> None:
	"""The minute job: hops whose job died (Queued/Running, untouched for two lock lifetimes, nobody
	holding the run's lock), retries that are due, approvals whose time ran out. One query when
	nothing is due."""
	now = now_datetime()
	stale = add_to_date(now, seconds=-2 * runs.lock_ttl())
	due = frappe.db.sql(
		"""select name, status, hop_count from `tabFlow Run`
		where (status in ('Queued', 'Running') and modified < %s and (due_at is null or due_at <= %s))
		or (status = 'Waiting Approval' and due_at <= %s)""",
		(stale, now, now),
		as_dict=True,
	)
	for row in due:
		if row.status == "Waiting Approval":
			try:
				decide(row.name, "timeout", None, None)
			except NotWaiting:
				frappe.db.rollback()
		elif not key_exists(runs.lock_key(row.name)):
			runs.enqueue_hop(row.name, row.hop_count, suffix=f":sweep:{now:%H%M%S}")
	frappe.db.commit()
