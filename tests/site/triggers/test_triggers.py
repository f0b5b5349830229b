"""Triggers on a real site: document events, app events and manual runs, end to end through a real
worker; a rolled-back save runs nothing; one event twice runs once; a broken condition is recorded
on the trigger and never breaks the save; a document nobody listens to costs no query."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import frappe
import pytest

import huf
from huf.ai.triggers import index
from huf.ai.triggers.api import run_trigger_now
from huf.ai.triggers.doc_events import on_doc_event
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.support.scripted_llm import text


@pytest.fixture
def triggers(site):
	made = []

	def make(agent: str, **fields) -> str:
		doc = frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, **fields}).insert()
		frappe.db.commit()
		made.append(doc.name)
		return doc.name

	yield make
	for name in made:
		frappe.delete_doc("Agent Trigger", name, force=True, ignore_missing=True)
	frappe.db.commit()


def trigger_runs(agent: str) -> list[dict]:
	frappe.db.commit()
	return frappe.get_all("Agent Run", {"agent": agent, "channel": "trigger"}, ["name", "user", "status", "prompt"], order_by="creation asc")


def todo(description: str, priority: str = "Medium", user: str | None = None):
	user = user or frappe.session.user
	with as_user(user):  # ToDo lets people create only their own (allocated_to)
		return frappe.get_doc({"doctype": "ToDo", "description": description, "priority": priority, "allocated_to": user}).insert()


def test_a_matching_document_starts_the_agent_as_the_person_who_saved_it(site, llm, workers, triggers):
	agent = fixtures.agent(llm, name="Todo Watcher")
	triggers(
		agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert", condition='doc.priority == "High"', run_as="Person Who Triggered"
	)
	person = make_user("todo-writer@huf.test", ["Huf User"])
	llm.script(text("Noted the urgent task."))
	workers.start(1)
	todo("water the plants", "Low", person)
	urgent = todo("fix the roof", "High", person)
	frappe.db.commit()
	runs = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the triggered run")
	assert len(runs) == 1 and runs[0].user == person
	assert frappe.db.get_value("Agent Run", runs[0].name, ["trigger", "triggered_by"]) == (frappe.db.get_value("Agent Trigger", {"agent": agent}), person)
	assert f"after_insert on ToDo {urgent.name}" in runs[0].prompt and "fix the roof" in runs[0].prompt
	time.sleep(1)
	assert len(trigger_runs(agent)) == 1  # the low-priority one started nothing


def test_a_rolled_back_save_starts_nothing_and_one_event_twice_runs_once(site, llm, workers, triggers):
	agent = fixtures.agent(llm, name="Todo Update Watcher")
	triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update")
	llm.script(text("seen"), text("seen again"))
	workers.start(1)
	todo("draft that never happened")
	frappe.db.rollback()
	doc = todo("status report")
	frappe.db.commit()
	doc.description = "status report, edited"
	doc.save()
	frappe.db.commit()  # the same (trigger, document, event) again, within the dedupe window
	wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the triggered run")
	time.sleep(2)
	runs = trigger_runs(agent)
	assert len(runs) == 1 and doc.name in runs[0].prompt
	assert "draft that never happened" not in json.dumps(runs, default=str)


def test_the_prompt_names_the_fields_that_changed(site, llm, workers, triggers):
	agent = fixtures.agent(llm, name="Todo Change Watcher")
	doc = todo("call the plumber", "Low")
	frappe.db.commit()
	triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update")
	llm.script(text("ok"))
	workers.start(1)
	doc.priority = "High"
	doc.save()
	frappe.db.commit()
	run = wait_for(lambda: trigger_runs(agent), message="the triggered run")[0]
	assert '- Priority (priority): "Low" -> "High"' in run.prompt
	assert "Description (description)" not in run.prompt  # unchanged fields are not listed


def test_a_broken_condition_is_recorded_on_the_trigger_and_the_save_goes_through(site, llm, triggers):
	agent = fixtures.agent(llm, name="Broken Condition Agent")
	name = triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert", condition="doc.no_such_field.upper()")
	saved = todo("still saved")
	frappe.db.commit()
	assert frappe.db.exists("ToDo", saved.name)
	error = frappe.db.get_value("Agent Trigger", name, "last_error")
	assert error and "could not be evaluated on ToDo" in error
	assert not trigger_runs(agent)


def test_app_events_and_manual_runs_start_their_agents(site, llm, workers, triggers):
	agent = fixtures.agent(llm, name="Shipping Agent")
	manual = triggers(agent, trigger_type="Manual", trigger_name="Ship by hand")
	triggers(agent, trigger_type="App Event", app_name="my_shop", event_name="order_shipped")
	llm.script(text("customer told"), text("done by hand"))
	workers.start(1)
	assert huf.fire_app_event("my_shop", "order_shipped", {"order": "SO-1", "carrier": "DHL"}) == 1
	assert huf.fire_app_event("my_shop", "nobody_listens", {}) == 0
	frappe.db.commit()
	first = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the app event run")[0]
	assert "App event: order_shipped from my_shop." in first.prompt and '"carrier": "DHL"' in first.prompt
	queued = run_trigger_now(manual, "Ship the late orders")
	frappe.db.commit()
	wait_for(lambda: frappe.db.get_value("Agent Run", queued["run"], "status") == "Success", message="the manual run")
	assert frappe.db.get_value("Agent Run", queued["run"], "prompt") == "Ship the late orders"
	with as_user(make_user("not-a-trigger-admin@huf.test", ["Huf User"])), pytest.raises(frappe.PermissionError):
		run_trigger_now(manual)


def test_a_document_nobody_listens_to_costs_no_query_and_no_redis_call(site, llm, triggers):
	agent = fixtures.agent(llm, name="Elsewhere Agent")
	for event in ("after_insert", "on_update", "on_submit"):
		triggers(agent, trigger_type="Doc Event", reference_doctype="Note", doc_event=event)
	doc = frappe.get_doc({"doctype": "ToDo", "description": "unwatched"})
	on_doc_event(doc, "after_insert")  # the first event of a request reads the version once
	queries, commands = [], []
	real_sql, real_command = frappe.db.sql, frappe.cache.execute_command
	frappe.db.sql = lambda *a, **k: queries.append(a) or real_sql(*a, **k)
	frappe.cache.execute_command = lambda *a, **k: commands.append(a) or real_command(*a, **k)
	try:
		for event in ("after_insert", "on_update", "on_change", "on_trash"):
			on_doc_event(doc, event)
	finally:
		frappe.db.sql, frappe.cache.execute_command = real_sql, real_command
	assert queries == [] and commands == []
	assert index.current()["doc"][("Note", "on_submit")]  # the index did load the triggers


def test_the_hook_does_not_load_the_agent_stack_until_a_trigger_matches(site):
	code = (
		"import sys, frappe; frappe.init(site=sys.argv[1], sites_path='.'); frappe.connect();"
		"from huf.ai.triggers.doc_events import on_doc_event;"
		"on_doc_event(frappe.get_doc({'doctype': 'ToDo', 'description': 'x'}), 'after_insert');"
		"print(sorted(m for m in ('litellm', 'huf.ai.engine.llm', 'huf.ai.run.runs') if m in sys.modules))"
	)
	result = subprocess.run([sys.executable, "-c", code, site], capture_output=True, text=True, timeout=120, check=True)
	assert result.stdout.strip().splitlines()[-1] == "[]"


def test_triggers_say_what_is_wrong_and_follow_their_agent(site, llm, triggers):
	agent = fixtures.agent(llm, name="Trigger Rules Agent")
	for fields, says in (
		({"trigger_type": "Webhook", "webhook_slug": "new orders", "webhook_key": "k" * 32}, "Webhook Slug must be"),
		({"trigger_type": "Webhook", "webhook_slug": "new-orders"}, "Set a Webhook Key"),
		({"trigger_type": "Doc Event", "reference_doctype": "Agent Run", "doc_event": "after_insert"}, "would start itself again"),
		({"trigger_type": "Doc Event", "reference_doctype": "ToDo", "doc_event": "after_insert", "condition": "doc.priority =="}, "not a valid Python expression"),
		({"trigger_type": "App Event", "app_name": "my_shop"}, "App Name and the Event Name"),
	):
		with pytest.raises(frappe.ValidationError, match=says):
			frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, **fields}).insert()
	name = triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_submit")
	assert name == "Trigger Rules Agent: ToDo on_submit"
	agent_doc = frappe.get_doc("Agent", agent)
	agent_doc.disabled = 1
	agent_doc.save()
	row = frappe.db.get_value("Agent Trigger", name, ["disabled", "disabled_reason"], as_dict=True)
	assert row.disabled == 1 and row.disabled_reason == "The agent Trigger Rules Agent was disabled."
	assert ("ToDo", "on_submit") not in index.current()["doc"]


def test_deleting_an_agent_disables_its_triggers_and_says_why(site, llm, triggers):
	agent = fixtures.agent(llm, name="Short Lived Agent")
	name = triggers(agent, trigger_type="App Event", app_name="my_shop", event_name="order_paid")
	assert ("my_shop", "order_paid") in index.current()["app"]
	frappe.delete_doc("Agent", agent)
	row = frappe.db.get_value("Agent Trigger", name, ["disabled", "disabled_reason", "agent"], as_dict=True)
	assert row.disabled == 1 and row.disabled_reason == "The agent Short Lived Agent was deleted." and not row.agent
	assert ("my_shop", "order_paid") not in index.current()["app"]


# --- Run As: whose rights a trigger's run acts with -----------------------------------------------


@pytest.fixture
def managers(site):
	return {
		"manager": make_user("trigger-manager@huf.test", ["Huf Manager", "Huf User"]),
		"other": make_user("other-manager@huf.test", ["Huf Manager", "Huf User"]),
		"clerk": make_user("trigger-clerk@huf.test", ["Huf User"]),
		"accountant": make_user("trigger-accountant@huf.test", ["Huf User", "Website Manager"]),
	}


def test_by_default_a_trigger_runs_as_its_owner_not_as_whoever_saves_the_document(site, llm, workers, triggers, managers):
	agent = fixtures.agent(llm, name="Owner Run Agent")
	with as_user(managers["manager"]):
		name = triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert")
	assert frappe.db.get_value("Agent Trigger", name, "run_as") == "Trigger Owner"
	llm.script(text("seen"))
	workers.start(1)
	todo("the administrator saves this", user="Administrator")
	frappe.db.commit()
	run = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the triggered run")[0]
	assert run.user == managers["manager"]  # not Administrator, who saved the document
	assert frappe.db.get_value("Agent Run", run.name, ["trigger", "triggered_by"]) == (name, "Administrator")


def test_only_a_system_manager_may_run_a_trigger_as_the_person_who_triggered_it(site, llm, triggers, managers):
	agent = fixtures.agent(llm, name="Who Runs Agent")
	with as_user(managers["manager"]), pytest.raises(frappe.PermissionError, match="Only a System Manager"):
		triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update", run_as="Person Who Triggered")
	with pytest.raises(frappe.ValidationError, match="no person who triggers it"):
		triggers(agent, trigger_type="Schedule", scheduled_interval="Daily", run_as="Person Who Triggered")
	assert triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update", run_as="Person Who Triggered")


@pytest.mark.parametrize(
	("target", "allowed"),
	[("manager", True), ("clerk", True), ("accountant", False), ("Administrator", False), ("other", True)],
)
def test_a_manager_picks_only_users_with_no_more_rights_than_their_own(site, llm, triggers, managers, target, allowed):
	agent = fixtures.agent(llm, name="Pick Agent")
	user = managers.get(target, target)
	with as_user(managers["manager"]):
		if allowed:
			name = triggers(agent, trigger_type="Manual", run_as="Specific User", run_as_user=user)
			assert frappe.db.get_value("Agent Trigger", name, "run_as_user") == user
		else:
			with pytest.raises(frappe.PermissionError, match="would run as"):
				triggers(agent, trigger_type="Manual", run_as="Specific User", run_as_user=user)


def test_a_manager_is_refused_a_user_whose_record_access_is_wider(site, llm, triggers, managers):
	agent = fixtures.agent(llm, name="Limited Agent")
	limited = make_user("limited-manager@huf.test", ["Huf Manager", "Huf User"])
	frappe.get_doc({"doctype": "User Permission", "user": limited, "allow": "Role", "for_value": "Huf User"}).insert(ignore_permissions=True)
	try:
		with as_user(limited), pytest.raises(frappe.PermissionError, match="only some"):
			triggers(agent, trigger_type="Manual", run_as="Specific User", run_as_user=managers["clerk"])
	finally:
		frappe.db.delete("User Permission", {"user": limited})
		frappe.db.commit()


def test_editing_someone_elses_trigger_is_checked_against_the_editor(site, llm, triggers, managers):
	agent = fixtures.agent(llm, name="Edited Trigger Agent")
	by_admin = triggers(agent, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update")  # runs as Administrator
	by_peer = triggers(agent, trigger_type="Manual", run_as="Specific User", run_as_user=managers["other"])
	with as_user(managers["manager"]):
		doc = frappe.get_doc("Agent Trigger", by_admin)
		doc.condition = "True"
		with pytest.raises(frappe.PermissionError, match="would run as"):
			doc.save()  # would borrow Administrator's rights for an agent the manager just changed
		frappe.db.rollback()
		doc = frappe.get_doc("Agent Trigger", by_admin)
		doc.update({"condition": "True", "run_as": "Specific User", "run_as_user": managers["manager"]})
		doc.save()
		peer = frappe.get_doc("Agent Trigger", by_peer)
		peer.save()  # a user with no more rights than the editor stays allowed
	frappe.db.commit()
	assert frappe.db.get_value("Agent Trigger", by_admin, ["run_as", "run_as_user"]) == ("Specific User", managers["manager"])


def test_run_now_and_test_deliveries_run_as_the_caller(site, llm, triggers, managers):
	from huf.ai.triggers.api import send_test_delivery

	agent = fixtures.agent(llm, name="Caller Run Agent")
	manual = triggers(agent, trigger_type="Manual")  # owned by Administrator
	hook = triggers(agent, trigger_type="Webhook", webhook_slug="caller-run-hook", webhook_key="k" * 32)
	with as_user(managers["manager"]):
		now = run_trigger_now(manual, "by hand")
		test = send_test_delivery(hook)
	frappe.db.commit()
	for run in (now["run"], test["run"]):
		assert frappe.db.get_value("Agent Run", run, ["user", "trigger"]) in ((managers["manager"], manual), (managers["manager"], hook))


def test_a_trigger_whose_run_as_user_was_disabled_records_why_and_runs_nothing(site, llm, triggers, managers):
	from huf.ai.triggers.fire import run_trigger

	agent = fixtures.agent(llm, name="Disabled Runner Agent")
	gone = make_user("gone-runner@huf.test", ["Huf User"])
	name = triggers(agent, trigger_type="Manual", run_as="Specific User", run_as_user=gone)
	frappe.db.set_value("User", gone, "enabled", 0)
	frappe.db.commit()
	try:
		assert run_trigger(name, {"kind": "manual", "trigger": name}) is None
		assert "disabled" in frappe.db.get_value("Agent Trigger", name, "last_error")
		assert not trigger_runs(agent)
	finally:
		frappe.db.set_value("User", gone, "enabled", 1)
		frappe.db.commit()
