"""Saving a flow (engine/flow/validate.py): the reference's graph rules and each node type's own
settings, every problem with the node's id and label and words a flow builder can act on."""

from __future__ import annotations

import pytest

from huf.ai.engine.flow.graph import parse
from huf.ai.engine.flow.validate import Problem, validate
from tests.engine.flow_helpers import definition, edge, node


class Known:
	def agent(self, name: str) -> bool:
		return name == "Scorer"

	def tool(self, name: str) -> bool:
		return name in ("create_lead", "delete_lead")

	def asks_first(self, name: str) -> bool:
		return name == "delete_lead"


GOOD = definition(
	[
		node("hook", "trigger.webhook", "New lead"),
		node("score", "agent.run", "Score", agent="Scorer", prompt="Score {{ trigger.lead }}"),
		node("save", "tool.call", "Save", tool="create_lead", arguments={"lead": "{{ trigger.lead }}"}),
		node("route", "router.llm", "Route", prompt="Pick"),
		node("ok", "human.approval", "Manager", approval_type="role", roles=["Sales Manager"], timeout_seconds=60),
		node("call", "http_request", "Enrich", method="post", url="https://api.example.com/{{ trigger.id }}", headers={"X-Key": "k"}, body={"a": "{{ trigger }}"}),
		node("hot", "condition", "Hot?", expression="nodes.score > 50"),
		node("shape", "transform", "Shape", mode="copy", mappings={"email": "trigger.lead['email']"}),
		node("each", "loop", "Each", items="trigger.items", max_iterations=10),
		node("end", "end", "Done"),
	],
	[
		edge("hook", "score"), edge("score", "save", "on_success"), edge("save", "route"), edge("route", "ok"),
		edge("ok", "call", meta={"outcome": "approved"}), edge("call", "hot"), edge("hot", "shape", "expression", condition="trigger.x == 1"),
		edge("shape", "each"), edge("each", "end", sourceHandle="body"), edge("end", "each", "on_failure"),
	],
)


def messages(defn: dict) -> list[tuple[str | None, str | None, str]]:
	return [(p.node_id, p.label, p.message) for p in validate(defn, Known())]


def test_a_good_flow_has_no_problems_and_its_entry_is_the_single_trigger():
	assert validate(GOOD, Known()) == []
	assert parse(GOOD).entry == "hook"
	assert parse(definition([node("a", "end"), node("b", "end")], [])).entry == "a"
	assert parse({**GOOD, "entry": "save"}).entry == "save"


def test_node_config_and_label_are_read_from_data_or_the_node():
	graph = parse({"id": "f", "nodes": [{"id": "n", "type": "end", "label": "Top", "config": {"output": 1}}], "edges": []})
	assert graph.nodes["n"].label == "Top" and graph.nodes["n"].config == {"output": 1}


@pytest.mark.parametrize(
	("change", "expected"),
	[
		(lambda d: d.pop("id"), (None, None, 'The flow definition has no "id"')),
		(lambda d: d["nodes"].append(node("end", "end", "Again")), ("end", "Again", "2 steps share the id 'end'")),
		(lambda d: d["edges"].append(edge("end", "ghost", edge_id="e-x")), ("end", "Done", "Edge e-x leads to 'ghost', which is not a step")),
		(lambda d: d["edges"].append(edge("ghost", "end", edge_id="e-y")), (None, None, "Edge e-y starts at 'ghost'")),
		(lambda d: d.update(entry="nowhere"), (None, None, "The entry step 'nowhere' does not exist")),
		(lambda d: d["nodes"].append(node("x", "code", "Code")), ("x", "Code", "The step type 'code' is not available")),
		(lambda d: d["edges"].append(edge("hot", "end", "expression", edge_id="e-z")), ("hot", "Hot?", "Edge e-z is an expression edge without a condition")),
		(lambda d: d["edges"].append(edge("hot", "end", "sometimes", edge_id="e-t")), ("hot", "Hot?", "Edge e-t has the type 'sometimes'")),
		(lambda d: d["edges"].append(edge("hot", "end", "expression", edge_id="e-c", condition="x.__class__")), ("hot", "Hot?", "The condition of edge e-c cannot be used")),
		(lambda d: d.update(max_hops=0), (None, None, "max_hops must be a whole number above 0")),
		(lambda d: d.update(nodes=[]), (None, None, "The flow has no steps")),
	],
)
def test_each_graph_rule_is_reported(change, expected):
	defn = {**GOOD, "nodes": list(GOOD["nodes"]), "edges": list(GOOD["edges"])}
	change(defn)
	found = messages(defn)
	assert any(p[:2] == expected[:2] and p[2].startswith(expected[2]) for p in found), found


