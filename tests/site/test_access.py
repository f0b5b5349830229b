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
