"""The web app's Flows area in a real browser against the real site: a manager creates a flow by
importing a small graph, activates it and runs it; the named approver approves it in their inbox
and the run page shows it finished. A failed run shows its failing step and the reason."""

from __future__ import annotations

import json
import re

import frappe
from playwright.sync_api import expect

from tests.site.conftest import make_user
from tests.site.flow_helpers import edge, node, save, settle, start

MANAGER = "flows-ui-manager@huf.test"
APPROVER = "flows-ui-approver@huf.test"
FLOW = "e2e-ship-orders"


def forget(flow_id: str) -> None:
	if frappe.db.exists("Flow Definition", flow_id):
		runs = frappe.get_all("Flow Run", {"flow_definition": flow_id}, pluck="name")
		frappe.db.delete("Flow Run Step", {"parent": ["in", runs or [""]]})
		frappe.db.delete("Flow Run", {"flow_definition": flow_id})
		frappe.delete_doc("Flow Definition", flow_id, force=True)
	frappe.db.commit()


# Each step drawn at the size the canvas told React Flow before drawing it (sizes.ts), and each
# connection starting at its way out and ending at its way in as the page shows them.
DRAWN_OFF = """(edges) => {
	const off = [];
	for (const node of document.querySelectorAll(".react-flow__node")) {
		const card = node.querySelector('[data-testid="canvas-step"]');
		const told = `${parseFloat(card.style.width)}x${parseFloat(card.style.height)}`, drawn = `${node.offsetWidth}x${node.offsetHeight}`;
		if (told !== drawn) off.push(`step ${node.dataset.id} is ${drawn}, React Flow was told ${told}`);
	}
	const near = (a, b) => Math.abs(a.x - b.x) <= 1.5 && Math.abs(a.y - b.y) <= 1.5;
	for (const [id, source, outcome, target] of edges) {
		const path = document.querySelector(`.react-flow__edge[data-id="${id}"] path.react-flow__edge-path`);
		if (!path) { off.push(`connection ${id} is not drawn`); continue; }
		const screen = (at) => { const p = path.getPointAtLength(at); return new DOMPoint(p.x, p.y).matrixTransform(path.getScreenCTM()); };
		const way = (node, kind) => document.querySelector(`.react-flow__node[data-id="${node}"] .react-flow__handle.${kind}${kind === "source" && outcome ? `[data-handleid="${outcome}"]` : ""}`).getBoundingClientRect();
		const out = way(source, "source"), into = way(target, "target");
		const start = screen(0), end = screen(path.getTotalLength());
		if (!near(start, { x: out.right, y: out.top + out.height / 2 })) off.push(`connection ${id} starts at ${start.x},${start.y}, its way out is at ${out.right},${out.top + out.height / 2}`);
		if (!near(end, { x: into.left, y: into.top + into.height / 2 })) off.push(`connection ${id} ends at ${end.x},${end.y}, its way in is at ${into.left},${into.top + into.height / 2}`);
	}
	return off;
}"""


def drawn_off(page, edges: list[dict]) -> list[str]:
	"""Where the canvas's drawing is off: steps not at their told size, connections not on their ways."""
	return page.evaluate(DRAWN_OFF, [[e["id"], e["source"], e.get("sourceHandle"), e["target"]] for e in edges])


def activate_and_run(page, given: str) -> str:
	"""On a flow's page: Activate, then Run with the input ``given``; the run's name, once its page is open."""
	page.get_by_role("button", name="Activate").click()
	expect(page.get_by_test_id("flow-status")).to_have_text("Active")
	page.get_by_role("button", name="Run", exact=True).click()
	page.get_by_label("Input (optional)").fill(given)
	page.get_by_role("button", name="Start run").click()
	page.wait_for_url(re.compile(r".*/huf/flows/runs/[^/]+$"))
	return page.url.rsplit("/", 1)[-1]