def replace(node_id: str, **config) -> dict:
	nodes = [n if n["id"] != node_id else {**n, "data": {"label": n["data"]["label"], "config": config}} for n in GOOD["nodes"]]
	return {**GOOD, "nodes": nodes}


@pytest.mark.parametrize(
	("node_id", "config", "words"),
	[
		("score", {"prompt": "x"}, "does not say which agent to run"),
		("score", {"agent": "Nobody", "prompt": "x"}, "The agent 'Nobody' does not exist"),
		("score", {"agent": "Scorer"}, "It has no prompt"),
		("score", {"agent": "Scorer", "prompt": "Hi {{ __import__('os') }}"}, "A placeholder in its prompt"),
		("save", {"arguments": {}}, "does not say which tool to call"),
		("save", {"tool": "drop_all"}, "The tool 'drop_all' does not exist"),
		("save", {"tool": "create_lead", "arguments": ["a"]}, "Its arguments must be an object"),
		("ok", {"approval_type": "users", "users": []}, "approved by users but lists none"),
		("ok", {"approval_type": "roles"}, "approved by a role but lists none"),
		("ok", {"users": ["a@x.com"]}, 'set approval_type to "user"'),
		("ok", {"approval_type": "user", "users": ["a@x.com"], "timeout_seconds": -1}, "Its timeout must be a number"),
		("call", {"method": "FETCH", "url": "https://a.example"}, "Its method must be one of"),
		("call", {"method": "GET", "url": "ftp://a.example"}, "Its URL must be a full web address"),
		("call", {"method": "GET", "url": "{{ trigger.url }}"}, "Its URL must be a full web address"),
		("call", {"method": "GET", "url": "https://a.example", "headers": "x"}, "Its headers must be an object"),
		("hot", {}, "It needs expression, e.g. trigger.lead.score > 50"),
		("hot", {"expression": "score >"}, "Its expression cannot be used"),
		("hot", {"expression": "[x for x in y]"}, "cannot use comprehensions"),
		("shape", {"mode": "merge"}, "Its mode must be copy, map or template"),
		("shape", {"mode": "copy", "mappings": {"e": "trigger.email + 'x'"}}, "must be a path such as"),
		("shape", {"mode": "map", "mappings": {}}, "needs mappings"),
		("shape", {"mode": "template", "template": "x"}, "needs a template and the key"),
		("each", {"max_iterations": 10}, "It needs list to go through (items)"),
		("each", {"items": "trigger.items"}, "Its max_iterations must be a whole number from 1 to 10,000"),
		("each", {"items": "trigger.items", "max_iterations": 10, "body": "ghost"}, "Its body step 'ghost' does not exist"),
	],
)
def test_each_nodes_own_settings_are_checked_with_its_id_and_label(node_id, config, words):
	found = validate(replace(node_id, **config), Known())
	label = next(n["data"]["label"] for n in GOOD["nodes"] if n["id"] == node_id)
	assert any(p.node_id == node_id and p.label == label and words in p.message for p in found), found


def test_a_router_without_candidates_and_a_loop_without_a_body_are_reported():
	defn = definition([node("r", "router.llm", "Pick"), node("l", "loop", "Each", items="x", max_iterations=3), node("f", "end")], [edge("r", "f", "on_failure")])
	assert validate(defn, Known()) == [
		Problem("r", "Pick", "It has no edges to choose from; connect it to the steps the model may choose between."),
		Problem("l", "Each", "It has no body step; connect an edge labelled body (or set body) to the first step to repeat."),
	]


def test_a_definition_that_is_not_an_object_is_one_problem():
	assert validate([], Known()) == [Problem(None, None, "The flow definition must be a JSON object with nodes and edges.")]


def test_a_tool_that_asks_first_runs_only_right_after_an_approval():
	def flow(into: list[dict]) -> list[Problem]:
		nodes = [
			node("hook", "trigger.webhook", "New lead"),
			node("ask", "human.approval", "Manager", approval_type="users", users=["boss@example.com"]),
			node("drop", "tool.call", "Delete lead", tool="delete_lead", arguments={}),
		]
		return [p for p in validate(definition(nodes, [edge("hook", "ask"), *into]), Known()) if p.node_id == "drop"]

	assert flow([edge("ask", "drop", meta={"outcome": "approved"})]) == []
	assert flow([edge("ask", "drop", "on_success")]) == []  # an approval's plain path is its approved one
	for into in ([edge("hook", "drop")], [edge("ask", "drop", meta={"outcome": "rejected"})], [edge("ask", "drop", meta={"outcome": "approved"}), edge("hook", "drop")], []):
		problems = flow(into)
		assert [p.label for p in problems] == ["Delete lead"], into
		assert "marked to ask a person before it runs; put a Human approval step right before this step" in problems[0].message


