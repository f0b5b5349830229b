"""Approving or rejecting a tool call a run waits on (tools marked Requires approval)."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai import approvals
from huf.permissions import check_run_access


@frappe.whitelist(methods=["POST"])
def decide_tool_call(run: str, call_id: str, decision: str, comment: str | None = None) -> dict:
	"""``decision``: approve or reject. Only the run's owner and Huf managers decide; a run that is
	not waiting, or a call already decided, is refused (409). Once every waiting call of the round is
	decided the run goes on in the background (same run, same stream)."""
	check_run_access(run)
	if decision not in ("approve", "reject"):
		frappe.throw(_("Decision must be approve or reject."))
	comment = (comment or "").strip()
	if len(comment) > approvals.MAX_COMMENT:
		frappe.throw(_("The comment is {0} characters long; the limit is {1}.").format(len(comment), approvals.MAX_COMMENT))
	return approvals.decide(run, call_id, decision == "approve", comment)
