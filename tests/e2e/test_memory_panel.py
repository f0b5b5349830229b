"""The memory side panel: what an agent with conversation memory saved during a chat, shown to the
conversation's owner, who changes or clears it; nobody else reads it, in the page or through the API."""

from __future__ import annotations

import json
from urllib.parse import quote

import frappe
from playwright.sync_api import expect

from huf.ai.agent_state import memory
from huf.ai.engine.memory import values
from tests.e2e.test_accessibility import AXE, RUN_AXE, WIDTH
from tests.e2e.test_chat_browser import conversation_of, run_status, send
from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text, tool_calls


def saving(key: str, value, reply: str) -> list:
	"""The model's answer: save ``key`` = ``value`` through the tool, then say ``reply``."""
	return [tool_calls([(f"save-{value}", "set_conversation_data", json.dumps({"key": key, "value": value}))]), text(reply)]


def remembered(conversation: str) -> dict:
	frappe.db.rollback()  # a fresh snapshot: what the web server committed
	return values(memory.read(conversation))


def test_the_memory_side_panel(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="Memory Panel Agent", allow_chat=1, enable_conversation_data=1)
	owner = make_user("memory-panel-owner@huf.test", ["Huf User"])
	other = make_user("memory-panel-other@huf.test", ["Huf User"])
	llm.script(*saving("city", "Porto", "Noted: Porto."), *saving("city", "Braga", "Noted: Braga."))
	workers.start(1)
	page = signed_in(owner)
	page.goto(f"/huf/chat/{quote(agent)}")
	send(page, agent, "I live in Porto")
	page.get_by_test_id("answer").filter(has_text="Noted: Porto.").wait_for(timeout=60_000)
	conversation = conversation_of(agent, owner)
	assert conversation, "the answer is on screen, so its conversation exists"
	wait_for(lambda: run_status(conversation) == "Success", message="the first run to finish")

	toggle = page.get_by_role("button", name="Memory", exact=True)
	expect(toggle).to_have_attribute("aria-expanded", "false")
	toggle.focus()
	page.keyboard.press("Enter")
	panel = page.get_by_role("region", name="Memory", exact=True)
	expect(panel).to_contain_text("What the agent remembers in this conversation.")
	city = panel.get_by_role("article", name="city")
	expect(city.locator("pre")).to_have_text('"Porto"')

	# the next answer saves again; the open panel shows it without a reload
	send(page, agent, "I moved to Braga")
	expect(city.locator("pre")).to_have_text('"Braga"', timeout=30_000)
	assert remembered(conversation) == {"city": "Braga"}

	# a phone, a tablet, a wide screen: the panel covers the chat, floats over it, sits beside it; the
	# page is never wider than the screen, and axe finds nothing serious
	page.add_script_tag(path=str(AXE))
	for size in (390, 900, 1400):
		page.set_viewport_size({"width": size, "height": 800})
		expect(panel).to_be_visible()
		expect(toggle).to_be_visible()
		width = page.evaluate(WIDTH)
		assert width["scroll"] <= width["client"], (size, width)
		assert page.evaluate(RUN_AXE) == [], size

	# someone else at the same address sees no memory, and the API says there is none
	stranger = signed_in(other)
	stranger.goto(f"/huf/chat/{quote(agent)}/{conversation}")
	expect(stranger.get_by_text("This conversation belongs to someone else.")).to_be_visible()
	expect(stranger.get_by_role("button", name="Memory", exact=True)).to_have_count(0)
	assert "Braga" not in stranger.inner_text("body")
	# a manager may read the conversation, but its memory is the owner's: no Memory button either
	reader = signed_in(make_user("memory-panel-manager@huf.test", ["Huf Manager"]))
	reader.goto(f"/huf/chat/{quote(agent)}/{conversation}")
	expect(reader.get_by_test_id("answer").filter(has_text="Noted: Braga.")).to_be_visible()
	expect(reader.get_by_role("button", name="Memory", exact=True)).to_have_count(0)
	refused = stranger.request.get("/api/method/huf.ai.agent_state.memory.get_conversation_memory", params={"conversation": conversation})
	assert refused.status == 404 and "Braga" not in refused.text()

	# the owner changes the value: text without quotes is refused in words, then saved as JSON
	city.get_by_role("button", name="Edit city").click()
	field = city.get_by_label("New value of city")
	expect(field).to_be_focused()
	field.fill("Lisbon")
	city.get_by_role("button", name="Save").click()
	expect(city).to_contain_text('Put text in quotes, like "Porto"')
	assert remembered(conversation) == {"city": "Braga"}
	field.fill('"Lisbon"')
	city.get_by_role("button", name="Save").click()
	expect(city.locator("pre")).to_have_text('"Lisbon"')
	assert remembered(conversation) == {"city": "Lisbon"}

	# and clears it, once confirmed
	city.get_by_role("button", name="Clear city").click()
	question = city.get_by_role("alertdialog")
	expect(question).to_contain_text("Clear “city”?")
	question.get_by_role("button", name="Clear it").click()
	expect(panel).to_contain_text("Nothing yet.")
	assert remembered(conversation) == {}

	page.get_by_role("button", name="Close memory").click()
	expect(panel).to_be_hidden()
	expect(toggle).to_be_focused()
