"""Flow Definitions on a real site: the whole graph checked on save with each problem named by its
node, a version per changed graph kept for the runs that follow it, and who may read or change them
(through the reference's endpoints, over HTTP)."""

from __future__ import annotations

import copy

import frappe
import pytest

from huf.ai.flow import api, definitions
from tests.site import fixtures
from tests.site.conftest import as_user, make_user

FLOW = "huf-test-leads"


def graph(agent: str, **extra) -> dict:
	"""Trigger -> score with an agent -> hot leads to a condition -> end."""
	return {
		"schema_version": 1,
		"nodes": [
			{"id": "start", "type": "trigger.webhook", "data": {"label": "New lead", "config": {"secret": "s3cret-hook"}}},
			{"id": "score", "type": "agent.run", "data": {"label": "Score lead", "config": {"agent": agent, "prompt": "Score {{ trigger.lead }}"}}},
			{"id": "hot", "type": "condition", "data": {"label": "Is it hot?", "config": {"expression": "nodes.score.output == 'hot'"}}},
			{"id": "done", "type": "end", "data": {"label": "Done", "config": {}}},
		],
		"edges": [
			{"id": "e1", "source": "start", "target": "score", "type": "always"},
			{"id": "e2", "source": "score", "target": "hot", "type": "on_success"},
			{"id": "e3", "source": "hot", "target": "done", "type": "always"},
		],
		**extra,
	}


@pytest.fixture
def agent(site, llm):
	return fixtures.agent(llm, name="Flow Scoring Agent")


@pytest.fixture
def fresh(site):
	if frappe.db.exists("Flow Definition", FLOW):
		frappe.db.delete("Flow Run", {"flow_definition": FLOW})
		frappe.delete_doc("Flow Definition", FLOW, force=True)
	yield FLOW


def test_a_changed_graph_is_a_new_version_and_the_old_one_is_kept(agent, fresh):
	first = api.save_flow_definition(fresh, graph(agent), flow_name="Qualify leads", note="First cut")
	assert (first["version"], first["definition"]["id"], first["status"]) == (1, fresh, "Draft")
	again = api.save_flow_definition(fresh, graph(agent), note="Nothing changed")
	assert again["version"] == 1  # the same graph is not a new version
	changed = graph(agent)
	changed["nodes"][1]["data"]["config"]["prompt"] = "Score this lead: {{ trigger.lead }}"
	second = api.save_flow_definition(fresh, changed, status="Active", note="Clearer prompt")
	assert (second["version"], second["status"]) == (2, "Active")
	kept = frappe.get_all("Flow Definition Version", {"flow_definition": fresh}, ["version", "note", "saved_by"], order_by="version")
	assert [(k.version, k.note) for k in kept] == [(1, "First cut"), (2, "Clearer prompt")]
	assert definitions.definition_at(fresh, 1)["nodes"][1]["data"]["config"]["prompt"] == "Score {{ trigger.lead }}"
	assert api.get_flow_definition(fresh, version=1)["definition"]["nodes"][1]["data"]["config"]["prompt"] == "Score {{ trigger.lead }}"
	assert api.get_flow_definition(fresh)["version"] == 2


def test_every_problem_is_named_by_its_node_and_nothing_is_saved(agent, fresh):
	broken = graph(agent)
	broken["nodes"][1]["data"]["config"]["agent"] = "No Such Agent"
	broken["nodes"].append({"id": "odd", "type": "code", "data": {"label": "Run code", "config": {}}})
	broken["edges"].append({"id": "e4", "source": "hot", "target": "nowhere", "type": "always"})
	broken["edges"].append({"id": "e5", "source": "score", "target": "done", "type": "expression"})
	with pytest.raises(frappe.ValidationError) as raised:
		api.save_flow_definition(fresh, broken)
	message = str(raised.value)
	assert "Score lead (score)" in message and "No Such Agent" in message
	assert "Run code (odd)" in message
	assert "nowhere" in message and "e5" in message
	assert not frappe.db.exists("Flow Definition", fresh)
	assert not frappe.db.exists("Flow Definition Version", {"flow_definition": fresh})


def test_the_graphs_id_is_the_flow_id(agent, fresh):
	with pytest.raises(frappe.ValidationError, match="must be the same"):
		api.save_flow_definition(fresh, graph(agent, id="another-flow"))
	with pytest.raises(frappe.ValidationError, match="lower-case letters, digits and dashes"):
		api.save_flow_definition("Leads Flow!", graph(agent))
	with pytest.raises(frappe.ValidationError, match="not valid JSON"):
		api.save_flow_definition(fresh, "{nodes: [")


