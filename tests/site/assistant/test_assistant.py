"""The builder assistant on a site (huf/ai/assistant/), against the scripted model server: a proposal
names only tools the person may use (one they may not is fed back as a problem, never invented), a
person without flow edit rights gets Explain but not Propose (a 403 naming the capability), an empty
or over-long request is refused with the limit before any model call, and a site without an
assistant model says how to set one up. Every turn is an Agent Run of the caller (run_kind
assistant, agent Builder Assistant) with its tokens and cost, Failed with the error's kind when the
model fails, read by its person only, and ended Failed (never queued) by the sweep when its worker
died. The Builder Assistant agent is made at migrate, again when deleted, and not offered in chat."""

from __future__ import annotations

import json

import frappe
import pytest
import requests
from frappe.utils import add_to_date, now_datetime

from huf.ai.run import event_log, lifecycle, runs
from huf.ai.agent.chat import get_chat_agents
from huf.ai.agent.integration import get_agent_run_status
from huf.ai.agent.run_detail import get_run_detail
from huf.ai.assistant import agent, api, turns
from huf.ai.engine.assistant import prompts
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import error, text, tool_calls

FLOW = "huf-test-assistant"
MANAGER = "assistant-manager@huf.test"
USER = "assistant-user@huf.test"
OTHER = "assistant-other@huf.test"
ALLOWED, REFUSED = "huf_test_assistant_todo", "huf_test_assistant_user"
MODEL = "assistant-priced-model"  # the assistant's model, with prices of its own
PRICES = {"use_custom_pricing": 1, "input_cost_per_1m_tokens": 1000.0, "output_cost_per_1m_tokens": 2000.0}
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
	provider = fixtures.provider(llm)
	fixtures.model(provider)  # the site's model an agent draft names
	model = fixtures.model(provider, name=MODEL, **PRICES)
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
	frappe.db.delete("Agent Run", {"run_kind": "assistant", "user": ("in", [MANAGER, USER, OTHER])})
	frappe.db.set_value("Agent", agent.AGENT, {"instructions": prompts.INSTRUCTIONS, "model": None, "provider": None})
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
		other = make_user(OTHER, ["Huf User"])
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


def assistant_runs(user: str) -> list[dict]:
	return frappe.get_all(
		"Agent Run",
		filters={"run_kind": "assistant", "user": user},
		fields=["*"],
		order_by="creation asc",
	)


def test_a_turn_is_an_agent_run_of_the_caller_with_its_tokens_and_cost(setup):
	llm = setup
	llm.script(tool_calls([("c1", "list_tools", "{}")], usage=(100, 20, 0)), text(use_tool(ALLOWED), usage=(300, 40, 0)))
	with as_user(MANAGER):
		answer = api.propose_flow(FLOW, "When a lead comes in, make a to-do", turn="turn-recorded-1")
		status = get_agent_run_status(answer["run"])  # the person reads their own assistant run
	assert answer["status"] == "ok" and status["status"] == "Success"
	[run] = assistant_runs(MANAGER)
	assert run.name == answer["run"] and run.agent == agent.AGENT and run.status == "Success" and run.channel == "assistant"
	assert (run.model, run.provider) == (MODEL, "Scripted") and run.model_used.endswith(MODEL)
	assert (run.input_tokens, run.output_tokens, run.total_tokens, run.turns) == (400, 60, 460, 2)
	assert run.total_cost == pytest.approx(400 * 1000 / 1e6 + 60 * 2000 / 1e6)  # 0.52, from the model's own prices
	assert run.prompt == "When a lead comes in, make a to-do" and "Adds a to-do." in run.response
	assert "added tool_call_1" in run.response and run.started_at and run.ended_at and not run.conversation
	assert answer["usage"]["input_tokens"] == 400 and answer["cost"] == pytest.approx(run.total_cost)


def test_a_turn_whose_model_fails_is_a_failed_run_with_its_kind_and_no_key_read_by_its_person_only(setup):
	llm = setup
	llm.script(error(401, {"error": {"message": "Incorrect API key provided: sk-test", "code": "invalid_api_key", "type": "invalid_request_error"}}))
	with as_user(USER):
		answer = api.explain_flow_run(_failed_flow_run().name)
	assert answer["status"] == "failed" and answer["error"]["kind"] == "auth"
	[run] = assistant_runs(USER)
	assert run.status == "Failed" and run.error_kind == "auth" and run.error_message and run.agent == agent.AGENT
	assert run.prompt.startswith("Explain the flow run ")
	for field in ("error_message", "response", "prompt"):
		assert "sk-test" not in (run.get(field) or "")
	with as_user(USER):
		assert get_agent_run_status(run.name)["error_kind"] == "auth"
		assert get_run_detail(run.name)["run"]["agent"] == agent.AGENT
	make_user(OTHER, ["Huf User"])
	with as_user(OTHER), pytest.raises(frappe.PermissionError, match="belongs to someone else"):
		get_agent_run_status(run.name)
	with as_user(OTHER), pytest.raises(frappe.PermissionError, match="belongs to someone else"):
		get_run_detail(run.name)  # the run's page
	with as_user(OTHER):
		assert not frappe.get_list("Agent Run", filters={"name": run.name})  # nor in their run lists
	with as_user(USER):
		assert frappe.get_list("Agent Run", filters={"name": run.name}, pluck="name") == [run.name]


