"""Schedule triggers: every minute the scheduler claims the due ones and enqueues their runs.

A due trigger is claimed with a compare-and-swap on ``next_execution``: two schedulers (or two
benches on one database) that both see it due run it once. The next due time is counted from the
schedule's anchor, never from "now"; runs missed while nothing ran are skipped and recorded."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.engine.schedule import Schedule, advance

FIELDS = ["name", "scheduled_interval", "interval_count", "cron_expression", "schedule_anchor", "next_execution"]


def schedule_of(row) -> Schedule:
	count = 1 if row.interval_count is None else cint(row.interval_count)
	return Schedule(row.scheduled_interval or None, count, (row.cron_expression or "").strip() or None)


def due_triggers(now) -> list:
	return frappe.get_all(
		"Agent Trigger",
		filters={"trigger_type": "Schedule", "disabled": 0, "next_execution": ["<=", now]},
		fields=FIELDS,
		order_by="next_execution asc",
	)


def claim(row, now) -> int | None:
	"""Move the trigger to its next due time if nobody did since ``row`` was read; the number of
	skipped runs when this caller won, None when another scheduler had claimed it."""
	following, skipped = advance(schedule_of(row), row.schedule_anchor or row.next_execution, row.next_execution, now)
	note = _("Skipped {0} run(s) due between {1} and {2}: nothing ran then.").format(skipped, row.next_execution, now) if skipped else None
	frappe.db.sql(
		"""update `tabAgent Trigger`
		set next_execution = %(following)s, last_execution = %(now)s, skipped_runs = ifnull(skipped_runs, 0) + %(skipped)s,
			last_skipped = coalesce(%(note)s, last_skipped)
		where name = %(name)s and next_execution = %(due)s and disabled = 0""",
		{"following": following, "now": now, "skipped": skipped, "note": note, "name": row.name, "due": row.next_execution},
	)
	won = frappe.db._cursor.rowcount == 1
	frappe.db.commit()
	return skipped if won else None


def enqueue_due() -> None:
	"""Scheduler entry point (every minute): claim each due trigger and enqueue its run."""
	now = now_datetime()
	for row in due_triggers(now):
		skipped = claim(row, now)
		if skipped is None:
			continue
		context = {"kind": "schedule", "due": str(row.next_execution), "skipped": skipped}
		frappe.enqueue("huf.ai.triggers.fire.run_trigger", queue="long", trigger=row.name, context=context)  # nobody triggered it
