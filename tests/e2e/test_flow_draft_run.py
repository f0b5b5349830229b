"""A test run of a draft in a real browser: a manager edits a flow in the builder, runs the unsaved
steps as a test run and sees each step's input and output on the test run's canvas (the tool step's
input is what was sent to the tool), picks values by their steps' names with the last test run's
previews, then saves and activates the flow."""

from __future__ import annotations

import json

import frappe
from playwright.sync_api import expect

from huf.ai.flow import api
from tests.site import fixtures
from tests.site.conftest import as_user, make_user

MANAGER = "flow-draft-ui-manager@huf.test"
FLOW = "e2e-draft-run"


def node(id: str, type: str, label: str, **config) -> dict:
	return {"id": id, "type": type, "position": {"x": 0, "y": 0}, "data": {"label": label, "config": config}}


def make_flow(tool: str) -> None:
	if frappe.db.exists("Flow Definition", FLOW):
		runs = frappe.get_all("Flow Run", {"flow_definition": FLOW}, pluck="name")
		frappe.db.delete("Flow Run Step", {"parent": ["in", runs or [""]]})
		frappe.db.delete("Flow Run", {"flow_definition": FLOW})
		frappe.db.delete("Flow Definition Version", {"flow_definition": FLOW})
		frappe.delete_doc("Flow Definition", FLOW, force=True)
	graph = {
		"schema_version": 1,
		"nodes": [
			{**node("start", "trigger.schedule", "Every morning"), "position": {"x": 0, "y": 0}},
			{**node("shape", "transform", "Write the letter", mode="template", template="Hello {{ trigger.who }}", key="letter"), "position": {"x": 300, "y": 0}},
			{**node("make", "tool.call", "Make a to-do", tool=tool, arguments={"data": {"description": "{{ letter }}", "allocated_to": MANAGER}}), "position": {"x": 600, "y": 0}},
			{**node("done", "end", "Done", output="{{ letter }}"), "position": {"x": 900, "y": 0}},
		],
		"edges": [
			{"id": "e1", "source": "start", "target": "shape", "type": "always"},
			{"id": "e2", "source": "shape", "target": "make", "type": "always"},
			{"id": "e3", "source": "make", "target": "done", "type": "always"},
		],
	}
	with as_user(MANAGER):
		api.save_flow_definition(FLOW, graph, flow_name="E2E Draft Run", status="Draft")
	frappe.db.commit()


def builder_step(page, node_id: str):
	return page.locator(f'.react-flow__node[data-id="{node_id}"]').first


def test_a_manager_test_runs_unsaved_changes_sees_each_step_on_the_canvas_then_activates(site, web, workers, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	tool = fixtures.tool("e2e_draft_make_todo", "Create Document", "ToDo")
	make_flow(tool)
	workers.start(1)

	page = signed_in(MANAGER)
	page.goto(f"/huf/flows/{FLOW}")
	expect(page.get_by_test_id("canvas-step")).to_have_count(4)

	# an unsaved change: the step's new name and text
	builder_step(page, "shape").click()
	panel = page.get_by_role("region", name="Settings")
	panel.get_by_label("Name").fill("Write the greeting")
	panel.get_by_label("Text").fill("Good morning {{ trigger.who }}")

	page.get_by_role("button", name="Run", exact=True).click()
	dialog = page.get_by_role("dialog")
	expect(dialog.get_by_role("radio", name="Run this draft")).to_be_checked()
	dialog.get_by_label("Input (optional)").fill(json.dumps({"who": "Ada"}))
	dialog.get_by_role("button", name="Start test run").click()
	expect(dialog).to_have_count(0)
	expect(page.get_by_role("alertdialog")).to_have_count(0)  # no "unsaved changes" prompt: we stayed in the builder

	test_run = page.get_by_test_id("test-run")
	expect(test_run.get_by_test_id("test-run-mark")).to_be_visible()
	on_canvas = lambda node_id: test_run.locator(f'.react-flow__node[data-id="{node_id}"]')  # noqa: E731
	expect(on_canvas("done").get_by_test_id("canvas-step")).to_have_attribute("data-state", "succeeded", timeout=60_000)
	expect(on_canvas("shape")).to_contain_text("Write the greeting")  # the draft's name, not the saved one
	expect(on_canvas("shape").get_by_test_id("peek-in")).to_contain_text('"who":"Ada"')
	expect(on_canvas("shape").get_by_test_id("peek-out")).to_contain_text("Good morning Ada")
	expect(on_canvas("make").get_by_test_id("peek-in")).to_contain_text('{"data":{"description":"Good morning Ada"')  # what the tool got
	on_canvas("make").click()
	details = test_run.get_by_test_id("step-details")
	expect(details.get_by_text("What was sent")).to_be_visible()
	expect(details).to_contain_text('"description": "Good morning Ada"')

	frappe.db.rollback()  # a fresh snapshot: what the worker committed
	run = frappe.get_all("Flow Run", {"flow_definition": FLOW}, ["name", "is_test", "status", "flow_version"])
	assert [(r.is_test, r.status, r.flow_version) for r in run] == [(1, "Success", 1)]
	assert frappe.db.get_value("Flow Definition", FLOW, "version") == 1  # nothing was saved by the test run

	# values by name, with the last test run's values
	builder_step(page, "done").click()
	expect(panel.get_by_role("button", name='Insert Write the greeting › letter "Good morning Ada"')).to_be_visible()
	expect(panel.get_by_role("button", name='Insert letter (Write the greeting) "Good morning Ada"')).to_be_visible()
	result = panel.get_by_label("Result (optional)")
	result.fill("")
	panel.get_by_role("button", name='Insert Run input {"who":"Ada"}', exact=True).first.click()  # the Result field's picker comes first
	expect(result).to_have_value("{{ trigger }}")
	expect(panel.get_by_test_id("computed-value")).to_have_text("With the last test run's values: " + json.dumps({"who": "Ada"}, separators=(",", ":")))

	# the runs list marks it a test run
	expect(page.get_by_role("region", name="Runs").or_(page.locator("section[aria-labelledby=runs-title]")).get_by_test_id("test-run-mark")).to_be_visible()

	page.get_by_label("What changed (optional)").fill("Greeting tested")
	page.get_by_role("button", name="Save", exact=True).click()
	expect(page.get_by_role("button", name="Activate")).to_be_enabled()  # saved: nothing unsaved holds it back
	page.get_by_role("button", name="Activate").click()
	expect(page.get_by_test_id("flow-status")).to_have_text("Active")
	frappe.db.rollback()
	assert frappe.db.get_value("Flow Definition", FLOW, ["status", "version"]) == ("Active", 2)
