"""The builder assistant on a site (huf/ai/assistant/), against the scripted model server: a proposal
names only tools the person may use (one they may not is fed back as a problem, never invented), a
person without flow edit rights gets Explain but not Propose (a 403 naming the capability), an empty
or over-long request is refused with the limit before any model call, and a site without an
assistant model says how to set one up."""

from __future__ import annotations

import json

import frappe
import pytest
import requests

from huf.ai import event_log
from huf.ai.assistant import api, turns
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls

FLOW = "huf-test-assistant"
MANAGER = "assistant-manager@huf.test"
USER = "assistant-user@huf.test"
ALLOWED, REFUSED = "huf_test_assistant_todo", "huf_test_assistant_user"
CANVAS = {
	"id": FLOW,
	"nodes": [{"id": "hook", "type": "trigger.webhook", "data": {"label": "New lead", "config": {}}}],
	"edges": [],
}


def use_tool(tool: str) -> str:
	step = {
		"id": "tool_call_1",
		"type": "tool.call",
		"label": "Make a to-do",
		"config": {"tool": tool, "arguments": {"description": "Call back"}},
	}
	return json.dumps(
		{"summary": "Adds a to-do.", "add_steps": [step], "add_edges": [{"source": "hook", "target": "tool_call_1"}]}
	)


def progress_of(turn: str, user: str) -> list[tuple[str, str]]:
	batch, _ = event_log.attach(turns.log_name(turn, user), "0-0")
	return [(name, data.get("step") or data.get("status")) for _id, name, data in batch]


@pytest.fixture
def setup(site, llm):
	make_user(MANAGER, ["Huf Manager"])
	make_user(USER, ["Huf User"])
	model = fixtures.model(fixtures.provider(llm))
	fixtures.tool(ALLOWED, "Create Document", "ToDo")
	fixtures.tool(REFUSED, "Create Document", "User")
	frappe.db.set_single_value("Agent Settings", "assistant_model", model)
	if frappe.db.exists("Flow Definition", FLOW):
		frappe.delete_doc("Flow Definition", FLOW, force=True)
	frappe.get_doc(
		{"doctype": "Flow Definition", "flow_id": FLOW, "flow_name": "Assistant test", "definition_json": json.dumps(CANVAS)}
	).insert()
	frappe.db.commit()
	yield llm
	frappe.db.set_single_value("Agent Settings", "assistant_model", None)
	frappe.db.delete("Flow Run", {"flow_id": FLOW})
	frappe.delete_doc("Flow Definition", FLOW, force=True)
	for tool in (ALLOWED, REFUSED):
		frappe.delete_doc("Agent Tool Function", tool, force=True)
	frappe.db.commit()


def test_a_proposal_uses_only_tools_the_person_may_use(setup):
	llm = setup
	assert frappe.has_permission("ToDo", "create", user=MANAGER) and not frappe.has_permission("User", "create", user=MANAGER)
	llm.script(tool_calls([("c1", "list_tools", "{}")]), text(use_tool(REFUSED)), text(use_tool(ALLOWED)))
	with as_user(MANAGER):
		answer = api.propose_flow(FLOW, "When a lead comes in, make a to-do", turn="turn-allowed-1")

	assert answer["status"] == "ok" and answer["attempts"] == 2 and answer["model_calls"] == 3
	listed = json.loads(llm.chat_requests[1]["body"]["messages"][-1]["content"])
	names = {tool["name"] for tool in listed}
	assert ALLOWED in names and REFUSED not in names
	feedback = llm.chat_requests[2]["body"]["messages"][-1]["content"]
	assert f"may not create User records, so the tool '{REFUSED}' would be refused" in feedback
	assert [n["id"] for n in answer["result"]["nodes"]] == ["hook", "tool_call_1"] and answer["changes"]["added"] == [
		"tool_call_1"
	]
	steps = progress_of("turn-allowed-1", MANAGER)
	assert steps[0] == ("progress", "reading") and ("progress", "fixing") in steps and steps[-1] == ("status", "Success")
	assert progress_of("turn-allowed-1", USER) == []  # another person's session names another log


def test_a_person_without_flow_edit_rights_gets_explain_but_not_propose(setup):
	llm = setup
	run = frappe.get_doc(
		{
			"doctype": "Flow Run", "flow_definition": FLOW, "flow_id": FLOW, "status": "Failed", "user": USER,
			"last_error": "The tool huf_test_assistant_todo failed: Description is required",
			"steps": [{"hop": 1, "node_id": "hook", "node_label": "New lead", "node_type": "trigger.webhook", "status": "Failed", "error": "Description is required"}],
		}
	).insert(ignore_permissions=True)  # fmt: skip
	frappe.db.commit()
	with as_user(USER):
		with pytest.raises(frappe.PermissionError, match=r'"flow\.write"'):
			api.propose_flow(FLOW, "add a step")
		llm.script(text(json.dumps({"what_went_wrong": "The to-do had no description.", "what_to_change": "Fill description.", "step": "ghost"})),
			text(json.dumps({"what_went_wrong": "The to-do had no description.", "what_to_change": "Fill description.", "step": "hook"})))  # fmt: skip
		answer = api.explain_flow_run(run.name)
	assert answer["status"] == "ok" and answer["result"]["step"] == "hook" and answer["result"]["step_label"] == "New lead" and answer["attempts"] == 2
	assert "Description is required" in llm.chat_requests[0]["body"]["messages"][1]["content"]
	assert "The step 'ghost' is not one of this run's steps: hook." in llm.chat_requests[1]["body"]["messages"][-1]["content"]


