"""Flow runs through real RQ workers: every node type, a 3-agent flow against the scripted model
server, approvals (and who may decide), and who may read a run."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.run_detail import get_run_detail
from huf.ai.flow import api
from tests.site import fixtures
from tests.site.conftest import as_user
from tests.site.flow_helpers import APPROVER, OTHER, OWNER, edge, node, save, settle, start, steps, users
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import text


@pytest.fixture
def running(site, workers):
	users()
	workers.start(1)
	return workers


def test_three_agents_condition_transform_and_end(running, llm):
	agents = [fixtures.agent(llm, name=f"Flow Agent {n}") for n in (1, 2, 3)]
	llm.script(text("hot"), text("Dear Ada"), text("filed"))
	flow = save(
		"huf-test-three-agents",
		[
			node("start", "trigger.webhook", secret="s3cret-hook"),
			node("score", "agent.run", agent=agents[0], prompt="Score {{ trigger.lead }}"),
			node("hot", "condition", expression="nodes.score == 'hot'"),
			node("write", "agent.run", agent=agents[1], prompt="Write to {{ trigger.lead }}"),
			node("shape", "transform", mode="template", template="{{ trigger.lead }}: {{ nodes.write }}", key="letter"),
			node("file", "agent.run", agent=agents[2], prompt="File {{ letter }}"),
			node("done", "end", output="{{ nodes.file }}"),
		],
		[edge("start", "score"), edge("score", "hot", "on_success"), edge("hot", "write", "on_success"),
		 edge("write", "shape"), edge("shape", "file"), edge("file", "done")],
	)  # fmt: skip
	run = settle(start(flow, {"lead": "Ada"}))
	assert run.status == "Success", run.last_error
	assert [s for s, _ in steps(run.name)] == ["start", "score", "hot", "write", "shape", "file", "done"]
	context = json.loads(run.context_json)
	assert context["nodes"]["score"] == "hot" and context["letter"] == "Ada: Dear Ada"
	agent_runs = frappe.get_all("Agent Run", {"flow_run": run.name}, ["run_kind", "flow_node_id", "user", "conversation", "status"])
	assert sorted(r.flow_node_id for r in agent_runs) == ["file", "score", "write"]
	assert {(r.run_kind, r.user, r.conversation, r.status) for r in agent_runs} == {("agent", OWNER, run.conversation, "Success")}
	assert frappe.db.get_value("Agent Conversation", run.conversation, "user") == OWNER
	assert run.user == OWNER and run.hop_count == 7 and run.completed_at
	# The run's page and its agents' runs name the flow as people know it, not by its id.
	frappe.db.set_value("Flow Definition", flow, "flow_name", "Lead letters")
	assert api.get_flow_run(run.name)["flow_name"] == "Lead letters"
	scored = frappe.get_all("Agent Run", {"flow_run": run.name, "flow_node_id": "score"}, pluck="name")[0]
	shown = get_run_detail(scored)["run"]
	assert (shown.flow_name, shown.flow_run) == ("Lead letters", run.name)


def test_tool_call_acts_as_the_run_user(running):
	tool = fixtures.tool("flow_make_todo", "Create Document", "ToDo")
	denied = fixtures.tool("flow_make_role", "Create Document", "Role")
	flow = save(
		"huf-test-tools",
		[node("make", "tool.call", tool=tool, arguments={"data": {"description": "Call {{ trigger.who }}", "allocated_to": OWNER}}),
		 node("role", "tool.call", tool=denied, arguments={"data": {"role_name": "Flow Test Role {{ trigger.who }}"}})],
		[edge("make", "role")],
	)  # fmt: skip
	run = settle(start(flow, {"who": "Ada"}))
	todo = frappe.get_all("ToDo", {"description": "Call Ada"}, ["name", "owner"], order_by="creation desc", limit=1)
	assert todo and todo[0].owner == OWNER, (steps(run.name), run.last_error, frappe.get_all("Flow Run Step", {"parent": run.name}, ["output", "error"]))
	assert run.status == "Failed" and "permission" in run.last_error.lower()
	assert steps(run.name) == [("make", "Success"), ("role", "Failed")]
	refusal = f"You do not have permission to create Role: User {OWNER} does not have doctype access via role permission for document Role"
	assert frappe.db.get_value("Flow Run Step", {"parent": run.name, "node_id": "role"}, "error").endswith(refusal)  # Frappe's reason, not just "no"
	assert run.last_error.endswith(refusal)
	assert not frappe.db.exists("Role", "Flow Test Role Ada")


def test_router_loop_and_http(running, llm):
	fixtures.allowed_hosts("127.0.0.1")
	router_agent = fixtures.agent(llm, name="Flow Router")
	llm.script(text('{"edge": "route-many"}'))
	with LocalServer() as server:
		flow = save(
			"huf-test-router-loop",
			[
				node("route", "router.llm", prompt="Pick", model=router_agent),
				node("few", "end"),
				node("many", "loop", items="trigger.items", max_iterations=100),
				node("body", "transform", mode="template", template="{{ item }}", key="last"),
				node("call", "http_request", method="POST", url=server.url("/echo"), body={"count": "{{ nodes.many.iterations }}"}),
			],
			[edge("route", "few"), edge("route", "many"), edge("many", "body", meta={"outcome": "body"}),
			 edge("body", "many"), edge("many", "call", meta={"outcome": "done"})],
			max_hops=200,
		)  # fmt: skip
		run = settle(start(flow, {"items": list(range(50))}), timeout=90)
		assert run.status == "Success", run.last_error
		assert len(server.seen) == 1 and json.loads(server.seen[0].body) == {"count": 50}
	assert str(json.loads(run.context_json)["last"]) == "49"
	assert run.hop_count == 1 + 51 + 50 + 1
	assert frappe.db.count("Agent Run", {"flow_run": run.name, "run_kind": "orchestrator"}) == 1


def approval_flow(flow_id: str) -> str:
	return save(
		flow_id,
		[node("ask", "human.approval", approval_type="users", users=[APPROVER], message="Ship {{ trigger.order }}?"),
		 node("yes", "end"), node("no", "end")],
		[edge("ask", "yes", meta={"outcome": "approved"}), edge("ask", "no", meta={"outcome": "rejected"})],
	)  # fmt: skip


def test_approval_by_the_named_approver_only(running):
	flow = approval_flow("huf-test-approval")
	name = start(flow, {"order": "A-1"})
	run = settle(name)
	assert run.status == "Waiting Approval"
	waiting = json.loads(run.waiting)
	assert waiting["approvers"]["users"] == [APPROVER] and waiting["message"] == "Ship A-1?"
	with as_user(APPROVER):  # an approver sees the run while it waits
		assert api.get_flow_run(name)["can_approve"] is True
		assert name in [r.name for r in api.list_flow_runs()]
	for outsider in (OTHER, OWNER, "Administrator"):  # neither the owner nor a manager who is not named
		with as_user(outsider), pytest.raises(frappe.PermissionError):
			api.approve_flow_run(name)
	with as_user(OTHER), pytest.raises(frappe.PermissionError):
		api.get_flow_run(name)
	with as_user(APPROVER):
		assert api.reject_flow_run(name, comment="Not yet")["status"] == "Queued"
		with pytest.raises(frappe.ValidationError) as second:
			api.approve_flow_run(name)
	assert second.value.http_status_code == 409
	run = settle(name, statuses=("Success", "Failed"))
	assert run.status == "Success" and steps(name)[-1] == ("no", "Success")
	assert json.loads(run.context_json)["nodes"]["ask"] == {"outcome": "rejected", "comment": "Not yet", "by": APPROVER}
	with as_user(APPROVER):  # who decided keeps seeing the run, and may decide nothing more
		assert api.get_flow_run(name)["can_approve"] is False
		assert name in [r.name for r in api.list_flow_runs()]
	with as_user(OTHER), pytest.raises(frappe.PermissionError):
		api.get_flow_run(name)


def test_an_edited_flow_runs_its_pinned_version(running):
	flow = approval_flow("huf-test-pinned")
	name = settle(start(flow, {"order": "B-2"})).name
	definition = api.get_flow_definition(flow)["definition"]
	definition["edges"] = [edge("ask", "no", meta={"outcome": "approved"})]
	api.save_flow_definition(flow, definition)
	frappe.db.commit()
	with as_user(APPROVER):
		api.approve_flow_run(name)
	run = settle(name, statuses=("Success", "Failed"))
	assert run.status == "Success" and steps(name)[-1][0] == "yes" and run.flow_version == 1


def test_max_hops_and_other_users(running):
	flow = save(
		"huf-test-circle",
		[node("a", "transform", mode="template", template="x", key="a"), node("b", "transform", mode="template", template="y", key="b"), node("out", "end")],
		# the way out is a condition that never holds (a circle with no way out at all is refused on save)
		[edge("a", "b"), edge("b", "out", "expression", condition="nodes.b.b == 'stop'", priority=1), edge("b", "a")],
		max_hops=5,
	)
	name = start(flow)
	run = settle(name)
	assert run.status == "Failed" and "max_hops" in run.last_error and run.hop_count == 6
	with as_user(OTHER):
		with pytest.raises(frappe.PermissionError):
			api.get_flow_run(name)
		with pytest.raises(frappe.PermissionError):
			api.resume_flow_run(name)
		assert name not in [r.name for r in api.list_flow_runs()]
	with as_user(OWNER):
		assert api.get_flow_run(name)["status"] == "Failed"


def test_a_tool_that_asks_first_needs_an_approval_step_right_before_it(running):
	tool = fixtures.tool("flow_ask_todo", "Create Document", "ToDo")
	call = node("make", "tool.call", tool=tool, arguments={"data": {"description": "Asked first {{ trigger.who }}"}})
	flow = save("huf-test-asks-first", [call], [])
	frappe.db.set_value("Agent Tool Function", tool, "requires_approval", 1)  # marked after the flow was saved
	frappe.db.commit()
	run = settle(start(flow, {"who": "Bea"}))
	assert run.status == "Failed" and "marked to ask a person before it runs" in run.last_error
	assert not frappe.db.exists("ToDo", {"description": "Asked first Bea"})
	with pytest.raises(frappe.ValidationError, match="put a Human approval step right before this step"):
		save("huf-test-asks-first", [call, node("other", "end")], [])  # saving again says so
