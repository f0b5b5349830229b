"""Every page of the web app checked with axe-core in a real browser: no serious or critical
violations (WCAG 2.x A and AA rules and axe's best practices). Each page is checked with what a
person finds there after using it: an agent that has answered in the chat (after a tool call, with a
long unbroken word and a code block), its run, a flow with a few steps, a flow run waiting for this
person's approval. Then the same pages at phone width (390 px): none is wider than the screen.

axe-core is the npm package the web app's tests use (frontend/node_modules/axe-core/axe.min.js);
HUF_AXE names another copy of axe.min.js."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import frappe
import pytest
from playwright.sync_api import expect

import json

from huf.ai.flow import api
from tests.e2e.test_flows_spa import forget
from tests.e2e.test_prompts_spa import forget_prompt
from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.site.flow_helpers import settle
from tests.support.scripted_llm import text, tool_calls

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("HUF_AXE") or ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js")
MANAGER = "axe-manager@huf.test"
FLOW = "e2e-axe-flow"
AGENT = "Axe Agent"
PROMPT = "axe-prompt"
LONG_WORD = "A-very-long-word-without-any-space-" * 6
# The chat's answer: a tool call whose input is one long unbroken value, then a reply with a long
# unbroken word and a code block with a long line.
ANSWER = f"Hello! {LONG_WORD}\n\n```python\nprint('{'x' * 160}')\n```\n"
PHONE = {"width": 390, "height": 800}

# What axe reports, for the violations that matter: serious and critical ones only.
RUN_AXE = """async () => {
	const result = await axe.run(document, { resultTypes: ["violations"] });
	return result.violations
		.filter((v) => v.impact === "serious" || v.impact === "critical")
		.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}"""


def violations(page, path: str, ready) -> list[str]:
	"""Open ``path``, wait until ``ready`` (a function of the page giving a locator) is visible and
	the page has stopped loading, and give axe's serious and critical violations, one line each."""
	page.goto(path)
	expect(ready(page)).to_be_visible()
	page.wait_for_load_state("networkidle")
	page.wait_for_timeout(300)  # what is drawn after the first paint (the builder's checks and map)
	if not page.evaluate("typeof window.axe !== 'undefined'"):
		page.add_script_tag(path=str(AXE))
	found = []
	for v in page.evaluate(RUN_AXE):
		nodes = v["nodes"]
		found.append(f"{path}: {v['impact']} {v['id']} ({v['help']}) x{len(nodes)} at {nodes[:4]}")
	return found


# The page's width against the screen's; when wider, the elements that stick out past the screen's
# right edge and are not inside something that scrolls sideways (these make the page scroll).
WIDTH = """() => {
	const root = document.scrollingElement;
	const scrolls = (el) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(el).overflowX);
	// (an absolutely placed element, e.g. a screen-reader-only text, escapes a scroller that is not positioned)
	const inScroller = (el) => { if (["absolute", "fixed"].includes(getComputedStyle(el).position)) return false; for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (scrolls(up)) return true; return false; };
	const out = root.scrollWidth > root.clientWidth
		? [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1 && !inScroller(el))
			.slice(0, 8).map((el) => `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(" ").slice(0, 6).join(".")} (right ${Math.round(el.getBoundingClientRect().right)})`)
		: [];
	return { scroll: root.scrollWidth, client: root.clientWidth, out };
}"""


def wider_than_the_screen(page, path: str, ready) -> list[str]:
	"""Open ``path`` at the page's size, every folded detail unfolded, and say how it is wider than the screen (nothing when it is not)."""
	page.goto(path)
	expect(ready(page)).to_be_visible()
	page.wait_for_load_state("networkidle")
	page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
	page.wait_for_timeout(200)
	width = page.evaluate(WIDTH)
	if width["scroll"] <= width["client"]:
		return []
	return [f"{path}: {width['scroll']} px wide on a {width['client']} px screen, past its edge: {width['out']}"]


def flow_waiting_for(manager: str, agent: str) -> str:
	"""An Active flow (web request -> agent -> approval by ``manager`` -> end) and a run of it that
	waits for ``manager``'s decision; the run's name."""
	forget(FLOW)
	nodes = [
		{"id": "hook", "type": "trigger.webhook", "position": {"x": 0, "y": 0}, "data": {"label": "New order", "config": {"secret": "axe-secret"}}},
		{"id": "score", "type": "agent.run", "position": {"x": 300, "y": 0}, "data": {"label": "Score order", "config": {"agent": agent, "prompt": "Score {{ trigger.order }}"}}},
		{"id": "ask", "type": "human.approval", "position": {"x": 600, "y": 0}, "data": {"label": "Ask a manager", "config": {"approval_type": "user", "users": [manager]}}},
		{"id": "done", "type": "end", "position": {"x": 900, "y": 0}, "data": {"label": "Done", "config": {}}},
	]
	edges = [{"id": f"e{n}", "source": a["id"], "target": b["id"], "type": "always"} for n, (a, b) in enumerate(zip(nodes, nodes[1:]))]
	edges[2]["sourceHandle"] = "approved"
	api.save_flow_definition(FLOW, {"id": FLOW, "nodes": nodes, "edges": edges}, flow_name="Axe orders", status="Active")
	frappe.db.commit()
	frappe.set_user(manager)
	try:
		run = api.run_flow(FLOW, {"order": "A-1"})["flow_run"]
	finally:
		frappe.set_user("Administrator")
	frappe.db.commit()
	return settle(run, statuses=("Waiting Approval", "Failed", "Success")).name


