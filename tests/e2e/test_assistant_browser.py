"""The builder assistant in a real browser, against the scripted model server: a request typed in
the builder, its progress steps, the proposal marked on the canvas, accepted and undone; an agent
drafted and accepted into the form; Explain on a failed flow run."""

from __future__ import annotations

import json
import re

import frappe
import pytest
from playwright.sync_api import expect

from huf.ai.flow import api
from tests.e2e.test_accessibility import AXE, RUN_AXE
from tests.e2e.test_flows_spa import forget
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.scripted_llm import text, tool_calls

MANAGER = "assistant-e2e@huf.test"
FLOW = "e2e-assistant"
TOOL = "e2e_assistant_todo"


@pytest.fixture
def assistant(site, llm, web):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	model = fixtures.model(fixtures.provider(llm))
	fixtures.tool(TOOL, "Create Document", "ToDo")
	frappe.db.set_single_value("Agent Settings", "assistant_model", model)
	forget(FLOW)
	nodes = [
		{"id": "hook", "type": "trigger.webhook", "position": {"x": 40, "y": 200}, "data": {"label": "New lead", "config": {"secret": "e2e-assistant-secret"}}},
		{"id": "done", "type": "end", "position": {"x": 340, "y": 200}, "data": {"label": "Done", "config": {}}},
	]
	api.save_flow_definition(FLOW, {"id": FLOW, "nodes": nodes, "edges": [{"id": "e0", "source": "hook", "target": "done", "type": "always"}]}, flow_name="Assistant", status="Draft")
	frappe.db.commit()
	yield llm
	frappe.db.set_single_value("Agent Settings", "assistant_model", None)
	forget(FLOW)
	frappe.delete_doc("Agent Tool Function", TOOL, force=True)
	frappe.db.commit()


PROPOSAL = {
	"summary": "Makes a to-do for each new lead before the end.",
	"add_steps": [{"id": "tool_call_1", "type": "tool.call", "label": "Make a to-do", "config": {"tool": TOOL, "arguments": {"description": "Call {{ trigger.name }}"}}}],
	"remove_edges": ["e0"],
	"add_edges": [{"source": "hook", "target": "tool_call_1"}, {"source": "tool_call_1", "target": "done"}],
}


def test_a_request_in_the_builder_streams_its_steps_and_its_proposal_is_accepted_and_undone(assistant, signed_in):
	assistant.script(tool_calls([("c1", "list_tools", "{}")]), text(json.dumps(PROPOSAL), delay=0.05))
	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1600, "height": 1000})
	page.goto(f"/huf/flows/{FLOW}")
	expect(page.get_by_test_id("canvas-step")).to_have_count(2)
	page.get_by_role("button", name="Ask the assistant").click()
	panel = page.get_by_role("region", name="Ask the assistant")
	panel.get_by_label("What should this flow do?").fill("Make a to-do for each new lead")
	panel.get_by_role("button", name="Ask").click()

	steps = panel.get_by_role("list", name="What the assistant is doing")
	expect(steps).to_contain_text("Reading your request")
	expect(steps).to_contain_text("Reading the tools")
	expect(steps).to_contain_text("Checking")
	expect(panel.get_by_test_id("assistant-proposal")).to_contain_text("Shown on the canvas: 1 new step")
	expect(page.locator('[data-testid="canvas-step"][data-mark="new"]')).to_have_count(1)
	expect(panel.get_by_role("list", name="Earlier answers")).to_contain_text("tokens")
	page.add_script_tag(path=str(AXE))  # the panel and the marked proposal: no serious or critical violations
	assert page.evaluate(RUN_AXE) == []

	panel.get_by_role("button", name="Accept").click()
	expect(page.get_by_test_id("canvas-step")).to_have_count(3)
	expect(page.locator("[data-mark]")).to_have_count(0)
	expect(page.get_by_text("Unsaved changes")).to_be_visible()
	page.locator(".react-flow__pane").click(position={"x": 8, "y": 8})
	page.keyboard.press("Control+z")
	expect(page.get_by_test_id("canvas-step")).to_have_count(2)
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)


def test_an_agent_drafted_by_the_assistant_is_accepted_into_the_form(assistant, signed_in):
	agent = fixtures.agent(assistant, name="E2E Assistant Agent")
	drafted = {"agent_name": agent, "instructions": "Make a to-do for every lead you are given.", "model": "scripted-model", "tools": [TOOL]}
	assistant.script(text(json.dumps(drafted)))
	page = signed_in(MANAGER)
	page.goto(f"/huf/agents/{agent}")
	page.get_by_role("button", name="Draft with the assistant").click()
	page.get_by_label("What should this agent do?").fill("An agent that makes to-dos for leads")
	page.get_by_role("button", name="Draft", exact=True).click()
	expect(page.get_by_test_id("agent-draft")).to_contain_text(f"adds {TOOL}")
	page.get_by_test_id("agent-draft").get_by_role("button", name="Accept").click()
	expect(page.get_by_label("What the agent should do")).to_have_value("Make a to-do for every lead you are given.")
	expect(page.get_by_text("Unsaved changes")).to_be_visible()


def test_explain_on_a_failed_flow_run_names_the_step_to_fix(assistant, signed_in):
	run = frappe.get_doc(
		{
			"doctype": "Flow Run", "flow_definition": FLOW, "flow_id": FLOW, "status": "Failed", "user": MANAGER, "last_error": "Description is required",
			"steps": [{"hop": 1, "node_id": "hook", "node_label": "New lead", "node_type": "trigger.webhook", "status": "Failed", "error": "Description is required"}],
		}
	).insert(ignore_permissions=True)  # fmt: skip
	frappe.db.commit()
	assistant.script(text(json.dumps({"what_went_wrong": "The to-do had no description.", "what_to_change": "Fill in its description.", "step": "hook"})))
	page = signed_in(MANAGER)
	page.goto(f"/huf/flows/runs/{run.name}")
	page.get_by_role("button", name="Explain").click()
	explanation = page.get_by_test_id("explanation")
	expect(explanation).to_contain_text("The to-do had no description.")
	expect(explanation).to_contain_text("Step to fix: New lead")
	page.get_by_role("link", name="open it in the flow").click()
	expect(page.locator('.react-flow__node[data-id="hook"]')).to_have_class(re.compile(r"\bselected\b"))
