"""A person decides for a flow run that Needs Attention (``runs.stop_for_attention``): a step whose
worker died may or may not have acted, and only a person can know.

- ``retry``: run the step again (the person accepts it may act twice); the run goes on from there.
- ``skip``: the step counts as done with ``output`` (what it would have given, if later steps read
  it) and the run goes on along its success path.
- ``end``: the run ends Cancelled, with who ended it and why.

Who may: the run's owner, the flow's approvers (named in ``waiting``) and whoever manages flow
runs (``access.manages_flow_runs``). The run's
row is locked (FOR UPDATE) while deciding, so of two decisions at once the second finds the run no
longer waiting and gets a 409; nothing is changed then."""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.engine.flow.step import skip as skip_step
from huf.ai.flow import events, runs
from huf.ai.flow.access import manages_flow_runs
from huf.ai.flow.approvals import NotWaiting, is_approver, remember_decider
from huf.ai.flow.definitions import parsed
from huf.ai.flow.ports import SitePorts
from huf.ai.run.rows import commit, update_row

ACTIONS = ("retry", "skip", "end")


def decide(flow_run: str, action: str, output=None, user: str | None = None) -> dict:
	"""``action``: retry | skip | end; ``output``: the value a skipped step gives (JSON text or a value)."""
	if action not in ACTIONS:
		frappe.throw(_("Choose retry, skip or end, not {0}.").format(frappe.bold(action or "")))
	user = user or frappe.session.user
	run = runs.load(flow_run, lock=True)
	if not run:
		frappe.throw(_("There is no flow run {0}.").format(flow_run or ""), frappe.DoesNotExistError)
	waiting = parsed(run.waiting or "{}") if run.status == runs.ATTENTION else {}
	if not may_decide(run, waiting, user):
		frappe.throw(_("Only the person who started this run, its approvers or someone who manages flows may decide for it."), frappe.PermissionError)
	if run.status != runs.ATTENTION:
		frappe.throw(_("This flow run does not need attention (it is {0}); nothing was changed.").format(run.status), NotWaiting)
	step = frappe.db.get_value("Flow Run Step", {"parent": run.name, "hop": run.hop_count}, "name")
	remember_decider(run.name, user)
	if action == "retry":
		return _retry(run, step)
	if action == "skip":
		return _skip(run, step, _value(output), user)
	return _end(run, step, user, waiting)


def may_decide(run, waiting: dict | None, user: str) -> bool:
	return user == run.user or manages_flow_runs(user) or is_approver(waiting, user)


def _retry(run, step: str) -> dict:
	update_row("Flow Run", run.name, {"status": "Queued", "waiting": None})
	update_row("Flow Run Step", step, {"status": "Retrying", "error": None})
	runs.enqueue_hop(run.name, run.hop_count, suffix=f":retry:{frappe.generate_hash(length=6)}")
	events.run_status(run.name, run.user, "Queued", run.current_node_id, run.hop_count)
	commit()
	return {"flow_run": run.name, "status": "Queued"}


def _skip(run, step: str, output, user: str) -> dict:
	graph, caller = runs.graph_of(run), frappe.session.user
	try:
		frappe.set_user(run.user)  # an Agentic run's orchestrator may be asked where to go: as the run's user
		result = skip_step(graph, runs.state_of(run), output, SitePorts(run, graph))
	finally:
		frappe.set_user(caller)
	node = graph.nodes.get(run.current_node_id)
	status = runs.save(run, result, step, hop_increment=1, node=node, step_status="Skipped", note=_("Skipped by {0}").format(user))
	return {"flow_run": run.name, "status": status}


def _end(run, step: str, user: str, waiting: dict) -> dict:
	reason = _("{0} ended the run at the step {1}, which may or may not have acted before its worker stopped.").format(
		user, waiting.get("label") or run.current_node_id
	)
	now = now_datetime()
	update_row("Flow Run", run.name, {"status": "Cancelled", "waiting": None, "last_error": reason, "completed_at": now})
	update_row("Flow Run Step", step, {"status": "Cancelled", "error": reason})
	events.run_status(run.name, run.user, "Cancelled", run.current_node_id, run.hop_count, reason)
	commit()
	return {"flow_run": run.name, "status": "Cancelled"}


def _value(output):
	if isinstance(output, str):
		try:
			return json.loads(output)
		except ValueError:
			return output
	return output