def test_every_page_has_no_serious_or_critical_accessibility_violations(site, llm, workers, web, signed_in):
	if not AXE.exists():
		pytest.fail(f"axe-core is not at {AXE}: add the devDependency axe-core to frontend/package.json, or set HUF_AXE.")
	manager = make_user(MANAGER, ["Huf User", "Huf Manager"])
	tool = fixtures.tool("huf_axe_list", "Get List", "ToDo")
	# A prompt with two versions, one line of the text long and unbroken; the agent keeps version 1.
	forget_prompt(PROMPT)
	doc = frappe.get_doc({"doctype": "Agent Prompt", "title": "Axe prompt", "slug": PROMPT, "description": LONG_WORD, "prompt_body": "You are a test agent."}).insert()
	doc.prompt_body = f"You are a test agent.\n{LONG_WORD}"
	doc.save()
	agent = fixtures.agent(llm, name=AGENT, tools=(tool,), allow_chat=1, prompt_mode="Template", prompt_template=f"{PROMPT}--v1")
	frappe.db.commit()
	workers.start(1)
	llm.script(tool_calls([("c1", tool, json.dumps({"limit": 1, "note": "y" * 160}))]), text(ANSWER), text("80"))
	page = signed_in(manager)

	page.goto(f"/huf/chat/{quote(agent)}")
	page.get_by_label(f"Message to {agent}").fill("Hello")
	page.get_by_role("button", name="Send").click()
	expect(page.get_by_test_id("answer").filter(has_text="Hello!")).to_have_attribute("data-status", "done", timeout=30_000)
	chat = "/" + page.url.split("/", 3)[3]  # the conversation's own address
	agent_run = wait_for(lambda: frappe.get_all("Agent Run", {"agent": agent, "user": manager, "status": "Success"}, pluck="name"), message="the chat's run")[0]
	flow_run = flow_waiting_for(manager, agent)

	heading = lambda name: lambda p: p.get_by_role("heading", name=name).first  # noqa: E731
	pages = [
		(chat, lambda p: p.get_by_test_id("answer").first),
		("/huf/agents", heading("Agents")),
		(f"/huf/agents/{quote(agent)}", heading(agent)),
		("/huf/providers", heading("Providers and models")),
		("/huf/tools", heading("Tools")),
		(f"/huf/tools/{quote(tool)}", heading(tool)),
		("/huf/knowledge", heading("Knowledge")),
		("/huf/runs", heading("Runs")),
		(f"/huf/runs/{agent_run}", heading(agent)),
		("/huf/flows", heading("Flows")),
		(f"/huf/flows/{FLOW}", lambda p: p.get_by_test_id("canvas-step").first),
		(f"/huf/flows/runs/{flow_run}", lambda p: p.get_by_test_id("canvas-step").first),
		("/huf/flows/approvals", heading("Waiting for me")),
		("/huf/prompts", heading("Prompts")),
		(f"/huf/prompts/prompt/{PROMPT}", lambda p: p.get_by_role("region", name="Changes from version 1 to version 2")),
		("/huf/prompts/prompt/new", heading("New prompt")),
	]
	found = []
	for path, ready in pages:
		found += violations(page, path, ready)
	assert not found, "Serious or critical accessibility violations:\n" + "\n".join(found)

	# At phone width no page is wider than the screen: in the chat, a long unbroken word wraps inside
	# its bubble, a code block scrolls inside itself and a tool's long input wraps inside its step.
	page.set_viewport_size(PHONE)
	found = []
	for path, ready in [*pages, (f"/huf/chat/{quote(agent)}", heading(agent))]:  # the last: the list of conversations
		found += wider_than_the_screen(page, path, ready)
	assert not found, "Wider than the screen at 390 px:\n" + "\n".join(found)
	page.goto(chat)
	expect(page.get_by_test_id("tool-step").first).to_be_visible()
	page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
	wider = page.evaluate("""() => [...document.querySelectorAll('[data-testid="answer"] *, [data-testid="user-message"]')]
		.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.parentElement.closest('pre')).map((el) => el.tagName + ' ' + el.className)""")
	assert not wider, wider
	log = page.evaluate("""() => { const log = document.querySelector('[role="log"]'); return [log.scrollWidth, log.clientWidth]; }""")
	assert log[0] <= log[1], f"the conversation is {log[0]} px wide inside a {log[1]} px list"


def test_the_settings_pages_have_no_serious_or_critical_accessibility_violations(site, web, signed_in):
	"""Settings is an admin's (System Manager's): people and roles, roles with the new-role dialog
	open, and the content from apps, checked with axe and at phone width."""
	if not AXE.exists():
		pytest.fail(f"axe-core is not at {AXE}: add the devDependency axe-core to frontend/package.json, or set HUF_AXE.")
	page = signed_in(make_user("axe-admin@huf.test", ["System Manager"]))
	heading = lambda name: lambda p: p.get_by_role("heading", name=name, exact=True).first  # noqa: E731
	pages = [
		("/huf/settings", heading("People and roles")),
		("/huf/settings/roles", heading("Roles")),
		("/huf/settings/content", heading("Content from apps")),
	]
	found = []
	for path, ready in pages:
		found += violations(page, path, ready)
	page.goto("/huf/settings/roles")
	page.get_by_role("button", name="New role").click()
	expect(page.get_by_role("dialog", name="New role")).to_be_visible()
	page.add_script_tag(path=str(AXE))
	for v in page.evaluate(RUN_AXE):
		found.append(f"the new-role dialog: {v['impact']} {v['id']} ({v['help']}) at {v['nodes'][:4]}")
	assert not found, "Serious or critical accessibility violations:\n" + "\n".join(found)

	page.set_viewport_size(PHONE)
	found = []
	for path, ready in pages:
		found += wider_than_the_screen(page, path, ready)
	assert not found, "Wider than the screen at 390 px:\n" + "\n".join(found)
