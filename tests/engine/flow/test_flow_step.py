"""One hop at a time (engine/flow/step.py): routing, failures (retries, default, on_failure),
max_hops, loops, approvals and Agentic mode, with fake agent/tool/model ports."""

from __future__ import annotations

import pytest

from huf.ai.engine.flow.graph import parse
from huf.ai.engine.flow.ports import AgentResult
from huf.ai.engine.flow.step import RunState, resume, step
from tests.engine.flow_helpers import FakePorts, definition, edge, node, run


def test_a_lead_flow_scores_routes_and_ends():
	defn = definition(
		[
			node("start", "trigger.webhook"),
			node("score", "agent.run", "Score lead", agent="Scorer", prompt="Score {{ trigger.lead.name }}", output_format="json", output_key="scored"),
			node("hot", "condition", "Is it hot?", expression="scored.score > 50"),
			node("save", "tool.call", "Save", tool="create_opportunity", arguments={"lead": "{{ trigger.lead }}", "note": "score {{ scored.score }}"}),
			node("done", "end", output="{{ nodes.save }}"),
			node("cold", "end"),
		],
		[edge("start", "score"), edge("score", "hot", "on_success"), edge("hot", "save", "on_success"), edge("hot", "cold", "on_failure"), edge("save", "done")],
	)
	ports = FakePorts(agents={"Scorer": AgentResult('{"score": 80}', run="RUN-1")}, tools={"create_opportunity": lambda a: {"name": "OPP-1", "got": a}})
	results, _ = run(defn, ports, {"lead": {"name": "Ann"}})
	assert [r.node_id for r in results] == ["start", "score", "hot", "save", "done"]
	assert results[1].agent_run == "RUN-1" and ports.calls[0] == ("agent", "Scorer", "Score Ann", "score")
	assert ports.calls[1] == ("tool", "create_opportunity", {"lead": {"name": "Ann"}, "note": "score 80"})
	assert results[-1].status == "success" and results[-1].output["name"] == "OPP-1"
	assert results[-1].context["scored"] == {"score": 80}


def test_a_false_condition_follows_on_failure_and_labelled_edges_win():
	nodes = [node("c", "condition", expression="trigger.n > 5"), node("big", "end"), node("small", "end")]
	plain = definition(nodes, [edge("c", "big", "on_success"), edge("c", "small", "on_failure")])
	assert run(plain, FakePorts(), {"n": 1})[0][0].next_node_id == "small"
	assert run(plain, FakePorts(), {"n": 9})[0][0].next_node_id == "big"
	labelled = definition(nodes, [edge("c", "big", sourceHandle="true"), edge("c", "small", meta={"outcome": "false"})])
	assert run(labelled, FakePorts(), {"n": 1})[0][0].next_node_id == "small"
	only_true = definition(nodes, [edge("c", "big", "on_success")])
	last = run(only_true, FakePorts(), {"n": 1})[0][-1]
	assert last.status == "failed" and "condition was false" in last.error and "'c'" in last.error


def test_a_failing_node_is_retried_with_backoff_then_fails_naming_it():
	attempts = []

	def flaky(arguments):
		attempts.append(1)
		raise RuntimeError("The CRM is down")

	defn = definition([node("t", "tool.call", "Save lead", tool="save", retries=2, backoff_seconds=1.5), node("e", "end")], [edge("t", "e")])
	results, _ = run(defn, FakePorts(tools={"save": flaky}))
	assert [r.retry_in for r in results] == [1.5, 3.0, None] and len(attempts) == 3
	assert all(r.next_node_id == "t" for r in results[:2])
	assert results[-1].status == "failed" and results[-1].error == "The step 'Save lead' (t) failed: The CRM is down"


def test_a_default_value_or_an_on_failure_edge_carries_a_failure_on():
	def broken(arguments):
		raise ValueError("bad")

	with_default = definition([node("t", "tool.call", tool="x", default={"rows": []}), node("e", "end", output="{{ nodes.t }}")], [edge("t", "e")])
	assert run(with_default, FakePorts(tools={"x": broken}))[0][-1].output == {"rows": []}
	with_edge = definition([node("t", "tool.call", tool="x"), node("ok", "end"), node("oops", "end", output="{{ nodes.t.error }}")], [edge("t", "ok"), edge("t", "oops", "on_failure")])
	results = run(with_edge, FakePorts(tools={"x": broken}))[0]
	assert results[0].next_node_id == "oops" and results[-1].output == "bad"


