"""Huf's minute-by-minute work is one scheduled job (huf/ai/run/every_minute.py), run through Frappe's
own Scheduled Job Type as the scheduler runs it."""

from __future__ import annotations

from datetime import timedelta

import frappe
from frappe.utils import get_datetime, now_datetime

from tests.site import fixtures
from tests.site.conftest import queued_jobs
from tests.site.triggers.test_triggers import triggers  # noqa: F401 - shared fixture


def scheduled_huf_jobs() -> list[tuple[str, str]]:
	rows = frappe.get_all("Scheduled Job Type", filters={"method": ["like", "huf.%"], "stopped": 0}, fields=["method", "frequency"], order_by="method asc")
	return [(row.method, row.frequency) for row in rows]


def due_schedule(agent: str, make) -> str:
	name = make(agent, trigger_type="Schedule", scheduled_interval="Hourly")
	due = (now_datetime() - timedelta(minutes=2)).replace(second=0, microsecond=0)
	frappe.db.set_value("Agent Trigger", name, {"next_execution": due, "schedule_anchor": due}, update_modified=False)
	frappe.db.commit()
	return name


def queued_trigger_runs() -> list[str]:
	return [job.kwargs["kwargs"]["trigger"] for job in queued_jobs("long", "huf.ai.triggers.fire.run_trigger")]


def test_one_job_a_minute_and_it_still_enqueues_due_schedules(site, llm, triggers):  # noqa: F811
	# one job a minute; besides it only the daily sweep of expired artifacts
	assert scheduled_huf_jobs() == [("huf.ai.agent_state.artifacts.sweep_expired", "Daily"), ("huf.ai.run.every_minute.run", "Cron")]
	name = due_schedule(fixtures.agent(llm, name="Minute Agent"), triggers)
	frappe.get_doc("Scheduled Job Type", {"method": "huf.ai.run.every_minute.run"}).execute()
	assert queued_trigger_runs() == [name]
	assert get_datetime(frappe.db.get_value("Agent Trigger", name, "next_execution")) > now_datetime()


def test_a_task_that_fails_is_logged_and_the_others_still_run(site, llm, triggers, monkeypatch):  # noqa: F811
	import huf.ai.run.runs
	def broken():
		raise RuntimeError("the sweep broke")

	monkeypatch.setattr(huf.ai.run.runs, "sweep_stale_runs", broken)
	name = due_schedule(fixtures.agent(llm, name="Minute Agent"), triggers)
	before = frappe.db.count("Error Log", {"method": "Huf: the scheduled task huf.ai.run.runs.sweep_stale_runs failed"})
	frappe.get_doc("Scheduled Job Type", {"method": "huf.ai.run.every_minute.run"}).execute()
	assert queued_trigger_runs() == [name]
	logged = frappe.get_all("Error Log", {"method": "Huf: the scheduled task huf.ai.run.runs.sweep_stale_runs failed"}, pluck="error")
	assert len(logged) == before + 1 and "the sweep broke" in logged[0]
