"""The flow builder's canvas in a real browser (issue 27): a new flow built with the "+" on each way
out (the step picker adds the step after it, connected), a connection dropped on a step's body, a
link back up the flow drawn below its steps, arrows, steps and connections announced by their names;
and the builder at 1024 px and at phone width with nothing wider than the screen, where a phone can
read a flow and change a step in the settings sheet."""

from __future__ import annotations

import re

import frappe
from playwright.sync_api import expect

from huf.ai.flow import api
from tests.e2e.test_flow_builder import MANAGER, empty_flow, step
from tests.e2e.test_flows_spa import forget
from tests.site.conftest import make_user

PLUS_FLOW = "e2e-plus-flow"
SIZED_FLOW = "e2e-sized-flow"


def add_after(page, label: str, search: str, pick: str) -> None:
	"""Press a way out's "+", find a step in the picker by typing, and add it with Enter."""
	page.get_by_role("button", name=label, exact=True).click()
	picker = page.get_by_role("dialog")
	picker.get_by_role("combobox", name="Find a step").fill(search)
	expect(picker.get_by_role("option").first).to_contain_text(pick)
	page.keyboard.press("Enter")
	expect(picker).to_have_count(0)


def test_a_new_flow_built_with_the_plus_on_each_way_out(site, web, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	empty_flow(PLUS_FLOW, "E2E Plus Flow")
	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1440, "height": 900})
	page.goto(f"/huf/flows/{PLUS_FLOW}")
	page.get_by_role("navigation", name="Steps you can add").get_by_role("button", name=re.compile("^Add step: Web request")).click()
	expect(page.get_by_test_id("canvas-step")).to_have_count(1)

	add_after(page, "Add a step after Web request", "reshape", "Reshape data")
	add_after(page, "Add a step after Reshape data", "condition", "Check a condition")
	add_after(page, "Add a step after Check a condition, Yes", "finish", "Finish")
	expect(page.get_by_test_id("canvas-step")).to_have_count(4)
	expect(page.get_by_test_id("canvas-link")).to_have_count(3)
	expect(page.get_by_role("region", name="Settings").get_by_label("Name")).to_have_value("Finish")  # the new step is selected

	page.get_by_role("button", name="Fit the whole flow on screen").click()
	page.wait_for_timeout(300)
	# Each new step is to the right of the one it follows, and none overlaps another.
	boxes = {node_id: step(page, node_id).bounding_box() for node_id in ("webhook_1", "transform_1", "condition_1", "end_1")}
	assert boxes["webhook_1"]["x"] < boxes["transform_1"]["x"] < boxes["condition_1"]["x"] < boxes["end_1"]["x"]

	# A connection dropped on a step's body (not its small way in) goes to its way in: "No" back up to Reshape data.
	start = step(page, "condition_1").locator('.react-flow__handle[data-handleid="false"]').bounding_box()
	body = boxes["transform_1"]
	page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
	page.mouse.down()
	page.mouse.move(body["x"] + body["width"] / 2, body["y"] + body["height"] / 2, steps=10)
	page.mouse.up()
	expect(page.get_by_test_id("canvas-link")).to_have_count(4)
	expect(page.get_by_test_id("canvas-arrow")).to_have_count(4)

	# The link back runs below both of its steps, not behind them.
	back = page.locator('[data-back="true"]')
	expect(back).to_have_count(1)
	lowest = back.evaluate("(path) => path.getBoundingClientRect().bottom")
	assert lowest > max(boxes["transform_1"]["y"] + boxes["transform_1"]["height"], boxes["condition_1"]["y"] + boxes["condition_1"]["height"])

	# Screen readers hear names, never ids.
	labels = page.locator(".react-flow__edge").evaluate_all("(edges) => edges.map((edge) => edge.getAttribute('aria-label'))")
	assert sorted(labels) == sorted(
		[
			"From Web request to Reshape data",
			"From Reshape data to Check a condition",
			"From Check a condition (Yes) to Finish",
			"From Check a condition (No) to Reshape data",
		]
	), labels
	assert step(page, "condition_1").get_attribute("aria-label") == "Check a condition"
	assert not any(re.search(r"_\d", label) for label in labels)

	# Saved as drawn.
	expect(page.get_by_text("Unsaved changes")).to_be_visible()


