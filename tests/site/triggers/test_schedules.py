"""Schedule triggers on a real site: the next run counted from the schedule, a due trigger claimed
once even when two schedulers race, missed runs skipped and recorded, the run enqueued for a worker."""

from __future__ import annotations

from datetime import timedelta

import frappe
import pytest
from frappe.utils import get_datetime, now_datetime

from huf.ai.triggers.schedules import claim, due_triggers, enqueue_due
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.triggers.test_triggers import trigger_runs, triggers  # noqa: F401 - shared fixture
from tests.support.scripted_llm import text


def test_saving_a_schedule_sets_its_next_run_and_bad_ones_say_what_to_write(site, llm, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Morning Agent")
	before = now_datetime()
	daily = triggers(agent, trigger_type="Schedule", scheduled_interval="Daily", interval_count=2)
	due = get_datetime(frappe.db.get_value("Agent Trigger", daily, "next_execution"))
	assert timedelta(days=2) - timedelta(minutes=2) < due - before <= timedelta(days=2)
	weekdays = triggers(agent, trigger_type="Schedule", cron_expression="0 7 * * 1-5")
	due = get_datetime(frappe.db.get_value("Agent Trigger", weekdays, "next_execution"))
	assert (due.hour, due.minute) == (7, 0) and due.weekday() < 5 and due > before
	for fields, says in (({"cron_expression": "0 7 * *"}, "has 5 fields"), ({"scheduled_interval": "Daily", "interval_count": 0}, "1 or more"), ({}, "Pick an interval")):
		with pytest.raises(frappe.ValidationError, match=says):
			frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, "trigger_type": "Schedule", **fields}).insert()


def test_a_due_trigger_runs_once_in_a_worker_and_missed_runs_are_skipped(site, llm, workers, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Hourly Agent")
	name = triggers(agent, trigger_type="Schedule", scheduled_interval="Hourly")
	now = now_datetime()
	anchor = (now - timedelta(hours=3, minutes=30)).replace(second=0, microsecond=0)
	frappe.db.set_value("Agent Trigger", name, {"next_execution": anchor, "schedule_anchor": anchor}, update_modified=False)
	frappe.db.commit()
	llm.script(text("hourly report sent"))
	enqueue_due()
	assert not trigger_runs(agent)  # enqueued for a worker, never run inside the scheduler
	workers.start(1)
	run = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the scheduled run")[0]
	assert f"Scheduled run, due at {anchor}." in run.prompt and "3 earlier run(s) were missed" in run.prompt
	row = frappe.db.get_value("Agent Trigger", name, ["next_execution", "skipped_runs", "last_skipped"], as_dict=True)
	assert get_datetime(row.next_execution) == anchor + timedelta(hours=4)  # counted from the anchor, not from now
	assert row.skipped_runs == 3 and "Skipped 3 run(s)" in row.last_skipped
	enqueue_due()  # not due any more
	assert len(trigger_runs(agent)) == 1


def test_two_schedulers_that_both_see_a_trigger_due_run_it_once(site, llm, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Raced Agent")
	name = triggers(agent, trigger_type="Schedule", scheduled_interval="Daily")
	due = (now_datetime() - timedelta(minutes=1)).replace(second=0, microsecond=0)
	frappe.db.set_value("Agent Trigger", name, {"next_execution": due, "schedule_anchor": due}, update_modified=False)
	frappe.db.commit()
	now = now_datetime()
	first_view, second_view = due_triggers(now), due_triggers(now)  # both read it due before either claims
	mine = [row for row in first_view if row.name == name][0]
	theirs = [row for row in second_view if row.name == name][0]
	assert claim(mine, now) == 0
	assert claim(theirs, now) is None  # the compare-and-swap on next_execution refuses the second
	assert get_datetime(frappe.db.get_value("Agent Trigger", name, "next_execution")) == due + timedelta(days=1)


def test_the_form_shows_the_next_runs_and_the_latest_runs(site, llm, workers, triggers):  # noqa: F811
	from huf.ai.triggers.api import get_trigger_overview, run_trigger_now

	agent = fixtures.agent(llm, name="Overview Agent")
	name = triggers(agent, trigger_type="Schedule", scheduled_interval="Weekly", interval_count=2)
	overview = get_trigger_overview(name)
	due = [get_datetime(d) for d in overview["next_runs"]]
	assert len(due) == 5 and all(b - a == timedelta(weeks=2) for a, b in zip(due, due[1:]))
	llm.script(text("by hand"))
	workers.start(1)
	run = run_trigger_now(name)["run"]
	frappe.db.commit()
	wait_for(lambda: frappe.db.get_value("Agent Run", run, "status") == "Success", message="the manual run")
	assert [r.name for r in get_trigger_overview(name)["recent_runs"]] == [run]
