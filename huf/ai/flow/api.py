"""The flow endpoints the reference names (``huf.ai.flow.api.*``), for the builder and other apps.
Each checks the caller's permission first, then makes one call inward, and answers a plain dict."""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.flow import approvals, attention, definitions, runs
from huf.ai.flow.access import check_flow_run, manages_flow_runs
from huf.ai.flow.webhook import flow_webhook  # noqa: F401 - the reference's address for a flow's webhook
from huf.capabilities import needs
from huf.permissions import require

FIELDS = ("flow_id", "flow_name", "status", "version", "schema_version", "is_system", "updated_by", "updated_at", "modified")


def _flow(flow_id: str, ptype: str):
	if not frappe.db.exists("Flow Definition", flow_id or ""):
		frappe.throw(_("There is no flow {0}.").format(frappe.bold(flow_id or "")), frappe.DoesNotExistError)
	doc = frappe.get_doc("Flow Definition", flow_id)
	doc.check_permission(ptype)
	return doc


def _answer(doc) -> dict:
	return {**{f: doc.get(f) for f in FIELDS}, "definition": definitions.parsed(doc.definition_json)}


@frappe.whitelist()
@needs("flow.read")
def get_flow_definition(flow_id: str, version: int | None = None) -> dict:
	"""Whoever may read the flow: its fields and graph; with ``version``, that version's graph."""
	doc = _flow(flow_id, "read")
	answer = _answer(doc)
	if version is not None and int(version) != doc.version:
		answer.update(version=int(version), definition=definitions.definition_at(doc.name, int(version)))
	return answer


@frappe.whitelist(methods=["POST"])
@needs("flow.write")
def save_flow_definition(flow_id: str, definition=None, flow_name: str | None = None, status: str | None = None, note: str | None = None) -> dict:
	"""Create or update a flow (who may create or change Flow Definitions). The graph is checked as a
	whole; a changed graph becomes the next version, with ``note`` kept beside it."""
	exists = frappe.db.exists("Flow Definition", flow_id or "")
	if exists:
		doc = _flow(flow_id, "write")
	else:
		frappe.has_permission("Flow Definition", "create", throw=True)
		doc = frappe.new_doc("Flow Definition")
		doc.flow_id = flow_id
		doc.flow_name = flow_name or flow_id
	if definition is not None:
		doc.definition_json = definitions.parsed(definition)
	if flow_name:
		doc.flow_name = flow_name
	if status:
		doc.status = status
	doc.version_note = note
	doc.save()
	return _answer(doc)


LIST_FIELDS = ("name", "flow_name", "status", "version", "updated_by", "updated_at", "modified_by", "modified")


@frappe.whitelist()
@needs("flow.read")
def list_flows() -> list[dict]:
	"""The flows the caller may read, newest change first, each with the last run the caller may see
	(``last_run``: name, status, creation; None when there is none)."""
	frappe.has_permission("Flow Definition", "read", throw=True)
	flows = frappe.get_list("Flow Definition", fields=list(LIST_FIELDS), order_by="modified desc", limit_page_length=500)
	names = [flow.name for flow in flows]
	latest = frappe.get_list(
		"Flow Run", filters={"flow_definition": ["in", names or [""]]}, fields=["flow_definition", "max(creation) as at"], group_by="flow_definition"
	)
	at = [row.at for row in latest]
	last = {}
	if at:
		for run in frappe.get_list(
			"Flow Run", filters={"flow_definition": ["in", names], "creation": ["in", at]}, fields=["name", "flow_definition", "status", "creation"], order_by="creation asc"
		):
			last[run.flow_definition] = {"name": run.name, "status": run.status, "creation": run.creation}
	return [{**flow, "flow_id": flow.name, "last_run": last.get(flow.name)} for flow in flows]


# --- runs ---------------------------------------------------------------------------------------

RUN_FIELDS = (
	"name", "flow_definition", "flow_id", "flow_version", "mode", "status", "user", "trigger_type", "current_node_id",
	"hop_count", "max_hops", "started_at", "completed_at", "last_agent_run", "conversation", "last_error", "due_at", "is_test",
)  # fmt: skip
STEP_FIELDS = ("hop", "node_id", "node_label", "node_type", "status", "agent_run", "input", "output", "error", "started_at", "duration_ms", "repeats")
DRAFT_CHARS = 1_000_000  # the most a test run's graph may hold, as JSON text


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def run_flow(flow_id: str, payload=None, mode: str | None = None) -> dict:
	"""Start a run of a flow the caller may read; it runs as the caller."""
	user = frappe.session.user
	_flow(flow_id, "read")
	return {"flow_run": runs.start_run(flow_id, payload, user, "Manual", mode), "status": "Queued"}


