"""Huf's one scheduled job, every minute on every site.

Frappe's scheduler runs each scheduled method as its own background job: under ``bench worker`` a
fork, a site connection and two writes of the job's last run, whether or not there is anything to
do. Huf's minute-by-minute tasks therefore run in one job, one after the other; one that fails
is logged and does not keep the others from running."""

from __future__ import annotations

import frappe

TASKS = (
	"huf.ai.run.runs.sweep_stale_runs",  # fail runs whose worker died, wake conversations nobody drains
	"huf.ai.triggers.schedules.enqueue_due",  # Schedule triggers that are due
	"huf.ai.knowledge.indexer.sweep",  # knowledge inputs whose indexing job was lost
	"huf.ai.mcp.client.auto_sync",  # MCP servers whose Sync Interval has passed
	"huf.ai.flow.approvals.sweep",  # flow hops whose job died, due retries, approvals timed out
)


def run() -> None:
	for task in TASKS:
		try:
			frappe.get_attr(task)()
			frappe.db.commit()
		except Exception:
			frappe.db.rollback()
			frappe.log_error(title=f"Huf: the scheduled task {task} failed")
			frappe.db.commit()
