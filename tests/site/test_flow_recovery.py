"""A worker SIGKILLed in the middle of a flow: the minute sweep finishes the run, and the step that
acts outside (an agent's model call) is not run a second time."""

from __future__ import annotations

import time

import frappe

from huf.ai.flow import approvals
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.flow_helpers import edge, node, save, settle, start, steps, users
from tests.support.scripted_llm import Reply, text


def test_a_killed_worker_is_swept_and_no_step_acts_twice(site, workers, llm):
	users()
	agent = fixtures.agent(llm, name="Flow Slow Agent")
	llm.script(Reply(content="late", hang=30), text("never asked"))
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
	assert steps(name) == [("first", "Success"), ("work", "Failed"), ("recover", "Success")]
	error = frappe.db.get_value("Flow Run Step", {"parent": name, "node_id": "work"}, "error")
	assert "worker stopped" in error
	assert len(llm.chat_requests) == 1  # the model was not asked again
	assert frappe.db.count("Agent Run", {"flow_run": name}) == 1
