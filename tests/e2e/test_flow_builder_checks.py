"""The builder's undo and its checks of what cannot work, in a real browser: a condition typed
letter by letter undoes in one press after a click on the empty canvas; a web request trigger
without a secret is a problem and is not activated until it has one; Guest is never offered as an
approver, and an approval only Guest could decide is a problem."""

from __future__ import annotations

import re

import frappe
from playwright.sync_api import expect

from huf.ai.flow import api, readiness
from tests.e2e.test_flows_spa import forget
from tests.site.conftest import make_user

MANAGER = "checks-manager@huf.test"
FLOW = "e2e-builder-checks"


def save(*steps: tuple[str, str, dict], secret: str | None = "e2e-checks-secret") -> None:
	"""A web request trigger, ``steps`` (id, type, config) in a row, and an end, saved as a draft."""
	trigger = ("hook", "trigger.webhook", {"secret": secret} if secret else {})
	nodes = [
		{"id": node_id, "type": kind, "position": {"x": 40 + 300 * n, "y": 200}, "data": {"label": node_id.capitalize(), "config": config}}
		for n, (node_id, kind, config) in enumerate([trigger, *steps, ("done", "end", {})])
	]
	edges = [{"id": f"e{n}", "source": a["id"], "target": b["id"], "type": "always"} for n, (a, b) in enumerate(zip(nodes, nodes[1:]))]
	forget(FLOW)
	api.save_flow_definition(FLOW, {"id": FLOW, "nodes": nodes, "edges": edges}, flow_name="Builder checks", status="Draft")
	frappe.db.commit()


def open_builder(signed_in, steps: int = 3):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	page = signed_in(MANAGER)
	page.set_viewport_size({"width": 1600, "height": 1000})
	page.goto(f"/huf/flows/{FLOW}")
	expect(page.get_by_test_id("canvas-step")).to_have_count(steps)
	return page


def step(page, node_id: str):
	return page.locator(f'.react-flow__node[data-id="{node_id}"]')


def settings_of(page, node_id: str):
	step(page, node_id).click()
	return page.get_by_role("region", name="Settings")


def click_empty_canvas(page) -> None:
	page.locator(".react-flow__pane").click(position={"x": 8, "y": 8})


def test_a_condition_typed_letter_by_letter_undoes_in_one_press_after_a_click_on_the_empty_canvas(site, web, signed_in):
	save(("cond", "condition", {"expression": "trigger.score > 1"}))
	page = open_builder(signed_in)
	field = settings_of(page, "cond").get_by_label("Condition")
	field.fill("")
	field.press_sequentially("trigger.score > 50")
	click_empty_canvas(page)
	expect(page.get_by_text("Unsaved changes")).to_be_visible()
	page.keyboard.press("Control+z")  # emptied and typed again without leaving the field: one change
	assert settings_of(page, "cond").get_by_label("Condition").input_value() == "trigger.score > 1"
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)
	click_empty_canvas(page)
	page.keyboard.press("Control+Shift+z")
	assert settings_of(page, "cond").get_by_label("Condition").input_value() == "trigger.score > 50"
	# the shortcuts work from the empty canvas too: Delete removes the selected step
	step(page, "cond").click()
	page.keyboard.press("Delete")
	expect(page.get_by_test_id("canvas-step")).to_have_count(2)


def test_a_web_request_without_a_secret_is_a_problem_and_is_not_activated(site, web, signed_in):
	save(secret=None)
	page = open_builder(signed_in, steps=2)
	click_empty_canvas(page)
	expect(page.get_by_test_id("flow-problems")).to_contain_text(readiness.NO_SECRET)
	expect(page.get_by_text("No problems found.")).to_have_count(0)
	page.get_by_role("button", name="Activate", exact=True).click()
	expect(page.get_by_text(readiness.NO_SECRET).first).to_be_visible()
	expect(page.get_by_test_id("flow-status")).to_have_text("Draft")

	settings_of(page, "hook").get_by_label("Secret").fill("a-long-random-secret")
	click_empty_canvas(page)
	expect(page.get_by_text("No problems found.")).to_be_visible()
	page.get_by_role("button", name="Save", exact=True).click()
	expect(page.get_by_text("Unsaved changes")).to_have_count(0)
	page.get_by_role("button", name="Activate", exact=True).click()
	expect(page.get_by_test_id("flow-status")).to_have_text("Active")


def test_guest_is_never_offered_as_an_approver_and_an_approval_only_guest_could_decide_is_a_problem(site, web, signed_in):
	save(("ask", "human.approval", {"approval_type": "user", "users": ["Guest"]}))
	page = open_builder(signed_in)
	click_empty_canvas(page)
	problems = page.get_by_test_id("flow-problems")
	expect(problems).to_contain_text(readiness.GUEST_USER)
	expect(problems).to_contain_text(readiness.NOBODY)

	panel = settings_of(page, "ask")
	panel.get_by_role("button", name="Remove Guest").click()
	panel.get_by_label("Find a person").fill("Guest")
	expect(panel.get_by_text("No matches.")).to_be_visible()
	expect(panel.get_by_role("button", name=re.compile(r"^Add .*Guest"))).to_have_count(0)
	panel.get_by_label("Find a person").fill(MANAGER)
	panel.get_by_role("button", name=re.compile(f"Add .*{re.escape(MANAGER)}")).click()
	click_empty_canvas(page)
	expect(page.get_by_text("No problems found.")).to_be_visible()
