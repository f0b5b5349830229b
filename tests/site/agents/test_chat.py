"""Chat APIs: only agents with Allow Chat, paged history, ownership, new conversations, ratings and
conversation titles named in the background."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.agent.chat import get_agent_chat_messages, get_chat_agents, get_chat_conversations, send_agent_chat_message
from huf.ai.agent.feedback import rate_agent_message
from huf.ai.agent.integration import run_agent_sync
from huf.ai.run.titles import clean_title, name_conversation
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
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
		assert page["mine"] is True
		older = get_agent_chat_messages(conversation, before_sequence=page["messages"][0]["sequence"], limit=50)
		assert [m["content"] for m in older["messages"]] == ["m0", "re: m0", "m1", "re: m1"] and not older["has_more"]
	with as_user(make_user("snoop@huf.test", ["Huf User"])):
		with pytest.raises(frappe.PermissionError):
			get_agent_chat_messages(conversation)
		with pytest.raises(frappe.PermissionError):
			send_agent_chat_message(agent, "me too", conversation_id=conversation)
	with as_user(make_user("chat-manager@huf.test", ["Huf Manager"])):  # sees every run: reads it, as not theirs
		page = get_agent_chat_messages(conversation, limit=2)
		assert [m["content"] for m in page["messages"]] == ["m3", "re: m3"] and page["mine"] is False


def test_new_conversation_starts_fresh_and_a_refused_message_leaves_nothing(site, llm):
	agent = fixtures.agent(llm, name="Fresh Chat Agent", allow_chat=1)
	owner = make_user("fresh@huf.test", ["Huf User"])
	llm.respond_with(lambda body: text("ok"))
	with as_user(owner):
		first = run_agent_sync(agent, "one", channel_id="chat", now=True)["conversation"]
		before = frappe.db.count("Agent Conversation", {"agent": agent})
		with pytest.raises(frappe.ValidationError, match="empty"):
			send_agent_chat_message(agent, "   ", new_conversation=1)
		frappe.db.rollback()  # what the web request does with a refusal
		assert frappe.db.count("Agent Conversation", {"agent": agent}) == before
		fresh = send_agent_chat_message(agent, "two", new_conversation=1)
		frappe.db.commit()
		assert fresh["conversation"] != first
		listed = [c["name"] for c in get_chat_conversations(agent)]
		assert listed[:2] == [fresh["conversation"], first]
		page = get_agent_chat_messages(fresh["conversation"])
		assert page["active_run"] == fresh["run"]  # queued: a reopened page follows it
		agents = {a["name"]: a for a in get_chat_agents()}
		assert agents[agent]["conversation_memory"] == 0  # no memory panel for an agent without memory
	with as_user(make_user("snoop@huf.test", ["Huf User"])):
		assert get_chat_conversations(agent) == []


def test_a_user_rates_replies_of_their_own_conversations_only(site, llm):
	agent = fixtures.agent(llm, name="Rated Agent", allow_chat=1)
	owner = make_user("rater@huf.test", ["Huf User"])
	llm.script(text("an answer"))
	with as_user(owner):
		result = run_agent_sync(agent, "question", channel_id="chat", now=True)
		reply = frappe.db.get_value("Agent Message", {"agent_run": result["run"], "role": "agent"}, "name")
		question = frappe.db.get_value("Agent Message", {"agent_run": result["run"], "role": "user"}, "name")
		saved = rate_agent_message(reply, "Thumbs Down", "too short")
		again = rate_agent_message(reply, "Thumbs Up")  # rating again changes the rating
		assert again["name"] == saved["name"] and again["feedback"] == "Thumbs Up" and again["comments"] is None
		row = frappe.db.get_value("Agent Run Feedback", saved["name"], ["agent", "provider", "model", "conversation", "owner"], as_dict=True)
		assert row == {"agent": agent, "provider": "Scripted", "model": "scripted-model", "conversation": result["conversation"], "owner": owner}
		page = get_agent_chat_messages(result["conversation"])
		assert [m["feedback"] for m in page["messages"] if m["name"] == reply] == ["Thumbs Up"]
		with pytest.raises(frappe.ValidationError, match="agent's replies"):
			rate_agent_message(question, "Thumbs Up")
		with pytest.raises(frappe.ValidationError, match="Thumbs Up or Thumbs Down"):
			rate_agent_message(reply, "Meh")
		with pytest.raises(frappe.DoesNotExistError):
			rate_agent_message("no-such-message", "Thumbs Up")
	for other in ("Administrator", make_user("critic@huf.test", ["Huf User"])):  # managers included
		with as_user(other), pytest.raises(frappe.PermissionError):
			rate_agent_message(reply, "Thumbs Down")
	frappe.db.commit()
	assert frappe.db.count("Agent Run Feedback", {"agent_message": reply}) == 1


def test_conversations_are_named_in_the_background_and_the_naming_is_recorded(site, llm, workers):
	agent = fixtures.agent(llm, name="Naming Agent", allow_chat=1, autonaming_of_conversation_title=1)
	llm.respond_with(
		lambda body: text('Title: "Quarterly sales figures."', usage=(30, 6, 0))
		if "title of at most six words" in body["messages"][0]["content"]
		else text("Sales went up 4%.")
	)
	workers.start(1)
	result = run_agent_sync(agent, "How did sales do this quarter?", channel_id="chat", now=True)
	def named():
		title = frappe.db.get_value("Agent Conversation", result["conversation"], "title")
		return title if title != "New conversation" else None

	assert wait_for(named, 90, message="the conversation title") == "Quarterly sales figures"  # a worker booting on a busy machine
	naming = frappe.get_all(
		"Agent Run", filters={"parent_run": result["run"], "channel": "title"}, fields=["status", "total_tokens", "conversation", "response"]
	)
	assert len(naming) == 1 and naming[0].status == "Success" and naming[0].total_tokens == 36
	assert "How did sales do this quarter?" in llm.chat_requests[-1]["body"]["messages"][1]["content"]
	# a second run does not rename it, and a title someone typed is never replaced
	run_agent_sync(agent, "And last quarter?", conversation_id=result["conversation"], now=True)
	frappe.db.set_value("Agent Conversation", result["conversation"], "title", "My own title")
	frappe.db.commit()
	assert name_conversation(result["conversation"], result["run"]) is None
	assert frappe.db.get_value("Agent Conversation", result["conversation"], "title") == "My own title"
	assert frappe.db.count("Agent Run", {"parent_run": result["run"], "channel": "title"}) == 1


def test_titles_are_cleaned_of_labels_quotes_and_trailing_stops():
	assert clean_title('Title: "Refund for order 42."\nMore text') == "Refund for order 42"
	assert clean_title("  **Weekly plan**  ") == "Weekly plan"
	assert clean_title("") == ""
	assert len(clean_title("word " * 40)) <= 80


def test_a_title_run_whose_worker_died_is_failed_by_the_sweep(site, llm):
	from frappe.utils import add_to_date, now_datetime

	from huf.ai.run import event_log
	from huf.ai.run.rows import insert_row
	from huf.ai.run.runs import sweep_stale_runs

	agent = fixtures.agent(llm, name="Orphan Title Agent", autonaming_of_conversation_title=1)
	started = {"agent": agent, "user": "Administrator", "channel": "title", "status": "Started", "prompt": "x", "parent_run": "the-run-it-names"}
	stale = insert_row("Agent Run", {**started, "started_at": add_to_date(now_datetime(), minutes=-11)})
	fresh = insert_row("Agent Run", {**started, "started_at": now_datetime()})
	frappe.db.commit()
	runs_before = frappe.db.get_value("Agent", agent, "total_run")
	sweep_stale_runs()
	assert frappe.db.get_value("Agent Run", stale, ["status", "error_kind"]) == ("Failed", "worker_lost")
	assert frappe.db.get_value("Agent Run", fresh, "status") == "Started"
	# whoever follows the run hears that it ended (the stream's last event), and it is not one of the agent's runs
	final = [data for _id, name, data in event_log.read(event_log.log_key(stale), "0-0", 0) if name == "status"]
	assert final and final[-1]["status"] == "Failed" and "stopped before it finished" in final[-1]["error"]
	assert frappe.db.get_value("Agent", agent, "total_run") == runs_before
