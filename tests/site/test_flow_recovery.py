"""A worker SIGKILLed in the middle of a flow: the minute sweep finishes the run, and the agent step
goes on with the Agent Run it had started (a model call may be asked again; the run is not started
from scratch, and its tools decide by their own effects, huf/ai/resume.py)."""

from __future__ import annotations

import time

import frappe

from huf.ai.flow import approvals
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.flow_helpers import edge, node, save, settle, start, steps, users
from tests.support.scripted_llm import Reply, text


def test_a_killed_worker_is_swept_and_the_agent_step_goes_on_with_its_run(site, workers, llm):
	users()
	agent = fixtures.agent(llm, name="Flow Slow Agent")
	llm.script(Reply(content="late", hang=30), text("asked again"))
	flow = save(
		"huf-test-killed",
		[node("first", "transform", mode="template", template="a", key="a"), node("work", "agent.run", agent=agent, prompt="Go"),
		 node("done", "end"), node("recover", "end")],
		[edge("first", "work"), edge("work", "done", "on_success"), edge("work", "recover", "on_failure")],
	)  # fmt: skip
	workers.start(1)
	name = start(flow)
	wait_for(lambda: llm.chat_requests, 30, 0.1, "the agent's model call")
	workers.kill(0)
	assert frappe.db.get_value("Flow Run", name, "status") == "Running"
	workers.start(1)
	deadline = time.monotonic() + 40
	while frappe.db.get_value("Flow Run", name, "status") == "Running" and time.monotonic() < deadline:
		approvals.sweep()  # what the minute job does
		time.sleep(1)
	run = settle(name)
	assert run.status == "Success", run.last_error
	assert steps(name) == [("first", "Success"), ("work", "Success"), ("done", "Success")]
	assert len(llm.chat_requests) == 2  # the model call in flight was asked again: it is safe to repeat
	agent_run = frappe.get_all("Agent Run", {"flow_run": name}, ["name", "status", "response", "resumed_count"])
	assert [(r.status, r.response, r.resumed_count) for r in agent_run] == [("Success", "asked again", 1)]
	assert frappe.db.count("Agent Message", {"agent_run": agent_run[0].name, "role": "user"}) == 1
