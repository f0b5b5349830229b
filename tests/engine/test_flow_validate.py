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
