"""The flow builder in a real browser against the real site: a manager draws "new lead -> enrich ->
score with an agent -> ask a manager -> create the opportunity in a CRM over the web" on an empty canvas with the mouse,
saves it, finds it identical after a reload, runs it against the scripted model, the approver
approves it in their inbox, and the run's canvas ends green. A two-step flow is built with the
keyboard alone."""

from __future__ import annotations

import json
import os
import re

import frappe
from playwright.sync_api import expect

from huf.ai.flow import api
from tests.e2e.test_flows_spa import activate_and_run, drawn_off, forget
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.site.flow_helpers import settle
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import text

MANAGER = "builder-manager@huf.test"
APPROVER = "builder-approver@huf.test"
FLOW = "e2e-lead-flow"
KEYBOARD_FLOW = "e2e-keyboard-flow"
SCREENSHOTS = os.environ.get("HUF_SCREENSHOTS")  # a folder: the README's pictures of the builder are taken here


def picture(page, name: str) -> None:
	if SCREENSHOTS:
		page.screenshot(path=os.path.join(SCREENSHOTS, name))


def empty_flow(flow_id: str, name: str) -> None:
	forget(flow_id)
	api.save_flow_definition(flow_id, {"id": flow_id, "nodes": [], "edges": []}, flow_name=name, status="Draft")
	frappe.db.commit()


def saved(flow_id: str) -> dict:
	frappe.db.rollback()  # see what the web server committed
	return json.loads(frappe.db.get_value("Flow Definition", flow_id, "definition_json"))


def drop(page, kind: str, x: int, y: int) -> None:
	page.get_by_test_id(f"palette-{kind}").drag_to(page.locator(".react-flow__pane"), target_position={"x": x, "y": y})


def step(page, node_id: str):
	return page.locator(f'.react-flow__node[data-id="{node_id}"]')


def wire(page, source: str, target: str, outcome: str | None = None) -> None:
	"""Draw a connection with the mouse: press on the way out, let go on the way in."""
	handle = f'.react-flow__handle[data-handleid="{outcome}"]' if outcome else ".react-flow__handle.source"
	start = step(page, source).locator(handle).bounding_box()
	end = step(page, target).locator(".react-flow__handle.target").bounding_box()
	page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
	page.mouse.down()
	page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
	page.mouse.up()


def open_settings(page, node_id: str):
	step(page, node_id).click()
	return page.get_by_role("region", name="Settings")


