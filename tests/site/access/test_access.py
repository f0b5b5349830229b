"""Who may run an agent and whose conversations and runs they can reach."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.agent.integration import get_agent_run_status, run_agent_sync
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text


@pytest.fixture
def people(site):
	return {
		"alice": make_user("alice@huf.test", ["Huf User"]),
		"bob": make_user("bob@huf.test", ["Huf User"]),
		"carol": make_user("carol@huf.test", ["Blogger"]),  # no Huf role at all
	}


def test_a_user_cannot_post_into_or_read_another_users_conversation(site, llm, people):
	agent = fixtures.agent(llm, name="Shared Agent")
	llm.script(text("hi alice"), text("hi bob"))
	with as_user(people["alice"]):
		alice = run_agent_sync(agent, "hello", now=True)
		assert alice["status"] == "Success"
	with as_user(people["bob"]):
		with pytest.raises(frappe.PermissionError):
			run_agent_sync(agent, "let me in", conversation_id=alice["conversation"])
		with pytest.raises(frappe.PermissionError):
			get_agent_run_status(alice["run"])
		assert not frappe.get_list("Agent Message", filters={"conversation": alice["conversation"]})
		assert not frappe.get_list("Agent Conversation", filters={"name": alice["conversation"]})
		assert not frappe.has_permission("Agent Run", "read", doc=alice["run"])
		bob = run_agent_sync(agent, "hello", now=True)
		assert bob["conversation"] != alice["conversation"]
	assert get_agent_run_status(alice["run"])["status"] == "Success"  # a manager sees every run


def test_users_and_roles_lists_narrow_who_may_run_an_agent(site, llm, people):
	agent = fixtures.agent(llm, name="Narrow Agent", agent_users=[{"user": people["alice"]}])
	llm.script(text("ok"))
	with as_user(people["bob"]):
		with pytest.raises(frappe.PermissionError, match="not allowed to run"):
			run_agent_sync(agent, "hi")
	with as_user(people["carol"]):
		with pytest.raises(frappe.PermissionError):
			run_agent_sync(agent, "hi")
	with as_user(people["alice"]):
		assert run_agent_sync(agent, "hi", now=True)["status"] == "Success"


def test_guests_only_reach_agents_that_allow_guests(site, llm):
	closed = fixtures.agent(llm, name="Closed Agent")
	open_agent = fixtures.agent(llm, name="Open Agent", allow_guest=1)
	with as_user("Guest"):
		with pytest.raises(frappe.PermissionError):
			run_agent_sync(closed, "hi")
		result = run_agent_sync(open_agent, "hi", now=True)
		assert result["status"] == "Queued"  # guests never run inline
		with pytest.raises(frappe.PermissionError):
			get_agent_run_status(result["run"])


def test_an_external_id_naming_another_user_never_reaches_their_conversation(site, llm, people):
	agent = fixtures.agent(llm, name="Scoped Agent")
	llm.respond_with(lambda body: text(f"seen {len(body['messages'])} messages"))
	with as_user(people["alice"]):
		alice = run_agent_sync(agent, "my secret plan", channel_id="chat", now=True)
	with as_user(people["bob"]):
		# Bob names Alice's email as his external id: he gets a conversation of his own, without her history
		bob = run_agent_sync(agent, "what did she say?", channel_id="chat", external_id=people["alice"], now=True)
		assert bob["conversation"] != alice["conversation"]
		assert frappe.db.get_value("Agent Conversation", bob["conversation"], "user") == people["bob"]
		sent = llm.chat_requests[-1]["body"]["messages"]
		assert not any("secret plan" in str(m.get("content")) for m in sent)
		# posting first, under the name Carol will use, does not take her future conversation either
		squat = run_agent_sync(agent, "waiting for carol", channel_id="chat", external_id="carol@huf.test", now=True)
	carol = make_user("carol2@huf.test", ["Huf User"])
	with as_user(carol):
		own = run_agent_sync(agent, "hello", channel_id="chat", now=True)
		assert own["conversation"] not in (squat["conversation"], bob["conversation"], alice["conversation"])
	with as_user(people["alice"]):  # Alice's own session still finds her conversation
		again = run_agent_sync(agent, "and now?", channel_id="chat", now=True)
		assert again["conversation"] == alice["conversation"]


@pytest.mark.parametrize("channel", ["trigger", "title", "TRIGGER", "no spaces please", "x" * 41])
def test_callers_cannot_name_huf_internal_or_malformed_channels(site, llm, people, channel):
	agent = fixtures.agent(llm, name="Channel Agent")
	before = frappe.db.count("Agent Run")
	with as_user(people["alice"]):
		with pytest.raises(frappe.ValidationError, match="Channel|channel"):
			run_agent_sync(agent, "join the trigger's conversation", channel_id=channel, external_id="Channel Agent: ToDo after_insert")
	assert frappe.db.count("Agent Run") == before


def test_the_migration_scopes_old_session_keys_to_their_owner(site, llm, people):
	from huf.patches import scope_conversation_sessions

	agent = fixtures.agent(llm, name="Migrated Agent")
	with as_user(people["alice"]):
		alice = run_agent_sync(agent, "mine", channel_id="chat", now=False)
	with as_user(people["bob"]):
		bob = run_agent_sync(agent, "hers?", channel_id="chat", external_id="partner-42", now=False)
	frappe.db.set_value("Agent Conversation", alice["conversation"], "session_id", f"{agent}:chat:{people['alice']}")
	frappe.db.set_value("Agent Conversation", bob["conversation"], "session_id", f"{agent}:chat:partner-42")
	scope_conversation_sessions.execute()
	assert frappe.db.get_value("Agent Conversation", alice["conversation"], "session_id") == f"{agent}:chat:{people['alice']}"
	assert frappe.db.get_value("Agent Conversation", bob["conversation"], "session_id") == f"{agent}:chat:{people['bob']}:ext:partner-42"
	with as_user(people["bob"]):
		assert run_agent_sync(agent, "same partner", channel_id="chat", external_id="partner-42")["conversation"] == bob["conversation"]
	frappe.db.rollback()
