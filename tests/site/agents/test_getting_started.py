"""The chat page's first-screen guide (huf/ai/getting_started.py) and Huf's example (huf/examples):
the four steps as each person may see them, who may add the example, what it makes (once, never over
an edit), and a run of the example agent through the scripted model."""

from __future__ import annotations

import json

import frappe
import pytest

from huf import examples
from huf.ai import getting_started, seeding
from huf.ai.agent.integration import run_agent_sync
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.site.agents.test_seeding import writes_during
from tests.support.scripted_llm import text, tool_calls

TOOLS = ("example_list_todos", "example_get_todo", "example_list_notes")


def remove_example() -> None:
	"""The example as if nobody had ever added it (its records, their tracking rows, the agent's chats)."""
	for doctype in ("Agent Message", "Agent Run", "Agent Conversation"):
		frappe.db.delete(doctype, {"agent": examples.AGENT})
	for doctype, name in (
		("Agent", examples.AGENT), ("Flow Definition", examples.FLOW), ("Knowledge Source", examples.SOURCE),
		*(("Agent Tool Function", tool) for tool in TOOLS),
	):  # fmt: skip
		frappe.delete_doc_if_exists(doctype, name, force=True)
	frappe.db.delete(seeding.TRACK, {"app": examples.APP, "seed_file": ("like", "examples/%")})


@pytest.fixture
def no_example(site):
	remove_example()
	frappe.db.commit()
	yield
	frappe.db.rollback()
	remove_example()
	frappe.db.commit()


@pytest.fixture(scope="module")
def people(site):
	return frappe._dict(
		admin=make_user("start-admin@huf.test", ["System Manager"]),  # Huf Admin
		manager=make_user("start-manager@huf.test", ["Huf Manager"]),
		user=make_user("start-user@huf.test", ["Huf User"]),
		viewer=make_user("start-viewer@huf.test", ["Huf Viewer"]),
	)


def bare_site() -> None:
	"""A site nobody has set up (in this test's transaction only): no provider, no model, no agent open for chat."""
	frappe.db.delete("AI Model")
	frappe.db.delete("AI Provider")
	frappe.db.sql("update `tabAgent` set disabled = 1 where allow_chat = 1")


def steps(answer: dict) -> dict[str, tuple[bool, str | None]]:
	return {step["step"]: (step["done"], step["name"]) for step in answer["steps"]}


def chat_of(user: str) -> None:
	"""A chat of ``user`` with the example agent, as sending a first message makes it."""
	frappe.get_doc({"doctype": "Agent Conversation", "agent": examples.AGENT, "user": user, "channel": "chat"}).insert(
		ignore_permissions=True
	)


def checklist_of(user: str) -> dict:
	with as_user(user):
		return getting_started.get_checklist()


def test_an_admin_is_led_through_provider_model_agent_and_first_chat_in_order(no_example, people, llm):
	bare_site()
	answer = checklist_of(people.admin)
	assert steps(answer) == {"provider": (False, None), "model": (False, None), "agent": (False, None), "chat": (False, None)}
	assert answer["can_set_up"] and not answer["done"] and answer["helpers"] == []
	assert answer["example"] == {"added": False, "agent": None, "waiting_for_model": False}

	provider = fixtures.provider(llm, name="Start Provider")
	assert steps(checklist_of(people.admin))["provider"] == (True, "Start Provider")
	assert steps(checklist_of(people.admin))["model"] == (False, None)

	fixtures.model(provider, name="start-model")
	answer = checklist_of(people.admin)
	assert steps(answer)["model"] == (True, "start-model") and steps(answer)["agent"] == (False, None)

	with as_user(people.admin):
		added = getting_started.add_example()
	assert added == {"added": True, "agent": examples.AGENT, "waiting_for_model": False, "problems": []}
	answer = checklist_of(people.admin)
	assert steps(answer)["agent"] == (True, examples.AGENT) and steps(answer)["chat"] == (False, None)
	assert answer["example"] == {"added": True, "agent": examples.AGENT, "waiting_for_model": False}

	chat_of(people.admin)
	answer = checklist_of(people.admin)
	assert steps(answer)["chat"] == (True, None) and answer["done"]


