"""Flows started from outside a person's click: an Agent Trigger whose target is a flow (through a
real worker, as the trigger's Run As; a Draft flow starts nothing and the trigger says why), and a
flow's own webhook through the real web server (the X-Huf-Secret header only, the same answer for an
unknown flow as for a wrong secret, 60 requests a minute per address, Idempotency-Key replays)."""

from __future__ import annotations

import json

import frappe
import pytest
import requests

from huf.ai.flow import api
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.site.triggers.test_triggers import todo

FLOW = "huf-test-flow-triggers"
SECRET = "flow-hook-0123456789abcdef"
PATH = "/api/method/huf.ai.flow.api.flow_webhook"


def graph(trigger_type: str = "trigger.webhook") -> dict:
	config = {"secret": SECRET} if trigger_type == "trigger.webhook" else {}
	return {
		"schema_version": 1,
		"nodes": [
			{"id": "start", "type": trigger_type, "data": {"label": "Start", "config": config}},
			{"id": "done", "type": "end", "data": {"label": "Done", "config": {}}},
		],
		"edges": [{"id": "e1", "source": "start", "target": "done", "type": "always"}],
	}


@pytest.fixture
def manager(site):
	return make_user("flow-trigger-manager@huf.test", ["Huf Manager", "Huf User"])


@pytest.fixture
def flow(site, manager):
	"""Make the test flow as ``manager`` (its creator, whom its webhook runs as); cleaned up after."""
	def make(status: str = "Active", trigger_type: str = "trigger.webhook") -> str:
		with as_user(manager):
			api.save_flow_definition(FLOW, graph(trigger_type), flow_name="Flow trigger test", status=status)
		frappe.db.commit()
		return FLOW

	clean()
	yield make
	clean()


def clean() -> None:
	for name in frappe.get_all("Agent Trigger", {"flow": FLOW}, pluck="name"):
		frappe.delete_doc("Agent Trigger", name, force=True)
	runs = frappe.get_all("Flow Run", {"flow_definition": FLOW}, pluck="name")
	if runs:
		frappe.db.delete("Flow Run Step", {"parenttype": "Flow Run", "parent": ["in", runs]})
		frappe.db.delete("Flow Run", {"name": ["in", runs]})
	if frappe.db.exists("Flow Definition", FLOW):
		frappe.delete_doc("Flow Definition", FLOW, force=True)
	frappe.db.commit()


def flow_runs() -> list[dict]:
	frappe.db.commit()
	return frappe.get_all("Flow Run", {"flow_definition": FLOW}, ["name", "user", "trigger_type", "trigger_payload", "status"], order_by="creation asc")


def trigger(**fields) -> str:
	doc = frappe.get_doc({"doctype": "Agent Trigger", **fields}).insert()
	frappe.db.commit()
	return doc.name


# --- Agent Trigger with a flow as its target ------------------------------------------------------


def test_a_trigger_starts_either_an_agent_or_a_flow(site, llm, flow):
	agent = fixtures.agent(llm, name="Flow Or Agent")
	flow(trigger_type="trigger.doc-event")
	doc_event = {"trigger_type": "Doc Event", "reference_doctype": "ToDo", "doc_event": "after_insert"}
	with pytest.raises(frappe.ValidationError, match="not both"):
		trigger(agent=agent, flow=FLOW, **doc_event)
	with pytest.raises(frappe.ValidationError, match="Pick the Agent or the Flow"):
		trigger(**doc_event)
	with pytest.raises(frappe.ValidationError, match="cannot start a flow"):
		trigger(flow=FLOW, trigger_type="App Event", app_name="huf", event_name="ping")
	assert frappe.db.get_value("Agent Trigger", trigger(flow=FLOW, **doc_event), "agent") is None


