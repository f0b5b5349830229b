"""The Flow Run form in the Desk: where the run is, its steps, and Approve for the person the run
waits for (only them), which lets the run go on."""

from __future__ import annotations

import frappe
from playwright.sync_api import expect

from tests.site.conftest import make_user
from tests.site.flow_helpers import edge, node, save, settle, start, steps

OWNER = "desk-flow-owner@huf.test"
APPROVER = "desk-flow-approver@huf.test"


def test_the_named_approver_approves_in_the_form_and_the_run_goes_on(site, workers, web, signed_in):
	make_user(OWNER, ["Huf User"])
	make_user(APPROVER, ["Huf User"])
	flow = save(
		"huf-e2e-desk-approval",
		[node("ask", "human.approval", approval_type="users", users=[APPROVER], message="Ship it?"), node("done", "end")],
		[edge("ask", "done", meta={"outcome": "approved"})],
	)
	workers.start(1)
	run = settle(start(flow, {"order": "A-1"}, user=OWNER), timeout=60)
	assert run.status == "Waiting Approval", run.last_error

	owner = signed_in(OWNER)
	owner.goto(f"/app/flow-run/{run.name}")
	expect(owner.get_by_text("Current step: ask")).to_be_visible()
	expect(owner.get_by_role("button", name="Approve")).to_have_count(0)  # the owner is not the approver

	page = signed_in(APPROVER)
	page.goto(f"/app/flow-run/{run.name}")
	expect(page.get_by_text("Waiting Approval").first).to_be_visible()
	page.get_by_role("button", name="Approve").click()
	dialog = page.locator(".modal-dialog:visible")
	dialog.locator("textarea").fill("Looks right")
	dialog.get_by_role("button", name="Approve").click()
	expect(page.get_by_text("Approved: the flow goes on.")).to_be_visible()
	settle(run.name, timeout=60, statuses=("Success", "Failed"))
	assert steps(run.name) == [("ask", "Success"), ("done", "Success")]
	page.reload()  # who decided keeps seeing the run
	expect(page.locator(".indicator-pill", has_text="Success").first).to_be_visible()
	expect(page.get_by_role("button", name="Approve")).to_have_count(0)
