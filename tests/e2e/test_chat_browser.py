"""A person chatting in a real browser. There is one chat, the web app's (/huf/chat): Agent Chat in
the Desk and the old /huf/stream try-out address both open it, signed in as the same person."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, quote, urlparse

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text, tool_calls

ANSWER = "Here is **the count**: one two three four five six."


def run_status(conversation: str | None) -> str | None:
	"""The status of the conversation's top run; None until the conversation exists (a None filter
	would match any run without a conversation, a flow's or a trigger's)."""
	frappe.db.commit()
	if not conversation:
		return None
	return frappe.db.get_value("Agent Run", {"conversation": conversation, "parent_run": ["is", "not set"]}, "status")


def conversation_of(agent: str, user: str) -> str | None:
	frappe.db.commit()  # a fresh snapshot: the page's message may have made it just now
	return frappe.db.get_value("Agent Conversation", {"agent": agent, "user": user}, "name")


def send(page, agent: str, message: str) -> None:
	page.get_by_label(f"Message to {agent}").fill(message)
	page.get_by_role("button", name="Send").click()


def test_desk_agent_chat_opens_the_chat_for_its_agent_and_conversation(site, llm, workers, web, signed_in):
	fixtures.tool("huf_e2e_list", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Browser Chat Agent", allow_chat=1, tools=("huf_e2e_list",))
	fixtures.agent(llm, name="Another Chat Agent", allow_chat=1)  # listed first: the link's agent must win
	user = make_user("desk-chatter@huf.test", ["Huf User"])
	llm.script(
		tool_calls([("c1", "huf_e2e_list", json.dumps({"limit": 1}))]),
		text(ANSWER, chunks=8, delay=0.5),
	)
	workers.start(1)
	page = signed_in(user)
	page.goto(f"/app/agent-chat?agent={quote(agent)}")
	page.wait_for_url(f"**/huf/chat/{quote(agent)}")  # the Desk page hands over to the web app's chat
	expect(page.get_by_label("Agent", exact=True)).to_have_value(agent)
	send(page, agent, "Count to six")

	# the first run of the browser tests: a new worker imports LiteLLM before it answers
	page.get_by_test_id("tool-step").filter(has_text="huf_e2e_list").wait_for(timeout=60_000)
	page.get_by_test_id("answer").filter(has_text="Here is").wait_for()
	conversation = conversation_of(agent, user)
	assert run_status(conversation) == "Started"  # text is on screen while the run is still going

	page.close()  # the tab closes mid-answer; the run goes on
	again = signed_in(user)
	again.goto(f"/app/agent-chat?agent={quote(agent)}&conversation={conversation}")
	again.wait_for_url(f"**/huf/chat/{quote(agent)}/{conversation}")
	wait_for(lambda: run_status(conversation) == "Success", message="the run to finish")
	final = again.get_by_test_id("answer").filter(has_text="one two three four five six")
	expect(final.get_by_test_id("usage")).to_be_visible(timeout=30_000)  # the finished answer
	assert final.locator("strong").inner_text() == "the count"  # markdown, rendered
	expect(final.get_by_test_id("tool-step")).to_contain_text("Done")

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
	page.goto(f"/huf/chat/{quote(agent)}")
	send(page, agent, "show me")
	wait_for(lambda: run_status(conversation_of(agent, user)) == "Success")
	bubble = page.get_by_test_id("answer").filter(has_text="Look:")
	expect(bubble).to_have_attribute("data-status", "done")
	assert bubble.locator("img, script").count() == 0
	assert not [a for a in bubble.locator("a").all() if (a.get_attribute("href") or "").lower().startswith("javascript")]
	assert page.evaluate("window.hufPwned") is None


def test_the_try_out_address_opens_the_chat_where_an_answer_streams_and_stops(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="Try Out Agent", allow_chat=1)
	user = make_user("tryout@huf.test", ["Huf User"])
	llm.script(text("alpha beta gamma", chunks=3, delay=0.3), text("one two three four five six seven eight nine ten", chunks=10, delay=0.5))
	workers.start(1)
	page = signed_in(user)
	page.goto(f"/huf/stream?agent={quote(agent)}")
	page.wait_for_url(f"**/huf/chat/{quote(agent)}")
	send(page, agent, "Say three words")
	answer = page.get_by_test_id("answer").filter(has_text="alpha")
	answer.wait_for()
	expect(answer.get_by_test_id("usage")).to_contain_text("tokens", timeout=30_000)
	assert answer.locator(".prose-chat").inner_text().strip() == "alpha beta gamma"

	send(page, agent, "Count to ten")
	counting = page.get_by_test_id("answer").filter(has_text="two")
	counting.wait_for()
	page.get_by_role("button", name="Stop").click()
	expect(counting).to_have_attribute("data-status", "cancelled", timeout=30_000)
	assert "ten" not in counting.inner_text()


def test_a_visitor_who_is_not_signed_in_is_asked_to_sign_in_then_chats(site, llm, web, browser):
	agent = fixtures.agent(llm, name="Visitor Chat Agent", allow_chat=1)
	user = make_user("visitor-chat@huf.test", ["Huf User"])
	from frappe.utils.password import update_password

	update_password(user, "huf-Test-pw-1")
	frappe.db.commit()
	context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site})
	try:
		page = context.new_page()
		page.goto(f"/huf/stream?agent={quote(agent)}")
		page.wait_for_url("**/login**")
		assert parse_qs(urlparse(page.url).query)["redirect-to"] == ["/huf/chat?agent=Visitor+Chat+Agent"]
		page.locator("#login_email").fill(user)
		page.locator("#login_password").fill("huf-Test-pw-1")
		page.locator(".btn-login").first.click()
		page.wait_for_url(f"**/huf/chat/{quote(agent)}", timeout=30_000)
		expect(page.get_by_label(f"Message to {agent}")).to_be_visible()
	finally:
		context.close()
