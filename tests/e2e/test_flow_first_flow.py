"""A newcomer's first flow in a real browser (issue 27), as one story: a new, empty flow is built
only with the palette's first step and the "+" after each step (the step picker), its values put in
by their steps' names with the insert picker; the unsaved draft runs as a test run with each step's
input and output on the test run's canvas (the tool step's input is what was sent to the tool); the
insert picker then previews the test run's values and a field shows what it would give; the flow is
saved, activated, and its active version runs to the end."""

from __future__ import annotations

import json
import re

import frappe
from playwright.sync_api import expect

from tests.e2e.test_flow_builder import empty_flow
from tests.e2e.test_flow_builder_canvas import add_after
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.scripted_llm import text

MANAGER = "first-flow-manager@huf.test"
FLOW = "e2e-first-flow"
AGENT = "E2E First Flow Greeter"
ANSWER = "Good morning, Ada!"


def field_of(panel, label: str):
	"""A setting's field and what goes with it (its insert picker, its computed value)."""
	return panel.get_by_label(label, exact=True).locator("xpath=..")


def test_a_first_flow_built_with_plus_and_names_test_run_on_the_canvas_then_activated_and_run(site, web, workers, llm, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	fixtures.agent(llm, name=AGENT)
	tool = fixtures.tool("e2e_first_flow_todo", "Create Document", "ToDo")
	empty_flow(FLOW, "E2E First Flow")
	frappe.db.commit()
	workers.start(1)
	llm.script(text(ANSWER), text(ANSWER))  # the test run's agent step, then the active version's

	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1440, "height": 900})
	page.goto(f"/huf/flows/{FLOW}")
	expect(page.get_by_text("Start with what starts the flow")).to_be_visible()
	page.get_by_role("navigation", name="Steps you can add").get_by_role("button", name=re.compile("^Add step: Schedule")).click()
	panel = page.get_by_role("region", name="Settings")

	# "+" after the trigger: an agent, named as the person likes, asked about the run's input by name
	add_after(page, "Add a step after Schedule", "agent", "Ask an agent")
	panel.get_by_label("Name", exact=True).fill("Greet the person")
	panel.get_by_label("Agent", exact=True).select_option(AGENT)
	panel.get_by_label("Instructions", exact=True).fill("Write a one-line greeting for ")
	field_of(panel, "Instructions").get_by_role("button", name="Insert Run input", exact=True).click()
	expect(panel.get_by_label("Instructions", exact=True)).to_have_value("Write a one-line greeting for {{ trigger }}")

	# "+" after the agent: a record tool, which offers the record's fields; the description is the agent's answer, by its step's name
	add_after(page, "Add a step after Greet the person", "tool", "Use a tool")
	panel.get_by_label("Tool", exact=True).select_option(tool)
	expect(panel.get_by_text("This tool does not list its inputs")).to_have_count(0)
	description = panel.get_by_label(re.compile(r"^Description"))
	expect(description).to_be_visible()
	description.locator("xpath=..").get_by_role("button", name="Insert Greet the person", exact=True).click()
	expect(description).to_have_value("{{ nodes.agent_run_1 }}")
	panel.get_by_label(re.compile(r"^Allocated To")).fill(MANAGER)  # a to-do its maker may see: given to them

	# "+" after the tool: the finish, whose result is the agent's answer again
	add_after(page, "Add a step after Use a tool", "finish", "Finish")
	field_of(panel, "Result (optional)").get_by_role("button", name="Insert Greet the person", exact=True).click()
	expect(panel.get_by_label("Result (optional)")).to_have_value("{{ nodes.agent_run_1 }}")
	expect(page.get_by_test_id("canvas-step")).to_have_count(4)
	expect(page.get_by_test_id("canvas-link")).to_have_count(3)
	labels = page.locator(".react-flow__edge").evaluate_all("(edges) => edges.map((edge) => edge.getAttribute('aria-label'))")
	assert sorted(labels) == sorted(["From Schedule to Greet the person", "From Greet the person to Use a tool", "From Use a tool to Finish"]), labels

	# Run: this draft (never saved), with an input; the builder stays, with no "unsaved changes" prompt
	page.get_by_role("button", name="Run", exact=True).click()
	dialog = page.get_by_role("dialog")
	expect(dialog.get_by_role("radio", name="Run this draft")).to_be_checked()
	dialog.get_by_label("Input (optional)").fill(json.dumps({"who": "Ada"}))
	dialog.get_by_role("button", name="Start test run").click()
	expect(dialog).to_have_count(0)
	expect(page.get_by_role("alertdialog")).to_have_count(0)

	test_run = page.get_by_test_id("test-run")
	expect(test_run.get_by_test_id("test-run-mark")).to_be_visible()
	on_canvas = lambda node_id: test_run.locator(f'.react-flow__node[data-id="{node_id}"]')  # noqa: E731
	expect(on_canvas("end_1").get_by_test_id("canvas-step")).to_have_attribute("data-state", "succeeded", timeout=60_000)
	for node_id in ("schedule_1", "agent_run_1", "tool_call_1"):
		expect(on_canvas(node_id).get_by_test_id("canvas-step")).to_have_attribute("data-state", "succeeded")
	expect(on_canvas("agent_run_1").get_by_test_id("peek-in")).to_contain_text("Write a one-line greeting for")
	expect(on_canvas("agent_run_1").get_by_test_id("peek-in")).to_contain_text("Ada")
	expect(on_canvas("agent_run_1").get_by_test_id("peek-out")).to_contain_text(ANSWER)
	expect(on_canvas("tool_call_1").get_by_test_id("peek-in")).to_contain_text(f'"description":"{ANSWER}"')  # what the tool got
	expect(on_canvas("end_1").get_by_test_id("peek-out")).to_contain_text(ANSWER)
	on_canvas("tool_call_1").click()
	details = test_run.get_by_test_id("step-details")
	expect(details.get_by_text("What was sent")).to_be_visible()
	expect(details).to_contain_text(f'"description": "{ANSWER}"')

	frappe.db.rollback()  # a fresh snapshot: what the worker committed
	runs = frappe.get_all("Flow Run", {"flow_definition": FLOW}, ["is_test", "status"])
	assert [(r.is_test, r.status) for r in runs] == [(1, "Success")]
	assert frappe.db.get_value("Flow Definition", FLOW, "version") == 1  # the test run saved nothing
	assert frappe.db.get_value("ToDo", {"description": ["like", f"%{ANSWER}%"], "allocated_to": MANAGER}, "owner") == MANAGER

	# the insert picker now previews what each step held in that run; a field shows what it gives
	page.locator('[data-testid="builder"] .react-flow__node[data-id="end_1"]').click()
	result = panel.get_by_label("Result (optional)")
	picker = field_of(panel, "Result (optional)")
	expect(picker.get_by_role("button", name=f'Insert Greet the person "{ANSWER}"', exact=True)).to_be_visible()
	result.fill("")
	picker.get_by_role("button", name=f'Insert Greet the person "{ANSWER}"', exact=True).click()
	expect(result).to_have_value("{{ nodes.agent_run_1 }}")
	expect(picker.get_by_test_id("computed-value")).to_contain_text(ANSWER)

	expect(page.get_by_role("region", name="Runs").get_by_test_id("test-run-mark")).to_be_visible()  # the runs list marks it a test run

	# saved, activated, and the active version runs to the end on its own page
	page.get_by_label("What changed (optional)").fill("My first flow")
	page.get_by_role("button", name="Save", exact=True).click()
	expect(page.get_by_text("Unsaved changes", exact=True)).to_have_count(0)
	page.get_by_role("button", name="Activate", exact=True).click()
	expect(page.get_by_test_id("flow-status")).to_have_text("Active")
	page.get_by_role("button", name="Run", exact=True).click()
	dialog = page.get_by_role("dialog")
	expect(dialog.get_by_role("radio", name="Run the active version")).to_be_checked()
	dialog.get_by_role("button", name="Start run").click()
	expect(page).to_have_url(re.compile(r"/huf/flows/runs/"))
	heading = page.locator("header").filter(has=page.get_by_role("heading", name="Run of E2E First Flow"))
	expect(heading).to_contain_text("Success", timeout=60_000)
	expect(heading.get_by_test_id("test-run-mark")).to_have_count(0)

	frappe.db.rollback()
	assert frappe.db.get_value("Flow Definition", FLOW, ["status", "version"]) == ("Active", 2)
	runs = frappe.get_all("Flow Run", {"flow_definition": FLOW}, ["is_test", "status", "flow_version"], order_by="creation")
	assert [(r.is_test, r.status, r.flow_version) for r in runs] == [(1, "Success", 1), (0, "Success", 2)], runs