def step(node_id: str, label: str | None = None) -> dict:
	return node(node_id, "transform", label or node_id.upper(), mode="template", template="x", key=node_id)


CLOSED = "These steps go round in a circle that a run can never leave: {}. Give one of the edges between them a condition, add an edge out of the circle with a higher priority than the edges that always apply, or repeat them with a loop step."
ITSELF = "This step leads back to itself and a run can never leave it: {}. Give that edge a condition, add an edge to another step with a higher priority than the edges that always apply, or repeat it with a loop step."
ASK = {"approval_type": "user", "users": ["boss@example.com"]}


def circles(nodes: list[dict], edges: list[dict], **extra) -> list[Problem]:
	return [p for p in validate(definition(nodes, edges, **extra), Known()) if "circle" in p.message or "back to itself" in p.message]


@pytest.mark.parametrize(
	("nodes", "edges", "expected"),
	[
		([step("a")], [edge("a", "a")], [Problem("a", "A", ITSELF.format("'A' (a)"))]),
		([step("s"), step("a"), step("b")], [edge("s", "a"), edge("a", "b", "on_success"), edge("b", "a")], [Problem("a", "A", CLOSED.format("'A' (a), 'B' (b)"))]),
		(
			[step("s"), step("c"), step("b"), step("a", "a")],  # listed out of order: the outline goes s, a, b, c
			[edge("s", "a"), edge("a", "b"), edge("b", "c"), edge("c", "a")],
			[Problem("a", "a", CLOSED.format("'a', 'B' (b), 'C' (c)"))],
		),
		(  # the way out is tried after an edge that always applies, so it is never taken
			[step("a"), step("b"), node("out", "end")],
			[edge("a", "out", priority=0), edge("a", "b", priority=5), edge("b", "a")],
			[Problem("a", "A", CLOSED.format("'A' (a), 'B' (b)"))],
		),
		(  # the same, the way out a condition that comes too late
			[step("a"), node("out", "end")],
			[edge("a", "a"), edge("a", "out", "expression", condition="trigger.done")],
			[Problem("a", "A", ITSELF.format("'A' (a)"))],
		),
		(  # both of a loop's ways lead back into the circle: the loop starts over, for ever
			[node("each", "loop", "Each", items="trigger.items", max_iterations=5), step("a"), step("b")],
			[edge("each", "a", sourceHandle="body"), edge("each", "b", sourceHandle="done"), edge("a", "each"), edge("b", "each")],
			[Problem("each", "Each", CLOSED.format("'Each' (each), 'A' (a), 'B' (b)"))],
		),
		(  # approved or rejected, the run comes back; with no timeout edge nothing else can happen
			[node("ask", "human.approval", "Ask", **ASK), step("fix")],
			[edge("ask", "fix", meta={"outcome": "approved"}), edge("ask", "fix", "always", "rejected", meta={"outcome": "rejected"}), edge("fix", "ask")],
			[Problem("ask", "Ask", CLOSED.format("'Ask' (ask), 'FIX' (fix)"))],
		),
		(  # a step with a default goes on after a failure as after a success: its on_failure edge is never taken
			[node("a", "transform", "A", mode="template", template="x", key="a", default="y"), step("b"), node("out", "end")],
			[edge("a", "b"), edge("a", "out", "on_failure"), edge("b", "a")],
			[Problem("a", "A", CLOSED.format("'A' (a), 'B' (b)"))],
		),
		(  # a condition's false way, the only other one, leads back too
			[node("hot", "condition", "Hot?", expression="trigger.score > 5"), step("a")],
			[edge("hot", "a", sourceHandle="true"), edge("hot", "a", "always", "hot-a-false", sourceHandle="false"), edge("a", "hot")],
			[Problem("hot", "Hot?", CLOSED.format("'Hot?' (hot), 'A' (a)"))],
		),
		(  # two circles, each its own problem, in outline order; the edge between them is the first's way out
			[step("a"), step("b"), step("c"), step("d")],
			[edge("c", "d"), edge("d", "c"), edge("a", "b", "always", "a-b", priority=1), edge("b", "a"), edge("a", "c")],
			[Problem("a", "A", CLOSED.format("'A' (a), 'B' (b)")), Problem("c", "C", CLOSED.format("'C' (c), 'D' (d)"))],
		),
	],
	ids=["itself", "two steps", "three steps", "way out shadowed", "condition shadowed", "loop without a way out", "approval both ways", "default", "condition both ways", "two circles"],
)
def test_a_circle_a_run_can_never_leave_is_refused_naming_its_steps(nodes, edges, expected):
	assert circles(nodes, edges) == expected