def test_edges_by_priority_then_definition_order_first_match():
	nodes = [node("s", "trigger.schedule"), node("a", "end"), node("b", "end"), node("c", "end")]
	edges = [edge("s", "a", "expression", condition="trigger.x > 1"), edge("s", "b", "always"), edge("s", "c", "expression", condition="trigger.x > 2", priority=5)]
	assert run(definition(nodes, edges), FakePorts(), {"x": 3})[0][0].next_node_id == "c"
	assert run(definition(nodes, edges), FakePorts(), {"x": 2})[0][0].next_node_id == "a"
	assert run(definition(nodes, edges), FakePorts(), {"x": 0})[0][0].next_node_id == "b"
	bad = [edge("s", "a", "expression", condition="trigger.missing > 1", edge_id="e9")]
	last = run(definition(nodes, bad), FakePorts(), {"x": 0})[0][-1]
	assert last.status == "failed" and "edge e9" in last.error and "no key 'missing'" in last.error


def test_max_hops_stops_a_runaway_graph():
	defn = definition([node("a", "transform", mode="map", mappings={"n": "n + 1"}), node("b", "transform", mode="map", mappings={})], [edge("a", "b"), edge("b", "a")], max_hops=7)
	graph = parse(defn)
	state = RunState("a", {"trigger": {}, "nodes": {}, "n": 0}, 7, graph.max_hops)
	result = step(graph, state, FakePorts())
	assert result.status == "failed" and "after 7 steps" in result.error and "max_hops" in result.error
	results, _ = run(defn, FakePorts(), n=0)
	assert len(results) == 8 and results[-1].status == "failed" and results[-2].context["n"] == 4


def test_a_loop_over_50_items_runs_its_body_for_each_then_done():
	defn = definition(
		[
			node("each", "loop", "Each lead", items="trigger.leads", item_var="lead", max_iterations=100),
			node("body", "transform", "Add", mode="map", mappings={"total": "total + lead * index"}),
			node("after", "end", output="{{ total }}"),
		],
		[edge("each", "body", sourceHandle="body"), edge("each", "after", sourceHandle="done"), edge("body", "each")],
	)
	ports = FakePorts()
	graph = parse(defn)
	state = RunState("each", {"trigger": {"leads": list(range(50))}, "nodes": {}, "total": 0}, 0, 1000)
	results = []
	while True:
		result = step(graph, state, ports)
		results.append(result)
		if result.status != "continue":
			break
		state = RunState(result.next_node_id, result.context, state.hop_count + 1, 1000, loop=result.loop)
	assert result.status == "success" and result.output == sum(i * i for i in range(50))
	assert len(results) == 50 * 2 + 2 and result.loop == {}
	without_done = definition([defn["nodes"][0], node("body", "transform", mode="copy", mappings={"last": "lead"})], [edge("each", "body", sourceHandle="body"), edge("body", "each")])
	last = run(without_done, FakePorts(), {"leads": [1, 2]})[0][-1]
	assert last.status == "success" and last.context["last"] == 2 and last.output == {"iterations": 2}


def test_a_loop_longer_than_its_maximum_fails_before_the_first_item():
	defn = definition([node("l", "loop", items="trigger.items", max_iterations=3, body="b"), node("b", "end")], [edge("l", "b", sourceHandle="body")])
	last = run(defn, FakePorts(), {"items": [1, 2, 3, 4]})[0][-1]
	assert last.status == "failed" and "4 items, more than the loop's maximum of 3" in last.error


APPROVAL = [node("ask", "human.approval", "Manager OK", approval_type="users", users=["boss@x.com"], message="Approve {{ trigger.amount }}?", timeout_seconds=3600), node("yes", "end"), node("no", "end")]


def test_approval_waits_then_resumes_approved_or_rejected():
	defn = definition(APPROVAL, [edge("ask", "yes", "on_success"), edge("ask", "no", meta={"outcome": "rejected"})])
	results, state = run(defn, FakePorts(), {"amount": 500})
	waiting = results[-1]
	assert waiting.status == "waiting" and waiting.waiting == {"kind": "approval", "node_id": "ask", "approvers": {"users": ["boss@x.com"], "roles": []}, "message": "Approve 500?", "timeout_seconds": 3600.0}
	graph = parse(defn)
	approved = resume(graph, state, {"outcome": "approved", "comment": "fine", "by": "boss@x.com"})
	assert approved.next_node_id == "yes" and approved.context["nodes"]["ask"] == {"outcome": "approved", "comment": "fine", "by": "boss@x.com"}
	assert resume(graph, state, {"outcome": "rejected", "by": "boss@x.com"}).next_node_id == "no"
	no_rejected_edge = parse(definition(APPROVAL, [edge("ask", "yes", "on_success"), edge("ask", "no", "on_failure")]))
	rejected = resume(no_rejected_edge, state, {"outcome": "rejected", "comment": "too much", "by": "boss@x.com"})
	assert rejected.status == "failed" and "rejected and no edge handles a rejection" in rejected.error