def sized_flow() -> None:
	forget(SIZED_FLOW)
	kinds = ["trigger.webhook", "transform", "condition", "transform", "http_request", "end"]
	configs = {"transform": {"mode": "map", "mappings": {"x": "trigger.x"}}, "condition": {"expression": "true"}, "http_request": {"method": "GET", "url": "https://example.com/", "headers": {}}}
	nodes = [{"id": f"s{n}", "type": kind, "position": {"x": n * 320, "y": 0}, "data": {"label": f"Step {n}", "config": configs.get(kind, {})}} for n, kind in enumerate(kinds)]
	edges = [{"id": f"e{n}", "source": f"s{n}", "target": f"s{n + 1}", "type": "always", **({"sourceHandle": "true"} if kinds[n] == "condition" else {})} for n in range(len(kinds) - 1)]
	api.save_flow_definition(SIZED_FLOW, {"id": SIZED_FLOW, "nodes": nodes, "edges": edges}, flow_name="E2E Sized Flow", status="Draft")
	frappe.db.commit()


OVERFLOW = """() => {
	const width = window.innerWidth;
	const page = document.scrollingElement;
	const builder = document.querySelector('[data-testid="builder"]');
	// What pans inside the canvas is clipped by it; everything else must fit the screen.
	const wide = [...builder.querySelectorAll('*')]
		.filter((element) => !element.closest('.react-flow__viewport'))
		.filter((element) => { const box = element.getBoundingClientRect(); return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5); })
		.map((element) => element.outerHTML.slice(0, 120));
	return { scroll: page.scrollWidth, client: page.clientWidth, wide, canvas: builder.querySelector('.react-flow').getBoundingClientRect().width };
}"""


def test_the_builder_fits_1024_px_and_a_phone(site, web, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	sized_flow()
	page = signed_in(MANAGER)

	page.set_viewport_size({"width": 1024, "height": 768})
	page.goto(f"/huf/flows/{SIZED_FLOW}")
	expect(page.get_by_test_id("canvas-step")).to_have_count(6)
	page.get_by_role("button", name="Tidy up").click()
	page.wait_for_timeout(400)  # the view moves in 200 ms
	found = page.evaluate(OVERFLOW)
	assert found["scroll"] <= found["client"] and not found["wide"], found
	assert found["canvas"] >= 400, found  # the canvas, not the panels, has the room
	zoom = page.locator(".react-flow__viewport").evaluate("(view) => new DOMMatrix(getComputedStyle(view).transform).a")
	assert zoom >= 0.7, zoom  # Tidy up keeps the names readable
	page.get_by_role("button", name="Undo").click()  # nothing to save, so nothing asks before the reload
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)
	# Folding the panels gives the canvas the room, and the browser remembers it.
	page.get_by_role("button", name="Hide the steps you can add").click()
	page.get_by_role("button", name="Hide settings").click()
	assert page.evaluate(OVERFLOW)["canvas"] >= 680  # all but the navigation, the page margin and two folded strips
	page.get_by_role("button", name="Hide the overview").click()
	expect(page.get_by_role("img", name="Overview of the whole flow")).to_have_count(0)
	page.reload()
	expect(page.get_by_test_id("canvas-step").first).to_be_visible()
	expect(page.get_by_role("button", name="Add steps")).to_be_visible()
	expect(page.get_by_role("button", name="Show settings")).to_be_visible()
	expect(page.get_by_role("button", name="Show the overview")).to_be_visible()
	page.get_by_role("button", name="Show settings").click()
	expect(page.get_by_role("region", name="Settings")).to_be_visible()

	page.set_viewport_size({"width": 390, "height": 844})
	page.goto(f"/huf/flows/{SIZED_FLOW}")
	expect(page.get_by_test_id("canvas-step").first).to_be_visible()
	found = page.evaluate(OVERFLOW)
	assert found["scroll"] <= found["client"] and not found["wide"], found
	assert found["canvas"] >= 340, found
	expect(page.get_by_role("button", name="Run")).to_be_visible()
	# A step's settings open in a sheet over the canvas, and a change there is a change to save.
	page.locator('[data-testid="builder"]').scroll_into_view_if_needed()
	step(page, "s0").click()
	sheet = page.get_by_role("region", name="Settings")
	expect(sheet).to_be_visible()
	sheet.get_by_label("Name").fill("Order comes in")
	expect(step(page, "s0")).to_contain_text("Order comes in")
	found = page.evaluate(OVERFLOW)
	assert found["scroll"] <= found["client"] and not found["wide"], found
	sheet.get_by_role("button", name="Hide settings").click()
	expect(sheet).to_have_count(0)
	expect(page.get_by_text("Unsaved changes")).to_be_visible()