@frappe.whitelist(methods=["POST"])
@needs("flow.write")
def run_flow_draft(flow_id: str, definition=None, payload=None, mode: str | None = None) -> dict:
	"""A test run of the graph as the builder shows it, saved or not (who may change the flow): checked
	as a save checks it, kept on the run (``is_test``), run as the caller. Triggers never start one."""
	require("flow.run")  # a test run is a run: who changes the flow and may start flows
	user = frappe.session.user
	_flow(flow_id, "write")
	if definition is None or len(definition if isinstance(definition, str) else json.dumps(definition, default=str)) > DRAFT_CHARS:
		frappe.throw(_("Send the flow's steps to test (at most {0} characters of them).").format(DRAFT_CHARS), title=_("Check the Flow"))
	return {"flow_run": runs.start_draft_run(flow_id, definition, payload, user, mode), "status": "Queued", "is_test": 1}


@frappe.whitelist()
@needs("flow.read")
def get_flow_run(flow_run: str) -> dict:
	"""The run (its owner, its approvers while it waits, whoever sees every run): fields, context, timeline."""
	doc = check_flow_run(flow_run)
	waiting = definitions.parsed(doc.waiting) if doc.waiting else None
	return {
		**{f: doc.get(f) for f in RUN_FIELDS},
		"flow_name": flow_name(doc.flow_definition),
		"context": definitions.parsed(doc.context_json or "{}"),
		"waiting": waiting,
		"can_approve": doc.status == "Waiting Approval" and approvals.is_approver(waiting, frappe.session.user),
		"can_resolve": doc.status == runs.ATTENTION and attention.may_decide(doc, waiting, frappe.session.user),
		"steps": [{f: row.get(f) for f in STEP_FIELDS} for row in sorted(doc.steps, key=lambda row: row.hop or 0)],
		"definition": definitions.parsed(doc.definition_json) if doc.is_test and doc.definition_json else None,
	}


def flow_name(flow_id: str | None) -> str | None:
	"""The name a person gave the flow; its id when it has none (or is gone)."""
	if not flow_id:
		return None
	return frappe.db.get_value("Flow Definition", flow_id, "flow_name") or flow_id


@frappe.whitelist()
@needs("flow.read")
def list_flow_runs(flow_id: str | None = None, status: str | None = None, limit: int = 20) -> list[dict]:
	"""The runs the caller may see, newest first."""
	filters = {**({"flow_definition": flow_id} if flow_id else {}), **({"status": status} if status else {})}
	limit = min(max(int(limit or 20), 1), 500)
	return frappe.get_list("Flow Run", filters=filters, fields=list(RUN_FIELDS), order_by="creation desc", limit_page_length=limit)


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def resume_flow_run(flow_run: str) -> dict:
	"""Its owner, or whoever manages flow runs: go on from the last saved step (see ``approvals.resume_run``)."""
	doc = check_flow_run(flow_run)
	if not (doc.user == frappe.session.user or manages_flow_runs()):
		frappe.throw(_("Only the person who started this run, or someone who manages flows, may resume it."), frappe.PermissionError)
	return approvals.resume_run(doc.name)


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def approve_flow_run(flow_run: str, comment: str | None = None) -> dict:
	"""A named approver approves the waiting run; it goes on at once (``approvals.decide`` checks who)."""
	return approvals.decide(flow_run, "approved", comment, frappe.session.user)


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def reject_flow_run(flow_run: str, comment: str | None = None) -> dict:
	"""A named approver rejects the waiting run: its rejected edge, else the run fails."""
	return approvals.decide(flow_run, "rejected", comment, frappe.session.user)


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def retry_flow_step(flow_run: str) -> dict:
	"""A run that Needs Attention: run the step that may or may not have acted again (its owner, the
	flow's approvers or who manages flow runs; ``attention.decide`` checks who)."""
	return attention.decide(check_flow_run(flow_run).name, "retry")


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def skip_flow_step(flow_run: str, output=None) -> dict:
	"""A run that Needs Attention: count its step as done with ``output`` and go on."""
	return attention.decide(check_flow_run(flow_run).name, "skip", output)


@frappe.whitelist(methods=["POST"])
@needs("flow.run")
def end_flow_run(flow_run: str) -> dict:
	"""A run that Needs Attention: end it here (Cancelled)."""
	return attention.decide(check_flow_run(flow_run).name, "end")