def _failed_flow_run():
	run = frappe.get_doc(
		{
			"doctype": "Flow Run", "flow_definition": FLOW, "flow_id": FLOW, "status": "Failed", "user": USER, "last_error": "No description",
			"steps": [{"hop": 1, "node_id": "hook", "node_label": "New lead", "node_type": "trigger.webhook", "status": "Failed", "error": "No description"}],
		}
	).insert(ignore_permissions=True)  # fmt: skip
	frappe.db.commit()
	return run


def test_a_turn_whose_worker_died_ends_failed_at_the_sweep_and_is_never_queued(setup):
	identity = agent.identity(MODEL)
	lost = lifecycle.create("assistant", identity, MANAGER, "make a to-do", None, status="Started", channel="assistant")
	going = lifecycle.create("assistant", identity, MANAGER, "make a to-do", None, status="Started", channel="assistant")
	frappe.db.set_value("Agent Run", lost.name, "started_at", add_to_date(now_datetime(), minutes=-10), update_modified=False)
	frappe.db.set_value("Agent Run", going.name, "started_at", add_to_date(now_datetime(), minutes=-1), update_modified=False)
	frappe.db.commit()
	runs.sweep_stale_runs()
	ended = frappe.db.get_value("Agent Run", lost.name, ["status", "error_message", "error_kind", "resumed_count"], as_dict=True)
	assert ended.status == "Failed" and ended.error_message == "The assistant stopped before it answered; ask again."
	assert ended.error_kind == "worker_lost" and not ended.resumed_count
	assert frappe.db.get_value("Agent Run", going.name, "status") == "Started"  # a turn still within its time


def test_the_builder_assistant_is_an_agent_made_at_migrate_not_in_chat_whose_instructions_are_used(setup):
	from huf.install import ensure_setup

	llm = setup
	frappe.delete_doc("Agent", agent.AGENT, force=True, ignore_permissions=True)
	frappe.db.set_single_value("Agent Settings", "assistant_model", None)  # as on a new site: no model yet
	frappe.db.commit()
	ensure_setup()
	frappe.db.commit()
	made = frappe.get_doc("Agent", agent.AGENT)
	assert made.allow_chat == 0 and made.instructions == prompts.INSTRUCTIONS and not made.disabled and not made.model
	with as_user(MANAGER):
		assert agent.AGENT not in {row["name"] for row in get_chat_agents()}
	settings = frappe.get_doc("Agent Settings")
	settings.assistant_model = MODEL
	settings.max_prompt_chars = settings.max_prompt_chars or 100000  # a test before may have left it empty
	settings.save()  # the agent's model follows Agent Settings
	assert frappe.db.get_value("Agent", agent.AGENT, ["model", "provider"]) == (MODEL, "Scripted")
	made.reload()
	made.instructions = "You are ACME's builder assistant. Name steps in French."
	made.save()  # an admin adjusts them, and the record (with the model it follows) saves
	frappe.db.commit()
	llm.script(text(use_tool(ALLOWED)))
	with as_user(MANAGER):
		assert api.propose_flow(FLOW, "make a to-do")["status"] == "ok"
	system = llm.chat_requests[0]["body"]["messages"][0]["content"]
	assert system.startswith("You are ACME's builder assistant. Name steps in French.") and '"add_steps"' in system
	frappe.delete_doc("Agent", agent.AGENT, force=True, ignore_permissions=True)
	frappe.db.commit()
	llm.script(text(use_tool(ALLOWED)))
	with as_user(MANAGER):
		answer = api.propose_flow(FLOW, "make a to-do")  # deleted: the turn makes it again, with the built-in instructions
	assert answer["status"] == "ok" and llm.chat_requests[1]["body"]["messages"][0]["content"] == prompts.FLOW
	assert frappe.db.get_value("Agent Run", answer["run"], "agent") == agent.AGENT and frappe.db.exists("Agent", agent.AGENT)
