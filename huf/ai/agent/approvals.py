"""A person's decisions on a run that waits for them: approving or rejecting a tool call (tools marked
Requires approval), and what to do with a call that was interrupted when the run's worker died."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.run import approvals, resume
from huf.capabilities import needs
from huf.permissions import check_run_access


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def decide_tool_call(run: str, call_id: str, decision: str, comment: str | None = None) -> dict:
	"""``decision``: approve or reject. Only the run's owner and whoever sees every run (run.read.all) decide; a run that is
	not waiting, or a call already decided, is refused (409). Once every waiting call of the round is
	decided the run goes on in the background (same run, same stream)."""
	check_run_access(run)
	if decision not in ("approve", "reject"):
		frappe.throw(_("Decision must be approve or reject."))
	comment = (comment or "").strip()
	if len(comment) > approvals.MAX_COMMENT:
		frappe.throw(_("The comment is {0} characters long; the limit is {1}.").format(len(comment), approvals.MAX_COMMENT))
	return approvals.decide(run, call_id, decision == "approve", comment)


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def resolve_interrupted_call(run: str, tool_call: str, action: str, value: str | None = None) -> dict:
	"""A run in Needs Attention stopped on ``tool_call`` (its call id), which may or may not have
	acted: ``retry`` runs it again, ``skip`` goes on with ``value`` (optional) as its result, ``end``
	ends the run. Only the run's owner and whoever sees every run (run.read.all) decide; a run that is not waiting for this,
	or a call already decided, is refused (409). Retry and Skip go on in the background (same run,
	same stream)."""
	check_run_access(run)
	value = (value or "").strip()
	if len(value) > resume.MAX_VALUE:
		frappe.throw(_("The value is {0} characters long; the limit is {1}.").format(len(value), resume.MAX_VALUE))
	return resume.resolve(run, tool_call, action, value)