def test_a_doc_event_trigger_starts_its_flow_as_the_triggers_run_as(site, workers, flow, manager):
	flow(trigger_type="trigger.doc-event")
	with as_user(manager):
		name = trigger(flow=FLOW, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert")
	workers.start(1)
	saved = todo("a task for the flow", user="Administrator")
	frappe.db.commit()
	runs = wait_for(flow_runs, message="the Flow Run the trigger starts")
	assert len(runs) == 1
	assert runs[0].user == manager and runs[0].trigger_type == "Doc Event"  # the trigger's owner, not who saved
	payload = json.loads(runs[0].trigger_payload)
	assert (payload["event"], payload["doctype"], payload["name"]) == ("after_insert", "ToDo", saved.name)
	assert payload["document"]["description"] == "a task for the flow"
	assert not frappe.db.get_value("Agent Trigger", name, "last_error")


def test_a_trigger_to_a_draft_flow_starts_nothing_and_says_why(site, workers, flow, manager):
	flow(status="Draft", trigger_type="trigger.doc-event")
	with as_user(manager):
		name = trigger(flow=FLOW, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert")
	workers.start(1)
	todo("a task for a draft flow")
	frappe.db.commit()
	error = wait_for(lambda: frappe.db.get_value("Agent Trigger", name, "last_error"), message="the trigger's last error")
	assert "is Draft" in error and "Active" in error
	assert flow_runs() == []


def test_a_due_schedule_trigger_starts_its_flow_as_its_run_as(site, workers, flow):
	from datetime import timedelta

	from frappe.utils import now_datetime

	from huf.ai.triggers.schedules import enqueue_due

	flow(trigger_type="trigger.schedule")
	runner = make_user("flow-schedule-runner@huf.test", ["Huf User"])
	name = trigger(flow=FLOW, trigger_type="Schedule", scheduled_interval="Hourly", run_as="Specific User", run_as_user=runner)
	due = (now_datetime() - timedelta(minutes=1)).replace(second=0, microsecond=0)
	frappe.db.set_value("Agent Trigger", name, {"next_execution": due, "schedule_anchor": due}, update_modified=False)
	frappe.db.commit()
	enqueue_due()  # the scheduler's minute job: claims it and enqueues its run for a worker
	workers.start(1)
	runs = wait_for(lambda: [r for r in flow_runs() if r.status == "Success"], message="the scheduled Flow Run")
	assert len(flow_runs()) == 1
	assert runs[0].user == runner and runs[0].trigger_type == "Schedule"  # Run As, not the trigger's owner
	assert json.loads(runs[0].trigger_payload)["due"] == str(due)
	assert not frappe.db.get_value("Agent Trigger", name, "last_error")


# --- The flow's own webhook -----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_limits(site):
	"""Rate windows last a minute: a test run right after another must not inherit its counts."""
	frappe.cache.delete_keys("huf:rate:flow_webhook_")


def post(web, body: bytes, secret: str | None = SECRET, flow_id: str = FLOW, session=None, **headers):
	sent = {**web.site_header(), "Content-Type": "application/json", **headers}
	if secret is not None:
		sent["X-Huf-Secret"] = secret
	return (session or requests).post(web.base + PATH, params={"flow_id": flow_id} if flow_id else {}, data=body, headers=sent, timeout=30)


def test_the_right_secret_starts_the_flow_once_per_idempotency_key(site, web, flow, manager):
	flow()
	body = json.dumps({"lead": "L-0001", "score": 72}).encode()
	key = f"lead-{frappe.generate_hash(length=8)}"  # keys are kept a day: one of an earlier run on this site would replay
	first = post(web, body, **{"Idempotency-Key": key})
	assert first.status_code == 202, first.text
	run = first.json()["flow_run"]
	again = post(web, body, **{"Idempotency-Key": key})
	assert again.status_code == 200 and again.json()["flow_run"] == run and again.json()["replayed"], again.text
	runs = flow_runs()
	assert [r.name for r in runs] == [run]
	assert runs[0].user == manager and runs[0].trigger_type == "Webhook"  # the flow's creator
	assert json.loads(runs[0].trigger_payload) == {"lead": "L-0001", "score": 72}


def test_wrong_missing_or_addressed_secrets_and_unknown_flows_start_nothing(site, web, flow):
	flow()
	body = b'{"lead": "L-0002"}'
	wrong, missing, unknown = post(web, body, secret="guessed"), post(web, body, secret=None), post(web, body, flow_id="no-such-flow")
	assert [r.status_code for r in (wrong, missing, unknown)] == [401, 401, 401]
	assert wrong.json() == missing.json() == unknown.json()  # nothing says whether the flow exists
	in_address = requests.post(web.base + PATH, params={"flow_id": FLOW, "secret": SECRET}, data=body, headers=web.site_header(), timeout=30)
	assert in_address.status_code == 400 and "X-Huf-Secret header" in in_address.json()["error"]
	assert post(web, b"[1, 2]").status_code == 400  # authentic, but not a JSON object
	assert flow_runs() == []


def test_a_draft_flows_webhook_starts_nothing(site, web, flow):
	flow(status="Draft")
	answer = post(web, b'{"lead": "L-0003"}')
	assert answer.status_code == 409 and "Active" in answer.json()["error"], answer.text
	assert flow_runs() == []


def test_the_61st_request_a_minute_from_one_address_is_refused(site, web, flow):
	from huf.ai.flow.webhook import ADDRESS_PER_MINUTE

	flow()
	with requests.Session() as session:
		answers = [post(web, b"{}", secret="guessed", session=session) for _ in range(ADDRESS_PER_MINUTE + 1)]
	assert [a.status_code for a in answers[:-1]] == [401] * ADDRESS_PER_MINUTE
	assert answers[-1].status_code == 429 and int(answers[-1].headers["Retry-After"]) > 0
	assert post(web, b"{}").status_code == 429  # the right secret too: the address is over its limit
	assert flow_runs() == []


# --- Agent tools ----------------------------------------------------------------------------------


def test_the_flow_tools_act_with_the_callers_rights_and_only_approvers_decide(site, workers):
	from huf.ai.tools.custom import call_function
	from tests.site import flow_helpers as h

	paths = dict(frappe.get_all("Agent Tool Function", {"name": ["in", ["run_flow", "get_flow_run", "resume_flow_run", "approve_flow_run"]]}, ["name", "function_path"], as_list=True))
	assert set(paths) == {"run_flow", "get_flow_run", "resume_flow_run", "approve_flow_run"}
	h.users()
	flow_id = h.save(
		"huf-test-flow-tools",
		[h.node("start", "trigger.webhook", secret=SECRET), h.node("ok", "human.approval", approval_type="user", users=[h.APPROVER]), h.node("done", "end")],
		[h.edge("start", "ok"), h.edge("ok", "done")],
	)
	workers.start(1)
	with as_user(h.OWNER):
		run = call_function(paths["run_flow"], {"flow_id": flow_id, "payload": {"lead": "L-9"}})["flow_run"]
	frappe.db.commit()
	assert frappe.db.get_value("Flow Run", run, "user") == h.OWNER
	h.settle(run)
	for person, may in ((h.OTHER, False), (h.APPROVER, True)):
		doc = frappe.get_doc("Flow Run", run)
		with as_user(person):
			doc.run_method("onload")
		assert doc.get_onload().can_decide is may
	with as_user(h.OTHER), pytest.raises(frappe.PermissionError):
		call_function(paths["approve_flow_run"], {"flow_run": run, "decision": "approve"})
	with as_user(h.APPROVER):
		call_function(paths["approve_flow_run"], {"flow_run": run, "decision": "approve", "comment": "fine"})
	frappe.db.commit()
	assert h.settle(run, statuses=("Success", "Failed")).status == "Success"
	with as_user(h.OWNER):
		assert call_function(paths["get_flow_run"], {"flow_run": run})["status"] == "Success"
