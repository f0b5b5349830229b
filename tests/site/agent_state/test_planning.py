"""Planned runs on a real site with real RQ workers: the plan and each step's output recorded once,
shown on the run's page, the plan refused to other people, and a worker SIGKILLed mid-plan that
leaves no step done twice."""

from __future__ import annotations

import json

import frappe

from huf.ai.agent.integration import run_agent_sync
from huf.ai.agent.run_detail import get_run_detail
from huf.ai.agent_state.planning import DOCTYPE
from huf.ai.run.resume import recover_conversation
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.support.scripted_llm import text, tool_calls

TODO = "huf_t_plan_todo"


def step(id_, name, **args):
	return tool_calls([(id_, name, json.dumps(args))])


def plan_rows(run: str) -> list[tuple[int, str, str]]:
	name = frappe.db.get_value(DOCTYPE, {"parent_run": run})
	rows = frappe.get_all("Agent Orchestration Plan", {"parent": name}, ["step_index", "status", "output_ref"], order_by="step_index asc")
	return [(r.step_index, r.status, r.output_ref) for r in rows]


def test_a_planned_run_records_its_plan_once_and_its_owner_sees_it_on_the_run_page(site, llm, web):
	alice = make_user("plan-alice@huf.test", ["Huf User"])
	bob = make_user("plan-bob@huf.test", ["Huf User"])
	agent = fixtures.agent(llm, name="Plan Agent", enable_planning=1)
	llm.script(
		step("p", "write_plan", steps=["Find the customer", "Write the summary"]),
		step("s1", "complete_step", step=1, output="Customer ACME"),
		step("again", "complete_step", step=1, output="Someone else"),
		step("s2", "complete_step", step=2, output="ACME is fine"),
		text("ACME is fine."),
	)
	with as_user(alice):
		run = run_agent_sync(agent, "Summarize our customer", now=True)
		detail = get_run_detail(run["run"])
	frappe.db.commit()
	assert run["status"] == "Success"
	assert plan_rows(run["run"]) == [(1, "Done", "Customer ACME"), (2, "Done", "ACME is fine")]
	assert detail["plan"]["status"] == "Completed" and [s["output"] for s in detail["plan"]["steps"]] == ["Customer ACME", "ACME is fine"]
	assert "Work by plan" in llm.chat_requests[0]["body"]["messages"][0]["content"]
	name = frappe.db.get_value(DOCTYPE, {"parent_run": run["run"]})
	for user, allowed in ((alice, True), (bob, False)):
		response = web.get(f"/api/resource/{DOCTYPE}/{name}", web.token_headers(user))
		assert (response.status_code == 200) is allowed and (("Customer ACME" in response.text) is allowed)


def test_a_plan_over_50_steps_is_refused_with_the_limit(site, llm):
	agent = fixtures.agent(llm, name="Plan Agent", enable_planning=1)
	llm.script(step("p", "write_plan", steps=[f"step {i}" for i in range(51)]), text("I will plan shorter."))
	run = run_agent_sync(agent, "Do a lot", now=True)
	frappe.db.commit()
	result = frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"], "call_id": "p"}, "tool_result")
	assert "at most 50 steps; this one has 51" in result and not frappe.db.exists(DOCTYPE, {"parent_run": run["run"]})


def test_a_worker_killed_mid_plan_goes_on_at_the_first_unfinished_step_and_does_no_step_twice(site, llm, workers):
	fixtures.tool(TODO, "Create Document", "ToDo")
	agent = fixtures.agent(llm, name="Plan Resume Agent", tools=(TODO,), enable_planning=1)
	todo = f"plan target {frappe.generate_hash(length=8)}"
	llm.script(
		step("p", "write_plan", steps=["Make the ToDo", "Report on it"]),
		step("t", TODO, data={"description": todo}),
		step("s1", "complete_step", step=1, output="made it"),
		text("Thinking about the report for a long while", chunks=8, delay=1.0),  # the worker dies in here
		step("g", "get_plan"),
		step("s2", "complete_step", step=2, output="reported"),
		text("The ToDo is made and reported."),
	)
	run = run_agent_sync(agent, "Make a ToDo and report")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: (frappe.db.rollback() or True) and plan_rows(run["run"])[:1] == [(1, "Done", "made it")], 60, message="step 1 done")
	wait_for(lambda: len(llm.chat_requests) >= 4, 60, message="the model thinking in step 2")
	workers.kill(0)
	recover_conversation(run["conversation"])
	workers.start(1)
	wait_for(lambda: frappe.db.get_value("Agent Run", run["run"], "status") in ("Success", "Failed"), 60, message="the resumed run")
	row = frappe.db.get_value("Agent Run", run["run"], ["status", "resumed_count", "response"], as_dict=True)
	assert (row.status, row.resumed_count, row.response) == ("Success", 1, "The ToDo is made and reported.")
	assert frappe.db.count("ToDo", {"description": todo}) == 1
	assert plan_rows(run["run"]) == [(1, "Done", "made it"), (2, "Done", "reported")]
	assert frappe.db.get_value(DOCTYPE, {"parent_run": run["run"]}, "status") == "Completed"
	resumed = json.dumps(llm.chat_requests[4]["body"]["messages"])
	assert "made it" in resumed and resumed.count('"write_plan"') == 1  # the recorded rounds, once each
