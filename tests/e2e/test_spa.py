"""The web app at /huf in a real browser: set up a provider and model, build an agent with a tool,
chat with it, open the run. Screenshots of each screen go to .ci/artifacts/screens (not committed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.scripted_llm import text, tool_calls

SCREENS = Path(os.environ.get("HUF_SCREENSHOTS", Path(__file__).resolve().parents[2] / ".ci" / "artifacts" / "screens"))
ANSWER = "There is **one** open task: *water the plants*."


def shot(page, name: str) -> None:
	SCREENS.mkdir(parents=True, exist_ok=True)
	page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def clear_provider(name: str) -> None:
	for model in frappe.get_all("AI Model", {"provider": name}, pluck="name"):
		for agent in frappe.get_all("Agent", {"model": model}, pluck="name"):
			for doctype in ("Agent Message", "Agent Run", "Agent Conversation"):
				frappe.db.delete(doctype, {"agent": agent})
			frappe.delete_doc("Agent", agent, force=True)
		frappe.delete_doc("AI Model", model, force=True)
	if frappe.db.exists("AI Provider", name):
		frappe.delete_doc("AI Provider", name, force=True)
	frappe.db.commit()


def test_admin_sets_up_a_provider_builds_an_agent_chats_and_reads_the_run(site, llm, workers, web, signed_in):
	clear_provider("E2E Local")
	fixtures.tool("huf_spa_list", "Get List", "ToDo")
	frappe.db.commit()
	admin = make_user("spa-admin@huf.test", ["Huf Manager"])
	page = signed_in(admin)
	page.on("console", lambda message: print("browser:", message.type, message.text))
	page.on("response", lambda response: response.status >= 400 and print("http:", response.status, response.url))

	# Providers: add one with its key and server address, a model, then test the connection.
	page.goto("/huf/providers")
	page.get_by_role("heading", name="Providers and models").wait_for()
	page.get_by_role("button", name="Add provider").first.click()
	dialog = page.get_by_role("dialog")
	dialog.get_by_role("button", name="Save provider").click()
	expect(dialog.get_by_text("Name the provider")).to_be_visible()  # the error sits next to the field
	dialog.get_by_label("Name").fill("E2E Local")
	dialog.get_by_label("API key").fill("sk-e2e-secret")
	dialog.get_by_label("Server address").fill(llm.base_url)
	dialog.get_by_role("button", name="Save provider").click()
	card = page.get_by_role("article", name="E2E Local")
	expect(card.get_by_text("Key: set")).to_be_visible()
	assert "sk-e2e-secret" not in page.content()  # the key is write-only
	card.get_by_role("button", name="Add model").click()
	page.get_by_role("dialog").get_by_label("Model id").fill("e2e-model")
	page.get_by_role("dialog").get_by_role("button", name="Save model").click()
	expect(card.get_by_text("e2e-model")).to_be_visible()
	llm.script(text("OK"))
	card.get_by_role("button", name="Test connection").click()
	expect(card.get_by_text("Connected")).to_be_visible(timeout=60_000)
	shot(page, "providers")

	# Agents: a new agent with the tool; a mistake shows next to its field first.
	page.goto("/huf/agents")
	page.get_by_role("link", name="New agent").click()
	form = page.get_by_role("form", name="Agent settings")
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_text("Give the agent a name.")).to_be_visible()
	form.get_by_label("Name", exact=True).fill("SPA Helper")
	form.get_by_label("Model", exact=True).select_option("e2e-model")
	form.get_by_label("Temperature").fill("3")
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_text("Use a number from 0 to 2.")).to_be_visible()
	form.get_by_label("Temperature").fill("0.2")
	form.get_by_label("What the agent should do").fill("You answer questions about the team's tasks.")
	form.get_by_role("checkbox", name="huf_spa_list").check()
	form.get_by_role("button", name="Save").click()
	page.wait_for_url("**/huf/agents/SPA%20Helper")
	saved = frappe.get_doc("Agent", "SPA Helper")
	assert (saved.model, saved.provider, saved.temperature) == ("e2e-model", "E2E Local", 0.2)
	assert [row.tool for row in saved.agent_tool] == ["huf_spa_list"]
	shot(page, "agent-editor")

	# Chat: the tool step and the streamed answer, then the usage badge.
	llm.script(tool_calls([("c1", "huf_spa_list", json.dumps({"limit": 1}))]), text(ANSWER, chunks=6, delay=0.4))
	workers.start(1)
	page.goto("/huf/chat/SPA%20Helper")
	page.get_by_label("Message to SPA Helper").fill("What is open?")
	page.keyboard.press("Enter")
	step = page.get_by_test_id("tool-step").filter(has_text="huf_spa_list")
	try:
		step.wait_for()
	except Exception:
		shot(page, "debug-chat")
		raise
	page.get_by_test_id("answer").filter(has_text="There is").wait_for()
	frappe.db.commit()  # a fresh snapshot: the run was written by the web server
	run = frappe.db.get_value("Agent Run", {"agent": "SPA Helper", "channel": "chat"}, "name")
	assert frappe.db.get_value("Agent Run", run, "status") == "Started"  # text on screen while the run goes on
	answer = page.get_by_test_id("answer").filter(has_text="water the plants")
	expect(answer.get_by_test_id("usage")).to_be_visible(timeout=30_000)
	assert answer.locator("strong").inner_text() == "one"
	step.locator("summary").click()
	expect(step).to_contain_text('"limit": 1')
	shot(page, "chat")

	# Runs: the list, then the run with its tokens and its steps.
	page.goto("/huf/runs")
	page.locator(f'a[href="/huf/runs/{run}"]').click()
	page.wait_for_url(f"**/huf/runs/{run}")
	frappe.db.commit()
	tokens = frappe.db.get_value("Agent Run", run, "total_tokens")
	assert tokens and tokens > 0
	expect(page.get_by_test_id("run-total-tokens")).to_have_text(f"{tokens:,}")
	expect(page.get_by_test_id("timeline-step").filter(has_text="Tool: huf_spa_list")).to_be_visible()
	shot(page, "run")


def test_people_see_only_what_they_may_use_and_deep_links_load(site, llm, web, signed_in, browser):
	agent = fixtures.agent(llm, name="SPA Chat Only", allow_chat=1)
	user = make_user("spa-user@huf.test", ["Huf User"])
	page = signed_in(user)
	page.goto(f"/huf/chat/{agent.replace(' ', '%20')}")
	nav = page.get_by_role("navigation", name="Main")
	expect(nav.get_by_role("link", name="Chat")).to_be_visible()
	expect(nav.get_by_role("link", name="Runs")).to_be_visible()
	expect(nav.get_by_role("link", name="Knowledge")).to_be_visible()  # Huf Users read knowledge sources
	expect(nav.get_by_role("link", name="Agents")).to_be_visible()  # Huf Users look at agents; they change none
	assert nav.get_by_role("link", name="Providers").count() == 0
	assert nav.get_by_role("link", name="Settings").count() == 0
	page.goto("/huf/agents/new")  # a deep link straight to a screen this user may not use
	expect(page.get_by_text("You don't have access to this part of Huf.")).to_be_visible()

	# On a phone-sized screen the chat still has its message box and send button.
	page.set_viewport_size({"width": 390, "height": 800})
	page.goto(f"/huf/chat/{agent.replace(' ', '%20')}")
	expect(page.get_by_label(f"Message to {agent}")).to_be_visible()
	expect(page.get_by_role("button", name="Send")).to_be_visible()
	shot(page, "chat-phone")

	# Visitors who are not signed in are sent to sign in, and come back to the same address.
	guest = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site})
	response = guest.request.get("/huf/runs", max_redirects=0)
	assert response.status == 302 and "/login?redirect-to=/huf/runs" in response.headers["location"]
	guest.close()


def test_the_runs_list_learns_of_a_new_run_from_the_realtime_server(site, llm, realtime, browser):
	from frappe.utils.password import update_password

	from huf.ai.run.runs import queue_run
	from tests.site.conftest import as_user

	agent = fixtures.agent(llm, name="Realtime Runs Agent")
	user = make_user("spa-live@huf.test", ["Huf User"])
	frappe.db.delete("Agent Run", {"user": user})
	update_password(user, "huf-Test-pw-1")
	frappe.db.commit()
	context = browser.new_context(base_url=realtime.base, extra_http_headers={"X-Frappe-Site-Name": realtime.site})
	page = context.new_page()
	page.set_default_timeout(30_000)
	assert page.request.post("/api/method/login", data={"usr": user, "pwd": "huf-Test-pw-1"}).ok
	with page.expect_websocket(lambda ws: "/socket.io/" in ws.url) as connected:  # the app connects
		page.goto("/huf/runs")
	page.get_by_text("No runs yet").wait_for()
	assert connected.value.url.startswith(f"ws://127.0.0.1:{frappe.conf.socketio_port or 9000}/")

	# No run is going, so the list does not poll: only the realtime server can bring this one in, by
	# its event, or, when the run came before the server let the page listen (it first asks the site
	# who is signed in), by the list read again once it does.
	with as_user(user):
		run = queue_run(agent, "are you there?")["run"]
	frappe.db.commit()  # agent_run_status is sent to the owner after commit
	expect(page.locator(f'a[href="/huf/runs/{run}"]')).to_be_visible(timeout=15_000)
	context.close()


def test_a_person_attaches_a_file_and_the_agent_reads_it(site, llm, workers, web, signed_in, tmp_path):
	agent = fixtures.agent(llm, name="SPA Files Agent", allow_chat=1, allow_file_attachments=1)
	user = make_user("spa-files@huf.test", ["Huf User"])
	notes = tmp_path / "meeting-notes.txt"
	notes.write_text("Decision: ship the beta on Friday.")
	llm.script(text("You decided to ship the beta on Friday."))
	workers.start(1)
	page = signed_in(user)
	page.goto(f"/huf/chat/{agent.replace(' ', '%20')}")
	page.get_by_test_id("attach-input").set_input_files(str(notes))
	expect(page.get_by_role("button", name="Remove meeting-notes.txt")).to_be_visible()
	page.get_by_label(f"Message to {agent}").fill("What did we decide?")
	page.get_by_role("button", name="Send").click()
	page.get_by_test_id("answer").filter(has_text="ship the beta on Friday").wait_for()
	expect(page.get_by_role("list", name="Attached files").get_by_role("link", name="meeting-notes.txt")).to_be_visible()
	sent = llm.chat_requests[-1]["body"]["messages"][-1]["content"]
	assert sent.startswith("What did we decide?") and "Decision: ship the beta on Friday." in sent
	page.reload()  # from the stored history, the file is still shown with the message
	expect(page.get_by_role("list", name="Attached files").get_by_role("link", name="meeting-notes.txt")).to_be_visible()
	shot(page, "chat-attachment")


def test_stop_try_again_and_a_dropped_connection_in_chat(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="SPA Stop Agent", allow_chat=1)
	user = make_user("spa-stop@huf.test", ["Huf User"])
	words = " ".join(f"w{i}" for i in range(1, 13))
	llm.script(
		text("one two three four five six seven eight nine ten", chunks=10, delay=0.5),
		text(words, chunks=12, delay=0.6),
	)
	workers.start(1)
	page = signed_in(user)
	attaches = []  # each time the app (re)connects to a run's stream: (run, Last-Event-ID it sent)
	page.on("request", lambda r: "/huf/stream/run/" in r.url and attaches.append((r.url.rsplit("/", 1)[-1], r.headers.get("last-event-id"))))
	page.goto(f"/huf/chat/{agent.replace(' ', '%20')}")
	page.get_by_label(f"Message to {agent}").fill("count slowly")
	page.keyboard.press("Enter")
	page.get_by_test_id("answer").filter(has_text="two").wait_for()
	page.get_by_role("button", name="Stop").click()
	stopped = page.locator('[data-testid="answer"][data-status="cancelled"]')
	expect(stopped.get_by_text("Stopped.")).to_be_visible(timeout=15_000)
	assert "ten" not in stopped.inner_text()

	# Try again sends the same question; halfway through, the connection to the server drops.
	stopped.get_by_role("button", name="Try again").click()
	page.get_by_test_id("answer").filter(has_text="w3").wait_for()
	web.restart()  # every open connection drops; the run goes on in its worker
	final = page.get_by_test_id("answer").filter(has_text="w12")
	expect(final.get_by_test_id("usage")).to_be_visible(timeout=30_000)
	assert final.locator(".prose-chat").inner_text().strip() == words  # nothing lost, nothing twice
	runs = list(dict.fromkeys(run for run, _ in attaches))  # the stopped run, then the one tried again
	ids = [last_id for run, last_id in attaches if run == runs[-1]]
	assert len(runs) == 2 and ids[0] == "0-0" and len(ids) >= 2 and "0-0" not in ids[1:], attaches  # resumed after what it had
	asked = [m for m in llm.chat_requests if m["body"]["messages"][-1]["content"] == "count slowly"]
	assert len(asked) == 2


def test_leaving_the_agent_editor_with_unsaved_changes_asks_first(site, llm, web, signed_in):
	agent = fixtures.agent(llm, name="SPA Guarded Agent", allow_chat=1)
	page = signed_in(make_user("spa-guard@huf.test", ["Huf Manager"]))
	page.goto(f"/huf/agents/{agent.replace(' ', '%20')}")
	form = page.get_by_role("form", name="Agent settings")
	form.get_by_label("Description", exact=True).fill("A change nobody saved")
	page.get_by_role("navigation", name="Main").get_by_role("link", name="Runs").click()
	guard = page.get_by_role("alertdialog")
	expect(guard).to_contain_text("unsaved changes")
	guard.get_by_role("button", name="Stay").click()
	expect(form.get_by_label("Description", exact=True)).to_have_value("A change nobody saved")
	page.get_by_role("navigation", name="Main").get_by_role("link", name="Runs").click()
	page.get_by_role("alertdialog").get_by_role("button", name="Leave").click()
	page.get_by_role("heading", name="Runs").wait_for()
	frappe.db.commit()
	assert not frappe.db.get_value("Agent", agent, "description")


def test_a_manager_builds_a_knowledge_source_and_a_reader_searches_it(site, llm, workers, web, signed_in, tmp_path):
	if frappe.db.exists("Knowledge Source", "E2E Handbook"):
		frappe.delete_doc("Knowledge Source", "E2E Handbook", force=True)
		frappe.db.commit()
	manager = make_user("spa-knowledge@huf.test", ["Huf Manager"])
	workers.start(1)
	page = signed_in(manager)
	page.goto("/huf/knowledge")
	page.get_by_role("heading", name="Knowledge", exact=True).wait_for()
	page.get_by_role("button", name="New source").click()
	dialog = page.get_by_role("dialog")
	dialog.get_by_label("How to search").select_option("sqlite_vec")
	dialog.get_by_role("button", name="Create source").click()
	expect(dialog.get_by_text("Give the source a name.")).to_be_visible()
	expect(dialog.get_by_text("Name the model, e.g.")).to_be_visible()  # meaning search asks for its model
	dialog.get_by_label("How to search").select_option("sqlite_fts")
	dialog.get_by_label("Name").fill("E2E Handbook")
	dialog.get_by_role("button", name="Create source").click()
	page.get_by_role("heading", name="E2E Handbook").wait_for()

	page.get_by_role("tab", name="Text").click()
	page.get_by_label("Title").fill("Leave rules")
	page.get_by_label("Text", exact=True).fill("Every employee has 25 days of paid annual leave per year.")
	page.get_by_role("button", name="Add", exact=True).click()
	expect(page.get_by_text("Added. It is being read and indexed now.")).to_be_visible()
	notes = tmp_path / "expenses.md"
	notes.write_text("Travel expenses are paid back within 10 days.")
	page.get_by_role("tab", name="Upload files").click()
	page.get_by_test_id("knowledge-files").set_input_files(str(notes))
	bar = page.get_by_role("progressbar", name="Indexed E2E Handbook: 2 of 2 documents")
	expect(bar).to_be_visible(timeout=60_000)
	assert bar.get_attribute("aria-valuenow") == "2"
	shot(page, "knowledge-source")

	reader = make_user("spa-knowledge-reader@huf.test", ["Huf User"])
	page = signed_in(reader)
	page.goto("/huf/knowledge")
	page.get_by_role("link", name="E2E Handbook").click()
	assert page.get_by_role("button", name="New source").count() == 0 and page.get_by_role("tab", name="Text").count() == 0
	page.get_by_label("Search this source").fill("how many days of leave")
	page.get_by_role("button", name="Search").click()
	expect(page.get_by_role("list", name="Search results").get_by_text("25 days of paid annual leave")).to_be_visible()
