"""A person chatting in a real browser: Agent Chat in the Desk and the /huf/stream try-out page."""

from __future__ import annotations

import json
import time

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text, tool_calls

ANSWER = "Here is **the count**: one two three four five six."


def run_status(conversation: str) -> str | None:
	frappe.db.commit()
	return frappe.db.get_value("Agent Run", {"conversation": conversation, "parent_run": ["is", "not set"]}, "status")


def open_chat(page, agent: str):
	page.goto("/app/agent-chat")
	page.locator('[data-huf="agent"]').select_option(agent)


def send_in_chat(page, agent: str, message: str) -> None:
	"""In Agent Chat: pick the agent, write the message, press Send."""
	open_chat(page, agent)
	page.get_by_label("Message").fill(message)
	page.get_by_role("button", name="Send").click()


def test_desk_chat_streams_shows_tools_survives_a_closed_tab_and_takes_a_rating(site, llm, workers, web, signed_in):
	fixtures.tool("huf_e2e_list", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Browser Chat Agent", allow_chat=1, tools=("huf_e2e_list",))
	user = make_user("desk-chatter@huf.test", ["Huf User"])
	llm.script(
		tool_calls([("c1", "huf_e2e_list", json.dumps({"limit": 1}))]),
		text(ANSWER, chunks=8, delay=0.5),
	)
	workers.start(1)
	page = signed_in(user)
	send_in_chat(page, agent, "Count to six")

	# the first run of the browser tests: a new worker imports LiteLLM before it answers
	page.locator(".huf-chip", has_text="huf_e2e_list").wait_for(timeout=60_000)
	page.locator(".huf-msg.agent", has_text="Here is").wait_for()
	conversation = frappe.db.get_value("Agent Conversation", {"agent": agent, "user": user}, "name")
	assert run_status(conversation) == "Started"  # text is on screen while the run is still going

	page.close()  # the tab closes mid-answer; the run goes on
	again = signed_in(user)
	open_chat(again, agent)
	wait_for(lambda: run_status(conversation) == "Success", message="the run to finish")
	final = again.locator(".huf-msg.agent", has_text="one two three four five six")
	final.get_by_role("button", name="Good answer").wait_for()  # the finished answer, from the history
	assert final.locator("strong").inner_text() == "the count"  # markdown, rendered
	assert again.locator(".huf-chip", has_text="huf_e2e_list: done").count() == 1

	final.get_by_role("button", name="Good answer").click()
	expect(final.get_by_role("button", name="Good answer")).to_have_attribute("aria-pressed", "true")
	reply = frappe.db.get_value("Agent Message", {"conversation": conversation, "role": "agent", "kind": "Message"}, "name")
	rated = wait_for(lambda: frappe.db.get_value("Agent Run Feedback", {"owner": user, "agent_message": reply}, "feedback"), 10)
	assert rated == "Thumbs Up"


def test_model_text_is_shown_never_run(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="Markup Agent", allow_chat=1)
	user = make_user("markup@huf.test", ["Huf User"])
	llm.script(text('Look: <img src="x" onerror="window.hufPwned=1"><script>window.hufPwned=2</script> [link](javascript:window.hufPwned=3)'))
	workers.start(1)
	page = signed_in(user)
	send_in_chat(page, agent, "show me")
	wait_for(lambda: run_status(frappe.db.get_value("Agent Conversation", {"agent": agent, "user": user}, "name")) == "Success")
	bubble = page.locator(".huf-msg.agent", has_text="Look:")
	bubble.wait_for()  # the reloaded history, after the live one
	assert bubble.locator("img, script").count() == 0
	assert not [a for a in bubble.locator("a").all() if (a.get_attribute("href") or "").lower().startswith("javascript")]
	assert page.evaluate("window.hufPwned") is None


def test_try_out_page_streams_an_answer_and_can_stop_it(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="Try Out Agent")
	user = make_user("tryout@huf.test", ["Huf User"])
	llm.script(text("alpha beta gamma", chunks=3, delay=0.3), text("one two three four five six seven eight nine ten", chunks=10, delay=0.5))
	workers.start(1)
	page = signed_in(user)
	page.goto("/huf/stream")
	page.get_by_label("Agent", exact=True).select_option(agent)
	page.get_by_label("Message").fill("Say three words")
	page.get_by_role("button", name="Send").click()
	page.locator("#answer", has_text="alpha").wait_for()
	first_text = time.monotonic()
	page.get_by_role("status").filter(has_text="Done.").wait_for()
	assert page.locator("#answer").inner_text() == "alpha beta gamma"
	assert time.monotonic() - first_text > 0.3  # the first words were on screen well before the end
	assert "tokens" in page.locator("#usage").inner_text()

	page.get_by_label("Message").fill("Count to ten")
	page.get_by_role("button", name="Send").click()
	page.locator("#answer", has_text="two").wait_for()
	page.get_by_role("button", name="Stop").click()
	page.get_by_role("status").filter(has_text="Stopped.").wait_for()
	assert "ten" not in page.locator("#answer").inner_text()


def test_a_visitor_who_is_not_signed_in_can_try_an_agent_open_to_guests(site, llm, workers, web, browser):
	agent = fixtures.agent(llm, name="Guest Try Agent", allow_guest=1)
	llm.script(text("hello visitor", chunks=2, delay=0.2))
	workers.start(1)
	context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site})
	try:
		page = context.new_page()
		page.goto("/huf/stream")
		assert page.get_by_role("link", name="Sign in").count() == 1
		assert page.get_by_role("button", name="Stop").count() == 0  # a visitor cannot stop runs
		page.get_by_label("Agent", exact=True).select_option(agent)
		page.get_by_label("Message").fill("hi")
		page.get_by_role("button", name="Send").click()
		page.get_by_role("status").filter(has_text="Done.").wait_for(timeout=30_000)
		assert page.locator("#answer").inner_text() == "hello visitor"
	finally:
		context.close()