def test_each_person_counts_only_what_they_may_read(no_example, people, llm):
	bare_site()
	# before anything exists, a Huf User learns who can set up Huf (never Administrator)
	answer = checklist_of(people.user)
	assert not answer["can_set_up"] and answer["example"] is None
	helpers = answer["helpers"]
	assert helpers and "Administrator" not in helpers and len(helpers) <= getting_started.HELPERS
	admin_name = frappe.db.get_value("User", people.admin, "full_name")
	holders = frappe.get_all(
		"Has Role", {"role": ("in", ["System Manager", "Huf Manager"]), "parenttype": "User"}, pluck="parent"
	)
	names = {
		u.full_name or u.name for u in frappe.get_all("User", {"name": ("in", holders), "enabled": 1}, ["name", "full_name"])
	}
	assert set(helpers) <= names  # people who may add providers
	if len(names - {"Administrator"}) <= getting_started.HELPERS:
		assert admin_name in helpers

	provider = fixtures.provider(llm, name="Start Provider")
	fixtures.model(provider, name="start-model")
	with as_user(people.admin):
		getting_started.add_example()
	chat_of(people.admin)
	assert checklist_of(people.admin)["done"]
	# the Huf User may chat with the example agent, but the admin's chat is not theirs to see
	answer = checklist_of(people.user)
	assert steps(answer) == {
		"provider": (True, "Start Provider"),
		"model": (True, "start-model"),
		"agent": (True, examples.AGENT),
		"chat": (False, None),
	}
	assert answer["helpers"] == []  # they have an agent: nobody to ask
	# an agent kept for other people is no agent for them
	agent = frappe.get_doc("Agent", examples.AGENT)
	agent.append("agent_users", {"user": people.admin})
	agent.save()
	answer = checklist_of(people.user)
	assert steps(answer)["agent"] == (False, None) and answer["helpers"]
	assert steps(checklist_of(people.admin))["agent"] == (True, examples.AGENT)
	# a Huf Viewer does not chat: refused, naming what they would need
	with as_user(people.viewer), pytest.raises(frappe.PermissionError, match='"agent.run"'):
		getting_started.get_checklist()


def test_only_who_may_add_providers_adds_the_example(no_example, people, llm):
	fixtures.model(fixtures.provider(llm))
	with as_user(people.user), pytest.raises(frappe.PermissionError, match='"provider.write"'):
		getting_started.add_example()
	assert not frappe.db.exists("Agent", examples.AGENT)
	with as_user(people.manager):
		assert getting_started.add_example()["added"]
	assert frappe.db.exists("Agent", examples.AGENT)


