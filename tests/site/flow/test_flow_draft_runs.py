"""Test runs of a draft (``huf.ai.flow.api.run_flow_draft``): the builder's unsaved graph, checked as a
save checks it, kept on the run and followed by its real worker; triggers never start one; only
those who may change the flow start one; a graph that cannot run is refused with nothing written."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.flow import api, runs
from huf.ai.flow.triggered import start_triggered
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.site.flow_helpers import OTHER, edge, node, save, settle, steps, users

FLOW = "huf-test-draft-runs"
MANAGER = "flow-draft-manager@example.com"


def graph(template: str, label: str = "Shape", tool: str | None = None) -> dict:
	shape = node("shape", "transform", mode="template", template=template, key="letter")
	shape["data"]["label"] = label
	nodes = [node("start", "trigger.schedule"), shape, node("done", "end", output="{{ letter }}")]
	edges = [edge("start", "shape"), edge("shape", "done")]
	if tool:
		nodes.insert(2, node("make", "tool.call", tool=tool, arguments={"data": {"description": "{{ letter }}", "allocated_to": MANAGER}}))
		edges = [edge("start", "shape"), edge("shape", "make"), edge("make", "done")]
	return {"schema_version": 1, "nodes": nodes, "edges": edges}


@pytest.fixture
def flow(site, workers):
	users()
	make_user(MANAGER, ["Huf Manager", "Huf User"])
	workers.start(1)
	saved = graph("old {{ trigger.who }}")
	return save(FLOW, saved["nodes"], saved["edges"])


def run_count() -> int:
	return frappe.db.count("Flow Run", {"flow_definition": FLOW})


def test_a_draft_run_follows_the_unsaved_graph_and_records_what_a_tool_was_sent(flow):
	tool = fixtures.tool("flow_draft_make_todo", "Create Document", "ToDo")
	draft = graph("new {{ trigger.who }}", label="Shape the letter", tool=tool)
	with as_user(MANAGER):
		answer = api.run_flow_draft(flow, json.dumps(draft), {"who": "Ada"})
	frappe.db.commit()
	assert answer["is_test"] == 1
	run = settle(answer["flow_run"])
	assert run.status == "Success", run.last_error
	assert run.is_test == 1 and run.trigger_type == "Manual"
	assert [s for s, _ in steps(run.name)] == ["start", "shape", "make", "done"]
	assert json.loads(run.context_json)["letter"] == "new Ada"  # the draft's template, not the saved one
	assert frappe.db.get_value("Flow Run Step", {"parent": run.name, "node_id": "shape"}, "node_label") == "Shape the letter"
	sent = json.loads(frappe.db.get_value("Flow Run Step", {"parent": run.name, "node_id": "make"}, "input"))
	assert sent == {"data": {"description": "new Ada", "allocated_to": MANAGER}}  # what the tool got, not the step before's output
	# the flow itself is as it was saved: same version, no new version kept
	assert frappe.db.get_value("Flow Definition", flow, "version") == 1
	assert frappe.db.count("Flow Definition Version", {"flow_definition": flow}) == 1
	with as_user(MANAGER):
		shown = api.get_flow_run(run.name)
		listed = api.list_flow_runs(flow)
	assert shown["is_test"] == 1 and shown["definition"]["nodes"][1]["data"]["label"] == "Shape the letter"
	assert [row.is_test for row in listed if row.name == run.name] == [1]


def test_a_trigger_never_starts_a_draft(flow):
	with as_user(MANAGER):
		api.run_flow_draft(flow, graph("new {{ trigger.who }}"), {"who": "Ada"})
	frappe.db.commit()
	triggered = settle(start_triggered(flow, {"who": "Bo"}, MANAGER, "Schedule"))
	frappe.db.commit()
	assert triggered.status == "Success", triggered.last_error
	assert not triggered.is_test and not triggered.definition_json
	assert json.loads(triggered.context_json)["letter"] == "old Bo"  # the saved version, not the last draft
	before = run_count()
	with pytest.raises(frappe.ValidationError, match="never by a trigger"):
		runs.start_run(flow, {}, MANAGER, "Schedule", draft=graph("x"))
	assert run_count() == before


def test_someone_who_may_not_change_the_flow_gets_403(flow, web):
	before = run_count()
	session, token = web.login(OTHER)
	answer = session.post(
		web.base + "/api/method/huf.ai.flow.api.run_flow_draft",
		json={"flow_id": flow, "definition": graph("stolen {{ trigger.who }}"), "payload": {"who": "Eve"}},
		headers={"X-Frappe-CSRF-Token": token},
		timeout=30,
	)
	assert answer.status_code == 403, answer.text
	frappe.db.rollback()
	assert run_count() == before


@pytest.mark.parametrize(
	("definition", "payload", "says"),
	[
		("{not json", None, "not valid JSON"),
		(None, None, "Send the flow's steps"),
		({"schema_version": 1, "nodes": [node("start", "trigger.schedule")], "edges": [edge("start", "nowhere")]}, None, "nowhere"),
		(graph("fine"), [1, 2], "must be an object"),
	],
	ids=["not-json", "no-graph", "edge-to-nothing", "input-not-an-object"],
)
def test_a_malformed_draft_is_refused_with_nothing_written(flow, web, definition, payload, says):
	before = run_count()
	with as_user(MANAGER), pytest.raises(frappe.ValidationError, match=says):
		api.run_flow_draft(flow, definition, payload)
	frappe.db.rollback()
	assert run_count() == before
	assert frappe.db.get_value("Flow Definition", flow, "version") == 1
	session, token = web.login(MANAGER)
	answer = session.post(
		web.base + "/api/method/huf.ai.flow.api.run_flow_draft",
		json={"flow_id": flow, "definition": definition, "payload": payload},
		headers={"X-Frappe-CSRF-Token": token},
		timeout=30,
	)
	assert answer.status_code == 417 and says in answer.text, answer.text  # a refusal a person can act on
	frappe.db.rollback()
	assert run_count() == before