def test_a_manager_imports_activates_and_runs_a_flow_the_approver_approves(site, web, workers, signed_in):
	forget(FLOW)
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	make_user(APPROVER, ["Huf User"])
	workers.start(1)
	graph = {
		"nodes": [
			{"id": "ask", "type": "human.approval", "data": {"label": "Ask the approver", "config": {"approval_type": "users", "users": [APPROVER], "message": "Ship order A-1?"}}},
			{"id": "done", "type": "end", "data": {"label": "Shipped", "config": {}}},
		],
		"edges": [{"id": "e1", "source": "ask", "target": "done", "meta": {"outcome": "approved"}}],
	}

	page = signed_in(MANAGER)
	page.goto("/huf/flows")
	page.get_by_role("button", name="New flow").click()
	page.get_by_label("Name").fill("E2E Ship Orders")
	expect(page.get_by_label("Flow ID")).to_have_value(FLOW)
	page.get_by_role("button", name="Create flow").click()
	expect(page).to_have_url(f"{web.base}/huf/flows/{FLOW}")
	expect(page.get_by_text("Start with what starts the flow")).to_be_visible()

	page.get_by_role("button", name="Import").click()
	page.get_by_label("Or paste it here").fill(json.dumps(graph))
	page.get_by_role("dialog").get_by_role("button", name="Import").click()
	expect(page.get_by_test_id("canvas-step").first).to_contain_text("Ask the approver")
	page.get_by_role("button", name="Show the steps as a list").click()
	steps = page.get_by_role("region", name="Steps in order")
	expect(steps.get_by_test_id("flow-step").first).to_contain_text("Ask the approver")
	expect(steps.get_by_test_id("flow-step").first).to_contain_text("Ask a person to approve")
	expect(steps.get_by_text("if approved")).to_be_visible()
	expect(page.get_by_text("Imported")).to_be_visible()  # the version's note

	run = activate_and_run(page, '{"order": "A-1"}')
	expect(page.get_by_text("Waiting for approval: Ship order A-1?")).to_be_visible(timeout=30_000)
	expect(page.get_by_role("button", name="Approve")).to_have_count(0)  # the manager is not the named approver

	inbox = signed_in(APPROVER)
	inbox.goto("/huf/flows/approvals")
	card = inbox.get_by_test_id("approval")
	expect(card).to_have_count(1)
	expect(card).to_contain_text("Ship order A-1?")
	expect(card).to_contain_text('"order": "A-1"')
	card.get_by_label("Comment (optional)").fill("Go ahead")
	card.get_by_role("button", name="Approve").click()
	expect(inbox.get_by_text("Nothing is waiting for you")).to_be_visible()

	assert settle(run, timeout=60, statuses=("Success", "Failed")).status == "Success"
	page.reload()
	expect(page.locator("header").get_by_text("Success")).to_be_visible()
	expect(page.get_by_test_id("run-step")).to_have_count(2)


def test_a_failed_run_shows_the_failing_step_and_why(site, web, workers, signed_in):
	make_user(MANAGER, ["Huf User", "Huf Manager"])
	flow = save(
		"e2e-failing-flow",
		[node("fetch", "http_request", method="GET", url="http://127.0.0.1:9/nothing-listens-here"), node("done", "end")],
		[edge("fetch", "done", "on_success")],
	)
	workers.start(1)
	run = settle(start(flow, {}, user=MANAGER), timeout=60, statuses=("Success", "Failed"))
	assert run.status == "Failed"
	reason = frappe.db.get_value("Flow Run Step", {"parent": run.name, "node_id": "fetch"}, "error")
	assert reason

	page = signed_in(MANAGER)
	page.goto(f"/huf/flows/runs/{run.name}")
	failure = page.get_by_test_id("run-failure")
	expect(failure).to_contain_text('It failed at the step "Fetch" (Call a web address).')
	expect(failure).to_contain_text(reason.strip()[:60])
	fetch = page.locator('.react-flow__node[data-id="fetch"]')
	expect(fetch.get_by_test_id("canvas-step")).to_have_attribute("data-state", "failed")
	expect(page.locator('.react-flow__node[data-id="done"]').get_by_test_id("canvas-step")).not_to_have_attribute("data-state", re.compile("."))
	details = page.get_by_test_id("step-details")  # the failed step is open on its own
	expect(details).to_contain_text("Failed")
	expect(details).to_contain_text(reason.strip()[:60])
	expect(page.get_by_role("button", name="Resume")).to_be_visible()  # the owner may try again
	assert drawn_off(page, [edge("fetch", "done", "on_success")]) == []  # a run's steps are taller: their state line