def test_a_manager_draws_saves_and_runs_the_lead_flow_and_the_approver_approves(site, web, workers, llm, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	make_user(APPROVER, ["Huf User"])
	scorer = fixtures.agent(llm, name="E2E Lead Scorer")
	fixtures.allowed_hosts("127.0.0.1")
	empty_flow(FLOW, "E2E Lead Flow")
	workers.start(1)

	with LocalServer() as enrich:
		page = signed_in(MANAGER)
		page.set_viewport_size({"width": 1600, "height": 1000})
		page.goto(f"/huf/flows/{FLOW}")
		expect(page.get_by_text("Start with what starts the flow")).to_be_visible()

		for kind, x, y in (("trigger.webhook", 125, 80), ("http_request", 380, 80), ("agent.run", 635, 80), ("human.approval", 250, 320), ("http_request", 520, 320)):
			drop(page, kind, x, y)
		expect(page.get_by_test_id("canvas-step")).to_have_count(5)
		wire(page, "webhook_1", "http_request_1")
		wire(page, "http_request_1", "agent_run_1")
		wire(page, "agent_run_1", "human_approval_1")
		wire(page, "human_approval_1", "http_request_2", outcome="approved")
		expect(page.get_by_test_id("canvas-link")).to_have_count(4)

		panel = open_settings(page, "webhook_1")
		panel.get_by_label("Name").fill("New lead")
		panel.get_by_label("Secret").fill("e2e-lead-secret")  # a web request without one is never activated
		panel = open_settings(page, "http_request_1")
		panel.get_by_label("Name").fill("Enrich")
		panel.get_by_label("Web address").fill(enrich.url("/lead"))
		panel = open_settings(page, "agent_run_1")
		panel.get_by_label("Name").fill("Score")
		panel.get_by_label("Agent").select_option(scorer)
		panel.get_by_label("Instructions").fill("Score this lead from 0 to 100: {{ trigger.lead }}")
		panel = open_settings(page, "human_approval_1")
		panel.get_by_label("Name").fill("Ask a manager")
		panel.get_by_label("Find a person").fill(APPROVER)
		panel.get_by_role("button", name=re.compile(f"Add .*{re.escape(APPROVER)}")).click()
		panel.get_by_label("Message").fill("Create the opportunity for {{ trigger.lead }}? Score {{ nodes.agent_run_1 }}")
		panel = open_settings(page, "http_request_2")
		panel.get_by_label("Name").fill("Create opportunity")
		panel.get_by_label("Method").select_option("POST")
		panel.get_by_label("Web address").fill(enrich.url("/opportunities"))
		panel.get_by_label("Body").fill('{"name": "Opportunity: {{ trigger.lead }}", "score": "{{ nodes.agent_run_1 }}"}')
		expect(step(page, "http_request_2").get_by_text("problem")).to_have_count(0)

		page.get_by_label("What changed (optional)").fill("Drew the lead flow")
		page.get_by_role("button", name="Save", exact=True).click()
		expect(page.get_by_text("Unsaved changes")).to_have_count(0)
		first = saved(FLOW)
		assert [node["type"] for node in first["nodes"]] == ["trigger.webhook", "http_request", "agent.run", "human.approval", "http_request"]
		assert [(e["source"], e["target"], e.get("sourceHandle")) for e in first["edges"]] == [
			("webhook_1", "http_request_1", None),
			("http_request_1", "agent_run_1", None),
			("agent_run_1", "human_approval_1", None),
			("human_approval_1", "http_request_2", "approved"),
		]
		assert first["nodes"][3]["data"]["config"]["users"] == [APPROVER]
		assert first["nodes"][4]["data"]["config"]["body"] == {"name": "Opportunity: {{ trigger.lead }}", "score": "{{ nodes.agent_run_1 }}"}
		assert frappe.db.get_value("Flow Definition Version", {"flow_definition": FLOW, "version": 2}, "note") == "Drew the lead flow"

		page.reload()
		expect(page.get_by_test_id("canvas-step")).to_have_count(5)
		expect(page.get_by_test_id("canvas-link")).to_have_count(4)
		for node in first["nodes"]:
			box = step(page, node["id"])
			expect(box).to_contain_text(node["data"]["label"])
		assert open_settings(page, "agent_run_1").get_by_label("Instructions").input_value() == "Score this lead from 0 to 100: {{ trigger.lead }}"
		picture(page, "flow-builder.png")
		expect(page.get_by_text("Unsaved changes")).to_have_count(0)
		assert saved(FLOW) == first

		llm.script(text("85"))
		run = activate_and_run(page, '{"lead": "ACME"}')
		expect(step(page, "human_approval_1").get_by_test_id("canvas-step")).to_have_attribute("data-state", "waiting", timeout=60_000)
		for node_id in ("webhook_1", "http_request_1", "agent_run_1"):
			expect(step(page, node_id).get_by_test_id("canvas-step")).to_have_attribute("data-state", "succeeded")
		expect(page.locator(".huf-taken")).to_have_count(3)
		assert [(seen.method, seen.path) for seen in enrich.seen] == [("GET", "/lead")]

		inbox = signed_in(APPROVER)
		inbox.goto("/huf/flows/approvals")
		card = inbox.get_by_test_id("approval")
		expect(card).to_contain_text("Create the opportunity for ACME? Score 85")
		card.get_by_role("button", name="Approve").click()
		expect(inbox.get_by_text("Nothing is waiting for you")).to_be_visible()

		assert settle(run, timeout=60, statuses=("Success", "Failed")).status == "Success"
		for node_id in ("webhook_1", "http_request_1", "agent_run_1", "human_approval_1", "http_request_2"):
			expect(step(page, node_id).get_by_test_id("canvas-step")).to_have_attribute("data-state", "succeeded", timeout=30_000)
		expect(page.locator(".huf-taken")).to_have_count(4)
		step(page, "agent_run_1").click()
		details = page.get_by_test_id("step-details")
		expect(details).to_contain_text("85")
		expect(details.get_by_role("link", name="Open the agent's run")).to_be_visible()
		picture(page, "flow-run.png")
		assert [(seen.method, seen.path) for seen in enrich.seen][1:] == [("POST", "/opportunities")]
		assert json.loads(enrich.seen[1].body) == {"name": "Opportunity: ACME", "score": "85"}


# A connection's two ends, in the canvas's own coordinates (they do not change when the view moves).
ENDS = """(ids) => ids.map((id) => {
	const path = document.querySelector(`.react-flow__edge[data-id="${id}"] path.react-flow__edge-path`);
	if (!path) return null;
	const start = path.getPointAtLength(0), end = path.getPointAtLength(path.getTotalLength());
	return [start.x, start.y, end.x, end.y];
})"""


def test_every_kind_of_step_is_drawn_where_the_canvas_said_before_drawing_it(site, web, signed_in):
	"""The canvas tells React Flow each step's size and connection points before drawing it
	(sizes.ts): a big flow draws only the steps on screen, and a connection to a step off screen is
	drawn from those numbers. Once that step comes on screen and is measured, the connection must
	not move, for steps with one way out, two, three and none."""
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	forget("e2e-shapes")

	def at(id_: str, type_: str, x: int, y: int, **config) -> dict:
		return {"id": id_, "type": type_, "position": {"x": x, "y": y}, "data": {"label": id_.title(), "config": config}}

	near = [
		at("start", "trigger.webhook", 0, 0),
		at("check", "condition", 300, 0, expression="trigger.score > 5"),
		at("ask", "human.approval", 600, 0, approval_type="user", users=[MANAGER], message="Go on?"),
		at("each", "loop", 600, 260, items="trigger.items", max_iterations=10),
		at("fetch", "http_request", 300, 400, method="GET", url="https://example.com/"),
		at("done", "end", 1200, 0),
		at("late", "end", 1200, 200),
	]
	far = [
		at("far_check", "condition", 5000, 0, expression="trigger.score > 9"),
		at("far_ask", "human.approval", 5000, 300, approval_type="user", users=[MANAGER], message="Sure?"),
		at("far_end", "end", 5000, 600),
	]
	fillers = [at(f"fill{n}", "transform", 5400 + (n % 10) * 300, (n // 10) * 160, mode="map", mappings={f"v{n}": "trigger.score"}) for n in range(60)]
	links = [
		("start", None, "check"), ("check", "true", "ask"), ("check", "false", "each"), ("ask", "approved", "far_check"), ("ask", "rejected", "done"),
		("ask", "timeout", "late"), ("each", "body", "far_ask"), ("each", "done", "late"), ("fetch", None, "far_end"), ("far_check", "true", "fetch"),
		("far_check", "false", "done"), ("far_ask", "approved", "fill0"), ("far_ask", "rejected", "late"), ("far_ask", "timeout", "done"),
	] + [(f"fill{n}", None, f"fill{n + 1}") for n in range(59)] + [("fill59", None, "far_end")]
	edges = [{"id": f"{a}-{outcome or 'next'}-{b}", "source": a, "target": b, "type": "always", **({"sourceHandle": outcome} if outcome else {})} for a, outcome, b in links]
	api.save_flow_definition("e2e-shapes", {"id": "e2e-shapes", "nodes": near + far + fillers, "edges": edges}, flow_name="E2E Shapes", status="Draft")
	frappe.db.commit()

	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1600, "height": 1000})
	page.goto("/huf/flows/e2e-shapes")
	expect(page.get_by_test_id("step-list")).to_be_visible()  # the canvas has been drawn
	expect(step(page, "ask")).to_be_visible()
	expect(step(page, "far_check")).to_have_count(0)  # off screen: not drawn, only told
	shown = set(page.evaluate("() => [...document.querySelectorAll('.react-flow__node')].map((node) => node.dataset.id)"))
	across = [e["id"] for e in edges if (e["source"] in shown) != (e["target"] in shown)]  # one end drawn, the other only told
	assert {"ask-approved-far_check", "far_check-true-fetch"} <= set(across)
	told = page.evaluate(ENDS, across)
	assert None not in told, f"every connection to a step off screen is drawn: {dict(zip(across, told))}"
	assert drawn_off(page, [e for e in edges if e["source"] in shown and e["target"] in shown]) == []

	page.get_by_role("button", name="Fit the whole flow on screen").click()
	expect(step(page, "far_ask")).to_be_visible()
	page.wait_for_timeout(300)  # measured by React Flow as it came on screen
	measured = page.evaluate(ENDS, across)
	for id_, before, after in zip(across, told, measured):
		assert max(abs(a - b) for a, b in zip(before, after)) < 1.5, f"{id_} moved from {before} to {after} once both its steps were measured"
	assert drawn_off(page, edges) == []


def test_a_dragged_step_moves_with_the_mouse_and_the_drag_undoes_at_once(site, web, signed_in):
	"""While a step is dragged only the canvas follows the mouse (the builder takes the step's place
	when it is dropped, useEditor): the step and its connection move on every move and never jump
	back, the drop is one change to save, and Undo puts the step back where it was, with the
	keyboard's focus kept in the builder for Redo."""
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	forget("e2e-drag")
	api.save_flow_definition(
		"e2e-drag",
		{
			"id": "e2e-drag",
			"nodes": [
				{"id": "start", "type": "trigger.webhook", "position": {"x": 0, "y": 0}, "data": {"label": "Start", "config": {}}},
				{"id": "done", "type": "end", "position": {"x": 300, "y": 0}, "data": {"label": "Done", "config": {}}},
			],
			"edges": [{"id": "start-done", "source": "start", "target": "done", "type": "always"}],
		},
		flow_name="E2E Drag",
		status="Draft",
	)
	frappe.db.commit()
	page = signed_in(MANAGER)
	page.goto("/huf/flows/e2e-drag")
	expect(page.get_by_test_id("step-list")).to_be_visible()
	done = step(page, "done")
	where = lambda: done.evaluate("(node) => node.style.transform")  # noqa: E731
	line = lambda: page.evaluate(ENDS, ["start-done"])[0]  # noqa: E731
	first, first_line = where(), line()
	box = done.bounding_box()
	done.evaluate("(node) => { window.__places = []; new MutationObserver(() => window.__places.push(node.style.transform)).observe(node, { attributeFilter: ['style'] }); }")
	page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
	page.mouse.down()
	page.mouse.move(box["x"] + box["width"] / 2 + 60, box["y"] + box["height"] / 2 + 80, steps=6)
	assert where() != first and line()[3] > first_line[3]  # mid-drag: the step and its connection have moved
	places = [place for place in page.evaluate("window.__places") if place]
	left = places.index(next(place for place in places if place != first))
	assert first not in places[left:], f"the step jumped back to where it started during the drag: {places}"
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)  # nothing to save until it is dropped
	page.mouse.up()
	dropped = where()
	assert dropped != first
	expect(page.get_by_text("Unsaved changes")).to_be_visible()
	at = """([id, transform]) => document.querySelector(`.react-flow__node[data-id="${id}"]`).style.transform === transform"""
	page.get_by_role("button", name="Undo").click()
	page.wait_for_function(at, arg=["done", first])
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)
	assert all(abs(a - b) < 0.01 for a, b in zip(line(), first_line))  # its connection went back with it
	# Nothing is left to undo, yet the focus stays on Undo, in the builder, so its shortcuts still work.
	expect(page.get_by_role("button", name="Undo")).to_be_focused()
	expect(page.get_by_role("button", name="Undo")).to_have_attribute("aria-disabled", "true")
	page.keyboard.press("Control+y")
	page.wait_for_function(at, arg=["done", dropped])
	page.keyboard.press("Control+z")
	page.wait_for_function(at, arg=["done", first])


