"""A worker SIGKILLed in the middle of a flow: the minute sweep finishes the run, and the agent step
goes on with the Agent Run it had started (a model call may be asked again; the run is not started
from scratch, and its tools decide by their own effects, huf/ai/run/resume.py)."""

from __future__ import annotations

import json
import time

import frappe

from huf.ai.flow import approvals

from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.flow_helpers import edge, killed_and_swept, node, save, start, steps, users
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import Reply, text, tool_calls


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
	run = killed_and_swept(workers, name)
	assert run.status == "Success", run.last_error
	assert steps(name) == [("first", "Success"), ("work", "Success"), ("done", "Success")]
	assert len(llm.chat_requests) == 2  # the model call in flight was asked again: it is safe to repeat
	agent_run = frappe.get_all("Agent Run", {"flow_run": name}, ["name", "status", "response", "resumed_count"])
	assert [(r.status, r.response, r.resumed_count) for r in agent_run] == [("Success", "asked again", 1)]
	assert frappe.db.count("Agent Message", {"agent_run": agent_run[0].name, "role": "user"}) == 1


def test_a_worker_killed_twice_in_one_agent_step_leaves_one_agent_run_that_goes_on(site, workers, llm):
	"""The step's second repeat still finds the Agent Run its first attempt made (the step keeps its
	first start), instead of starting another and stranding that one Started."""
	users()
	agent = fixtures.agent(llm, name="Flow Twice Killed Agent")
	llm.script(Reply(content="late", hang=30), Reply(content="late again", hang=30), text("third time"))
	flow = save("huf-test-killed-twice", [node("work", "agent.run", agent=agent, prompt="Go"), node("done", "end")], [edge("work", "done")])
	workers.start(1)
	name = start(flow)
	wait_for(lambda: llm.chat_requests, 30, 0.1, "the agent's model call")
	workers.kill(0)
	workers.start(1)
	deadline = time.monotonic() + 40
	while len(llm.chat_requests) < 2 and time.monotonic() < deadline:
		approvals.sweep()  # what the minute job does
		time.sleep(0.5)
	assert len(llm.chat_requests) == 2, "the step was not repeated"
	run = killed_and_swept(workers, name)
	assert run.status == "Success", run.last_error
	agent_runs = frappe.get_all("Agent Run", {"flow_run": name}, ["status", "response", "resumed_count"])
	assert [(r.status, r.response, r.resumed_count) for r in agent_runs] == [("Success", "third time", 2)]
	assert frappe.db.get_value("Flow Run Step", {"parent": name, "node_id": "work"}, "repeats") == 2


def test_an_agent_step_whose_run_stopped_during_a_call_that_may_act_once_fails_saying_it_needs_a_decision(site, workers, llm):
	users()
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as server:
		fixtures.tool("huf_t_flow_send", "POST", None, base_url=server.url(""), tool_type="HTTP Requests", effect="Ask before repeating")
		agent = fixtures.agent(llm, name="Flow Sending Agent", tools=("huf_t_flow_send",))
		llm.script(tool_calls([("c_send", "huf_t_flow_send", json.dumps({"url": "/sleep?seconds=60", "body": {"n": 1}}))]), text("never asked"))
		flow = save(
			"huf-test-killed-send",
			[node("work", "agent.run", agent=agent, prompt="Send it"), node("done", "end"), node("recover", "end")],
			[edge("work", "done", "on_success"), edge("work", "recover", "on_failure")],
		)  # fmt: skip
		workers.start(1)
		name = start(flow)
		wait_for(lambda: server.seen, 30, 0.1, "the request")
		run = killed_and_swept(workers, name)
		server.go_on.set()
	assert steps(name) == [("work", "Failed"), ("recover", "Success")], run.last_error
	error = frappe.db.get_value("Flow Run Step", {"parent": name, "node_id": "work"}, "error")
	assert "needs its owner's decision" in error and "huf_t_flow_send" in error
	agent_run = frappe.db.get_value("Agent Run", {"flow_run": name}, ["status", "name"], as_dict=True)
	assert agent_run.status == "Needs Attention"
	assert frappe.db.get_value("Agent Tool Call", {"agent_run": agent_run.name}, "status") == "Interrupted"
	assert len(server.seen) == 1 and len(llm.chat_requests) == 1  # nothing was sent or asked twice