def test_the_example_is_made_once_and_never_over_an_edit(no_example, monkeypatch, llm):
	fixtures.model(fixtures.provider(llm))
	report = examples.seed()
	made = {line.split(" (")[0] for line in report["created"]}
	assert made == {
		f"Agent {examples.AGENT}", f"Knowledge Source {examples.SOURCE}", f"Flow Definition {examples.FLOW}", *(f"Agent Tool Function {t}" for t in TOOLS),
	}, report  # fmt: skip
	assert not report["skipped"] and not report["waiting"]

	agent = frappe.get_doc("Agent", examples.AGENT)
	assert (agent.disabled, agent.allow_chat) == (0, 1)
	assert frappe.db.get_value("AI Model", agent.model, ["provider", "disabled"]) == (agent.provider, 0)  # the site's model
	assert [row.tool for row in agent.agent_tool] == ["get_doctype_schema", "get_current_datetime", *TOOLS]
	assert [(row.knowledge_source, row.mode) for row in agent.agent_knowledge] == [(examples.SOURCE, "Optional")]
	for tool in TOOLS:
		assert frappe.db.get_value("Agent Tool Function", tool, "types") in ("Get List", "Get Document")  # reads only
	assert frappe.db.get_value("Knowledge Source", examples.SOURCE, "knowledge_type") == "sqlite_fts"  # no embedding model needed
	passages = frappe.get_all(
		"Knowledge Input",
		{"knowledge_source": examples.SOURCE},
		["name", "input_type", "title", "status"],
		order_by="creation asc",
	)
	assert len(passages) == 5 and {p.input_type for p in passages} == {"Text"} and {p.status for p in passages} == {"Pending"}
	assert passages[0].title == "What Huf is"
	flow = frappe.get_doc("Flow Definition", examples.FLOW)
	assert flow.status == "Draft" and len(json.loads(flow.definition_json)["nodes"]) == 4

	# a second time: nothing made, nothing written
	again: list[dict] = []
	assert writes_during(monkeypatch, lambda: again.append(examples.seed())) == []
	assert again[0]["created"] == [] and again[0]["updated"] == [] and again[0]["unchanged"] >= 6
	assert frappe.db.count("Knowledge Input", {"knowledge_source": examples.SOURCE}) == 5

	# someone edits the agent, removes a passage and deletes the flow; then Huf ships a new version
	agent.instructions = "Answer in French."
	agent.save()
	frappe.delete_doc("Knowledge Input", passages[0].name)
	frappe.delete_doc("Flow Definition", examples.FLOW, force=True)
	frappe.db.set_value(seeding.TRACK, {"app": "huf", "seed_file": ("like", "examples/%")}, "app_hash", "an older version")
	later = examples.seed()
	assert frappe.db.get_value("Agent", examples.AGENT, "instructions") == "Answer in French."
	assert not frappe.db.exists("Flow Definition", examples.FLOW)
	assert frappe.db.count("Knowledge Input", {"knowledge_source": examples.SOURCE}) == 4
	kept = "\n".join(later["kept"])
	assert f"Agent {examples.AGENT}" in kept and "changed from the app's version" in kept
	assert f"Flow Definition {examples.FLOW}" in kept and "deleted on this site" in kept
	assert f"Knowledge Source {examples.SOURCE} (huf/huf/examples/knowledge/about_huf.json)" in "\n".join(
		later["updated"]
	)  # unedited: the new version


def test_the_example_agent_answers_from_its_knowledge_and_the_sites_tasks(no_example, llm, workers, people):
	"""The example as a newcomer gets it: added, indexed by a worker, then a chat whose model (the
	scripted server) searches the passages and lists the person's ToDos with the example's tools."""
	fixtures.model(fixtures.provider(llm))
	examples.seed()
	frappe.db.set_value(
		"Agent", examples.AGENT, {"provider": "Scripted", "model": "scripted-model"}
	)  # the site's own choice of model: not an edit
	frappe.get_doc({"doctype": "ToDo", "description": "Water the plants in the lobby", "allocated_to": people.user}).insert()
	frappe.db.commit()
	workers.start(1)
	wait_for(
		lambda: frappe.db.get_value("Knowledge Source", examples.SOURCE, "status") == "Ready",
		timeout=90,
		message="the example's passages indexed",
	)
	assert frappe.db.count("Knowledge Input", {"knowledge_source": examples.SOURCE, "status": "Indexed"}) == 5

	llm.script(
		tool_calls([("k1", "knowledge_search", json.dumps({"query": "provider API key"}))]),
		tool_calls([("t1", "example_list_todos", json.dumps({"fields": ["name", "description"], "limit": 5}))]),
		text("Add a provider with its key; you have one task: water the plants."),
	)
	with as_user(people.user):
		result = run_agent_sync(examples.AGENT, "What is a provider, and what are my tasks?", now=True)
	assert result["status"] == "Success", result
	found = json.loads(llm.chat_requests[1]["body"]["messages"][-1]["content"])
	assert found["results"][0]["source"] == examples.SOURCE and "API key" in found["results"][0]["text"]
	todos = llm.chat_requests[2]["body"]["messages"][-1]["content"]
	assert "Water the plants in the lobby" in todos
	assert seeding.edited(frappe.get_doc(seeding.TRACK, {"app": "huf", "seed_key": examples.AGENT})) is False
	frappe.db.delete("ToDo", {"description": "Water the plants in the lobby"})
	frappe.db.commit()
