"""A tool marked Requires approval, in a real browser: the chat asks the person before the tool runs,
and the run goes on on the worker after they click Approve, or Reject with a comment the model reads."""

from __future__ import annotations

import json
from urllib.parse import quote

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text, tool_calls

TOOL = "huf_e2e_approved_todo"
ASKS = "The assistant wants to run Huf e2e approved todo. Allow it?"


def create(call: str, description: str):
	return tool_calls([(call, TOOL, json.dumps({"data": {"description": description}}))])


def send(page, agent: str, message: str) -> None:
	page.get_by_label(f"Message to {agent}").fill(message)
	page.get_by_role("button", name="Send").click()


def todo_of(user: str, description: str) -> str | None:
	frappe.db.commit()
	return frappe.db.get_value("ToDo", {"description": description, "owner": user}, "name")


def test_the_person_approves_one_call_and_rejects_another_in_the_chat(site, llm, workers, web, signed_in):
	fixtures.tool(TOOL, "Create Document", "ToDo", requires_approval=1)
	agent = fixtures.agent(llm, name="Browser Approval Agent", allow_chat=1, tools=(TOOL,))
	user = make_user("browser-approver@huf.test", ["Huf User", "System Manager"])
	wanted, unwanted = f"call the plumber {frappe.generate_hash(length=6)}", f"sell the car {frappe.generate_hash(length=6)}"
	llm.script(create("c1", wanted), text("Your ToDo is made."), create("c2", unwanted), text("All right, I left the car alone."))
	workers.start(1)
	page = signed_in(user)
	page.goto(f"/huf/chat/{quote(agent)}")

	send(page, agent, "Remind me to call the plumber")
	card = page.get_by_test_id("tool-approval").filter(has_text=wanted)
	expect(card).to_contain_text(ASKS, timeout=60_000)  # the first run of a new worker imports LiteLLM first
	assert not todo_of(user, wanted)  # nothing runs before the person answers
	card.get_by_role("button", name="Approve").click()
	expect(card).to_contain_text("You allowed Huf e2e approved todo.")
	expect(page.get_by_test_id("answer").filter(has_text="Your ToDo is made.")).to_have_attribute("data-status", "done", timeout=60_000)
	assert todo_of(user, wanted)

	send(page, agent, "And sell my car")
	card = page.get_by_test_id("tool-approval").filter(has_text=unwanted)
	expect(card).to_contain_text(ASKS, timeout=60_000)
	card.get_by_label("Comment (optional)").fill("Not the car, I still need it")
	card.get_by_role("button", name="Reject").click()
	expect(card).to_contain_text("You declined Huf e2e approved todo.")
	expect(page.get_by_test_id("answer").filter(has_text="I left the car alone")).to_have_attribute("data-status", "done", timeout=60_000)
	wait_for(lambda: llm.chat_requests and llm.chat_requests[-1]["body"]["messages"][-1]["role"] == "tool", 10, message="the model's last request")
	told = llm.chat_requests[-1]["body"]["messages"][-1]["content"]
	assert "declined" in told and "Not the car, I still need it" in told
	assert not todo_of(user, unwanted)