@pytest.mark.parametrize(
	("nodes", "edges"),
	[
		([step("a"), step("b"), node("out", "end")], [edge("a", "out", "expression", condition="trigger.done", priority=1), edge("a", "b"), edge("b", "a")]),
		([step("a"), node("out", "end")], [edge("a", "out", "expression", condition="nodes.a == 'stop'"), edge("a", "a")]),
		(
			[node("each", "loop", "Each", items="trigger.items", max_iterations=5), step("a"), node("out", "end")],
			[edge("each", "a", sourceHandle="body"), edge("a", "each"), edge("each", "out", sourceHandle="done")],
		),
		([node("each", "loop", "Each", items="trigger.items", max_iterations=5), step("a")], [edge("each", "a", sourceHandle="body"), edge("a", "each")]),
		(
			[node("ask", "human.approval", "Ask", **ASK), step("fix"), node("out", "end")],
			[edge("ask", "fix", meta={"outcome": "approved"}), edge("fix", "ask"), edge("ask", "out", meta={"outcome": "rejected"})],
		),
		(
			[node("ask", "human.approval", "Ask", timeout_seconds=60, **ASK), step("fix"), node("out", "end")],
			[edge("ask", "fix"), edge("fix", "ask"), edge("ask", "out", sourceHandle="timeout")],
		),
		([step("a"), step("b"), node("out", "end")], [edge("a", "b"), edge("b", "a"), edge("b", "out", "on_failure")]),
		([node("hot", "condition", "Hot?", expression="trigger.score > 5"), step("a"), node("out", "end")], [edge("hot", "a", sourceHandle="true"), edge("a", "hot"), edge("hot", "out", sourceHandle="false")]),
		([node("hot", "condition", "Hot?", expression="trigger.score > 5"), step("a"), node("out", "end")], [edge("hot", "a"), edge("a", "hot"), edge("hot", "out", "on_failure")]),
		([node("pick", "router.llm", "Pick", prompt="Again?"), step("a"), node("out", "end")], [edge("pick", "a"), edge("a", "pick"), edge("pick", "out", priority=-1)]),
		([step("a"), node("done", "end", "Done")], [edge("a", "done"), edge("done", "a", "on_failure")]),
		([step("a"), step("b")], [edge("a", "b"), edge("b", "a"), edge("b", "ghost", priority=1)]),  # the missing step is its own problem
		([step("a"), node("b", "end")], [edge("a", "b", "always", "a-b", priority=1), edge("a", "a")]),  # a's way back to itself is never taken
	],
	ids=[
		"condition out", "condition out of itself", "loop done", "loop without done", "approval rejected", "approval timeout", "on_failure out",
		"condition false", "condition fails", "router", "end", "missing step", "shadowed way back",
	],
)
def test_a_circle_a_condition_or_a_choice_can_leave_is_allowed(nodes, edges):
	assert circles(nodes, edges) == []


def test_in_agentic_mode_the_orchestrator_may_take_any_way_out():
	nodes, edges = [step("a"), step("b"), node("out", "end")], [edge("a", "b", priority=1), edge("a", "out"), edge("b", "a")]
	assert circles(nodes, edges, mode="Agentic") == []
	assert circles(nodes, edges) == [Problem("a", "A", CLOSED.format("'A' (a), 'B' (b)"))]
	approval = [node("ask", "human.approval", "Ask", **ASK), step("fix"), node("out", "end")]
	both = [edge("ask", "fix", meta={"outcome": "approved"}), edge("ask", "fix", "always", "ask-fix-r", meta={"outcome": "rejected"}), edge("ask", "out", "always", "never"), edge("fix", "ask")]
	assert [p.node_id for p in circles(approval, both, mode="Agentic")] == ["ask"]  # an approval routes itself, even in Agentic mode
