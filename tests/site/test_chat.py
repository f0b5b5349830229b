"""Chat APIs: only agents with Allow Chat, paged history, ownership."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.agent.chat import get_agent_chat_messages, send_agent_chat_message
from huf.ai.agent.integration import run_agent_sync
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text


def test_chat_needs_an_agent_that_allows_chat(site, llm):
	agent = fixtures.agent(llm, name="No Chat Agent", allow_chat=0)
	with pytest.raises(frappe.ValidationError, match="not open for chat"):
		send_agent_chat_message(agent, "hi")


def test_history_pages_back_and_only_the_owner_reads_it(site, llm):
	agent = fixtures.agent(llm, name="Chat Agent", allow_chat=1)
	owner = make_user("chatter@huf.test", ["Huf User"])
	llm.respond_with(lambda body: text("re: " + body["messages"][-1]["content"]))
	with as_user(owner):
		queued = send_agent_chat_message(agent, "m0")
		assert queued["status"] == "Queued"
		conversation = queued["conversation"]
		frappe.db.commit()
		for i in range(1, 4):
			run_agent_sync(agent, f"m{i}", conversation_id=conversation, now=True)  # runs m0 first, in order
		page = get_agent_chat_messages(conversation, limit=4)
		assert [m["content"] for m in page["messages"]] == ["m2", "re: m2", "m3", "re: m3"] and page["has_more"]
		older = get_agent_chat_messages(conversation, before_sequence=page["messages"][0]["sequence"], limit=50)
		assert [m["content"] for m in older["messages"]] == ["m0", "re: m0", "m1", "re: m1"] and not older["has_more"]
	with as_user(make_user("snoop@huf.test", ["Huf User"])):
		with pytest.raises(frappe.PermissionError):
			get_agent_chat_messages(conversation)
		with pytest.raises(frappe.PermissionError):
			send_agent_chat_message(agent, "me too", conversation_id=conversation)
