"""Who may see a Flow Run: its owner (``user``, who it runs as), its named approvers while it
waits for them (an approval, or a decision after an interruption: Needs Attention), the people who
decided one of its steps (``deciders``), and whoever sees everyone's runs (``run.read.all``)
(hooks.py: permission_query_conditions / has_permission). Acting on someone else's run (resume,
retry, skip, end, delete) also takes ``flow.write``: ``manages_flow_runs``."""

from __future__ import annotations

import json

import frappe

from huf.ai.flow.approvals import is_approver
from huf.ai.flow.definitions import parsed
from huf.permissions import has_capability, sees_all_runs

WAITING = ("Waiting Approval", "Needs Attention")  # the statuses in which the named approvers see a run
LOOKING = (None, "read", "select", "print", "export", "report")  # rights that change nothing


def manages_flow_runs(user: str | None = None) -> bool:
	"""Sees everyone's flow runs and may act on them as their owner could."""
	return sees_all_runs(user) and has_capability(user, "flow.write")


def flow_run_query(user: str | None = None) -> str:
	user = user or frappe.session.user
	if sees_all_runs(user):
		return ""
	escaped = frappe.db.escape(user)
	named = [f"json_contains(`tabFlow Run`.`waiting`, json_quote({escaped}), '$.approvers.users')"]
	named += [
		f"json_contains(`tabFlow Run`.`waiting`, json_quote({frappe.db.escape(role)}), '$.approvers.roles')"
		for role in frappe.get_roles(user)
	]
	decided = f"json_contains(coalesce(`tabFlow Run`.`deciders`, '[]'), json_quote({escaped}))"
	waiting = "`tabFlow Run`.`status` in ('Waiting Approval', 'Needs Attention')"
	return f"(`tabFlow Run`.`user` = {escaped} or {decided} or ({waiting} and ({' or '.join(named)})))"


def flow_run_has_permission(doc, ptype=None, user=None) -> bool:
	user = user or frappe.session.user
	if doc.user == user or (sees_all_runs(user) if ptype in LOOKING else manages_flow_runs(user)):
		return True
	if ptype in (None, "read") and user in (json.loads(doc.deciders) if isinstance(doc.deciders, str) else doc.deciders or []):
		return True
	waiting = parsed(doc.waiting) if isinstance(doc.waiting, str) else doc.waiting
	return ptype in (None, "read") and doc.status in WAITING and is_approver(waiting, user)


def check_flow_run(flow_run: str):
	"""The Flow Run document when the caller may see it; a clear error otherwise."""
	if not frappe.db.exists("Flow Run", flow_run or ""):
		frappe.throw(frappe._("There is no flow run {0}.").format(flow_run or ""), frappe.DoesNotExistError)
	doc = frappe.get_doc("Flow Run", flow_run)
	if frappe.session.user == "Guest" or not flow_run_has_permission(doc, "read"):
		frappe.throw(frappe._("This flow run belongs to someone else."), frappe.PermissionError)
	return doc