def test_a_draft_may_start_empty_but_an_active_flow_needs_its_graph(fresh):
	assert api.save_flow_definition(fresh, {}, flow_name="Empty for now")["version"] == 1
	with pytest.raises(frappe.ValidationError):
		api.save_flow_definition(fresh, status="Active")


def test_huf_users_read_flows_and_only_managers_change_them(agent, fresh, web):
	api.save_flow_definition(fresh, graph(agent), flow_name="Qualify leads")
	frappe.db.commit()
	reader = make_user("flow-reader@huf.test", ["Huf User"])
	manager = make_user("flow-manager@huf.test", ["Huf User", "Huf Manager"])
	read = web.get(f"/api/method/huf.ai.flow.api.get_flow_definition?flow_id={fresh}", web.token_headers(reader))
	assert read.ok and read.json()["message"]["definition"]["nodes"][0]["id"] == "start"
	changed = copy.deepcopy(graph(agent))
	changed["nodes"][3]["data"]["label"] = "Finished"
	refused = web.post("/api/method/huf.ai.flow.api.save_flow_definition", {"flow_id": fresh, "definition": frappe.as_json(changed)}, web.token_headers(reader))
	assert refused.status_code == 403
	created = web.post("/api/method/huf.ai.flow.api.save_flow_definition", {"flow_id": "huf-test-other", "definition": "{}"}, web.token_headers(reader))
	assert created.status_code == 403 and not frappe.db.exists("Flow Definition", "huf-test-other")
	saved = web.post("/api/method/huf.ai.flow.api.save_flow_definition", {"flow_id": fresh, "definition": frappe.as_json(changed)}, web.token_headers(manager))
	assert saved.ok and saved.json()["message"]["version"] == 2
	missing = web.get("/api/method/huf.ai.flow.api.get_flow_definition?flow_id=no-such-flow", web.token_headers(reader))
	assert missing.status_code == 404
	with as_user("Guest"), pytest.raises(frappe.PermissionError):
		api.get_flow_definition(fresh)


def test_deleting_a_flow_removes_its_versions(agent, fresh):
	api.save_flow_definition(fresh, graph(agent))
	frappe.delete_doc("Flow Definition", fresh)
	assert not frappe.db.exists("Flow Definition Version", {"flow_definition": fresh})


def test_a_webhook_secret_is_stored_encrypted_and_never_in_the_graph(agent, fresh):
	saved = api.save_flow_definition(fresh, graph(agent))
	assert saved["definition"]["nodes"][0]["data"]["config"]["secret"] == definitions.SECRET_MASK
	assert "s3cret-hook" not in frappe.db.get_value("Flow Definition", fresh, "definition_json")
	assert "s3cret-hook" not in str(frappe.get_all("Flow Definition Version", {"flow_definition": fresh}, ["definition_json"]))
	assert definitions.webhook_secret(fresh, "start") == "s3cret-hook"
	api.save_flow_definition(fresh, saved["definition"])  # sent back masked: the secret is kept
	assert definitions.webhook_secret(fresh, "start") == "s3cret-hook"
	frappe.delete_doc("Flow Definition", fresh)
	assert definitions.webhook_secret(fresh, "start") is None


def test_the_flow_list_shows_each_persons_own_last_run(agent, fresh):
	from huf.ai.flow import runs

	api.save_flow_definition(fresh, graph(agent), flow_name="Qualify leads", status="Active")
	reader = make_user("flow-reader@huf.test", ["Huf User"])
	other = make_user("flow-other-reader@huf.test", ["Huf User"])
	mine = runs.start_run(fresh, {"n": 1}, reader, "Manual")
	theirs = runs.start_run(fresh, {"n": 2}, other, "Manual")  # newer, but not the reader's to see
	frappe.db.commit()
	with as_user(reader):
		row = next(flow for flow in api.list_flows() if flow["flow_id"] == fresh)
	assert (row["flow_name"], row["status"], row["version"]) == ("Qualify leads", "Active", 1)
	assert row["last_run"]["name"] == mine and row["last_run"]["status"] == "Queued"
	with as_user(other):
		assert next(flow for flow in api.list_flows() if flow["flow_id"] == fresh)["last_run"]["name"] == theirs
	with as_user("Guest"), pytest.raises(frappe.PermissionError):
		api.list_flows()