def test_empty_and_over_long_requests_are_refused_with_the_limit_before_any_model_call(setup):
	llm = setup
	with as_user(MANAGER):
		with pytest.raises(frappe.ValidationError, match="Write what you want"):
			api.propose_flow(FLOW, "   ")
		with pytest.raises(frappe.ValidationError, match="4,001 characters long; the limit is 4,000"):
			api.propose_flow(FLOW, "x" * 4001)
		with pytest.raises(frappe.ValidationError, match="Write what you want"):
			api.draft_agent("")
	assert llm.chat_requests == []


def test_without_an_assistant_model_the_person_is_told_how_to_set_it_up(setup):
	frappe.db.set_single_value("Agent Settings", "assistant_model", None)
	frappe.db.commit()
	with as_user(MANAGER):
		assert api.assistant_status() == {"ready": False, "can_set_up": True}
		with pytest.raises(frappe.ValidationError, match="Builder Assistant Model"):
			api.propose_flow(FLOW, "add a step")
	with as_user(USER):
		assert api.assistant_status() == {"ready": False, "can_set_up": False}


def test_an_agent_draft_chooses_from_the_sites_models_and_the_persons_tools(setup):
	llm = setup
	draft = {"agent_name": "To-do maker", "instructions": "Make to-dos.", "model": "scripted-model", "tools": [ALLOWED, REFUSED]}
	llm.script(text(json.dumps(draft)), text(json.dumps({**draft, "tools": [ALLOWED]})))
	with as_user(MANAGER):
		answer = api.draft_agent("An agent that makes to-dos")
	assert answer["status"] == "ok" and answer["result"]["tools"] == [ALLOWED] and answer["result"]["model"] == "scripted-model"
	assert f"The tool '{REFUSED}' does not exist or you may not use it" in llm.chat_requests[1]["body"]["messages"][-1]["content"]


def test_progress_streams_through_the_chats_stream_to_its_person_only(setup, web):
	llm = setup
	llm.script(text(use_tool(ALLOWED)))
	headers = web.token_headers(MANAGER)
	answer = requests.post(
		f"{web.base}/api/method/huf.ai.assistant.api.propose_flow",
		json={"flow": FLOW, "request": "make a to-do", "turn": "turn-streamed-1"},
		headers=headers,
		timeout=60,
	)
	assert answer.status_code == 200 and answer.json()["message"]["status"] == "ok", answer.text
	with requests.get(f"{web.base}/huf/stream/assistant/turn-streamed-1", headers=headers, stream=True, timeout=30) as stream:
		body = stream.text
	events = [line.removeprefix("event: ") for line in body.splitlines() if line.startswith("event: ")]
	assert events == ["progress", "progress", "progress", "status"] and '"label": "Drafting"' in body
	try:
		with requests.get(
			f"{web.base}/huf/stream/assistant/turn-streamed-1", headers=web.token_headers(USER), stream=True, timeout=(10, 2)
		) as other:
			seen = next(other.iter_content(chunk_size=None), b"")
	except requests.exceptions.ReadTimeout:
		seen = b""
	assert b"progress" not in seen  # their session names another log, which is empty
	assert requests.get(f"{web.base}/huf/stream/assistant/bad", headers=headers, timeout=30).status_code == 417


def test_explain_reads_a_failed_agent_run_of_ones_own_and_names_the_tool_call(setup):
	llm = setup
	agent = fixtures.agent(llm, name="Assistant Explain Agent")
	run = frappe.get_doc(
		{"doctype": "Agent Run", "agent": agent, "user": USER, "status": "Failed", "prompt": "Make a to-do", "error_message": "The tool failed", "error_kind": "tool"}
	).insert(ignore_permissions=True)
	frappe.get_doc(
		{
			"doctype": "Agent Tool Call", "agent_run": run.name, "call_id": "call_7", "tool": ALLOWED, "status": "Failed",
			"tool_result": '{"success": false, "error": "Description is required"}', "error_message": "Traceback: ValidationError in todo.py line 12",
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	llm.script(text(json.dumps({"what_went_wrong": "The to-do had no description.", "what_to_change": "Say what to do.", "step": "call_7"})))
	try:
		with as_user(USER):
			answer = api.explain_run(run.name)
		other = make_user("assistant-other@huf.test", ["Huf User"])
		with as_user(other), pytest.raises(frappe.PermissionError, match="belongs to someone else"):
			api.explain_run(run.name)  # someone else's run, for a person who does not see every run
	finally:
		frappe.db.delete("Agent Tool Call", {"agent_run": run.name})
		frappe.db.delete("Agent Run", {"name": run.name})
		frappe.db.commit()
	assert answer["status"] == "ok" and answer["result"]["step_label"] == f"the call to {ALLOWED}"
	sent = llm.chat_requests[0]["body"]["messages"][1]["content"]
	assert "Description is required" in sent and len(llm.chat_requests) == 1  # what the model read of the tool
	assert "Traceback" not in sent  # a tool's failure text is for run.read.all, as on the run page


def test_the_tools_listed_are_those_the_person_may_see_and_use(setup):
	from huf.ai.assistant import site_tools

	viewer = make_user("assistant-viewer@huf.test", ["Huf Viewer"])  # no tool.read
	with as_user(viewer):
		assert site_tools.usable_tools() == []
	with as_user(MANAGER):
		names = {tool["name"] for tool in site_tools.usable_tools()}
	assert ALLOWED in names and REFUSED not in names