def test_agentic_mode_follows_the_orchestrators_choice_and_retries_a_bad_answer_once():
	nodes = [node("s", "trigger.webhook"), node("a", "end"), node("b", "end")]
	defn = definition(nodes, [edge("s", "a", edge_id="to-a"), edge("s", "b", edge_id="to-b")])
	ports = FakePorts(answers=["I think b", '{"next": "to-b", "reason": "b fits"}'])
	results, _ = run(defn, ports, mode="Agentic")
	assert results[0].next_node_id == "b" and len(ports.calls) == 2 and "to-a" in ports.calls[0][1]
	bad = FakePorts(answers=["b please", '{"next": "to-c"}'])
	last = run(defn, bad, mode="Agentic")[0][-1]
	assert last.status == "failed" and "twice" in last.error and "to-c" in last.error


@pytest.mark.parametrize("answer", ['{"edge": "to-b"}', "to-b", '"to-b"'])
def test_router_llm_accepts_json_or_the_bare_id(answer):
	defn = definition([node("r", "router.llm", prompt="Where does {{ trigger.q }} go?"), node("a", "end"), node("b", "end")], [edge("r", "a", edge_id="to-a", label="Sales"), edge("r", "b", edge_id="to-b")])
	ports = FakePorts(answers=[answer])
	result = run(defn, ports, {"q": "refund"})[0][0]
	assert result.next_node_id == "b" and "Where does refund go?" in ports.calls[0][1] and "to-a: Sales ->" in ports.calls[0][1]


def test_router_llm_with_two_wrong_answers_takes_on_failure():
	defn = definition([node("r", "router.llm"), node("a", "end"), node("f", "end")], [edge("r", "a", edge_id="to-a"), edge("r", "f", "on_failure")])
	result = run(defn, FakePorts(answers=["no idea", "still none"]))[0][0]
	assert result.next_node_id == "f" and "still none" in result.context["nodes"]["r"]["error"]


def test_a_port_exception_is_a_node_failure_not_a_crash():
	def boom(prompt):
		raise ConnectionError("model server unreachable")

	defn = definition([node("a", "agent.run", "Ask", agent="X", prompt="hi")], [])
	last = run(defn, FakePorts(agents={"X": boom}))[0][-1]
	assert last.status == "failed" and "model server unreachable" in last.error


def test_approval_timeout_follows_its_edge_or_fails():
	with_edge = parse(definition(APPROVAL, [edge("ask", "yes", "on_success"), edge("ask", "no", meta={"outcome": "timeout"})]))
	state = RunState("ask", {"trigger": {}, "nodes": {}}, 1, 100)
	assert resume(with_edge, state, {"outcome": "timeout"}).next_node_id == "no"
	without = parse(definition(APPROVAL, [edge("ask", "yes", "on_success")]))
	assert "no one decided in time" in resume(without, state, {"outcome": "timeout"}).error
	assert "not a decision" in resume(without, state, {"outcome": "maybe"}).error
	assert "not waiting for an approval" in resume(without, RunState("yes", {}, 1, 100), {"outcome": "approved"}).error


def test_agentic_mode_asks_only_where_there_is_a_choice_and_survives_a_failing_model():
	single = definition([node("s", "trigger.webhook"), node("a", "end")], [edge("s", "a")])
	ports = FakePorts()
	assert run(single, ports, mode="Agentic")[0][-1].status == "success" and ports.calls == []

	class Down(FakePorts):
		def complete(self, prompt, model):
			raise ConnectionError("model server unreachable")

	two = definition([node("s", "trigger.webhook"), node("a", "end"), node("b", "end")], [edge("s", "a"), edge("s", "b")])
	last = run(two, Down(), mode="Agentic")[0][-1]
	assert last.status == "failed" and "orchestrator could not be asked: model server unreachable" in last.error


def test_skip_goes_on_along_the_success_path_with_the_value_given():
	from huf.ai.engine.flow.graph import parse
	from huf.ai.engine.flow.step import RunState, skip

	defn = definition(
		[node("post", "http_request", "Post", method="POST", url="https://example.com"), node("next", "transform", "Next"), node("oops", "end", "Oops")],
		[edge("post", "next"), edge("post", "oops", "on_failure")],
	)
	state = RunState("post", {"trigger": {}, "nodes": {}}, 3, 100, run="r")
	result = skip(parse(defn), state, {"sent": "by hand"}, FakePorts())
	assert (result.status, result.next_node_id) == ("continue", "next")
	assert result.context["nodes"]["post"] == {"sent": "by hand"} and result.output == {"sent": "by hand"}