def test_a_two_step_flow_built_with_the_keyboard_alone(site, web, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	empty_flow(KEYBOARD_FLOW, "E2E Keyboard Flow")
	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1600, "height": 1000})
	page.goto(f"/huf/flows/{KEYBOARD_FLOW}")
	palette = page.get_by_role("navigation", name="Steps you can add")

	palette.get_by_role("button", name=re.compile("^Add step: Web request")).focus()
	page.keyboard.press("Enter")
	panel = page.get_by_role("region", name="Settings")
	expect(panel).to_be_focused()
	page.keyboard.press("Tab")  # Hide settings
	page.keyboard.press("Tab")  # the way back to the whole flow
	page.keyboard.press("Tab")
	expect(panel.get_by_label("Name")).to_be_focused()
	page.keyboard.press("ControlOrMeta+a")
	page.keyboard.type("Order comes in")

	palette.get_by_role("button", name=re.compile("^Add step: Finish")).focus()
	page.keyboard.press("Enter")
	expect(page.get_by_test_id("canvas-step")).to_have_count(2)

	panel.get_by_role("button", name="The whole flow").focus()
	page.keyboard.press("Enter")
	panel.get_by_test_id("step-list").get_by_role("button", name=re.compile("^Order comes in")).focus()
	page.keyboard.press("Enter")
	picker = panel.get_by_role("combobox", name="Then go to…")
	picker.focus()
	page.keyboard.press("ArrowDown")  # a closed list box on Linux moves its choice with the arrows
	expect(picker).to_have_value("end_1")
	page.keyboard.press("Tab")
	page.keyboard.press("Enter")
	expect(panel.get_by_text("Goes to Finish")).to_be_visible()

	page.get_by_label("What changed (optional)").focus()
	page.keyboard.type("Two steps")
	page.keyboard.press("Enter")
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)
	definition = saved(KEYBOARD_FLOW)
	assert [(node["id"], node["type"], node["data"]["label"]) for node in definition["nodes"]] == [("webhook_1", "trigger.webhook", "Order comes in"), ("end_1", "end", "Finish")]
	assert [(e["source"], e["target"], e["type"]) for e in definition["edges"]] == [("webhook_1", "end_1", "always")]
