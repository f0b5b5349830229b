"""Tools marked Requires approval, through a real worker: the run pauses before the tool runs, holds
its conversation, survives the sweep, and goes on after a person approves or rejects the call."""

from __future__ import annotations

import json
import time

import frappe
import pytest

from huf.ai.run import event_log
from huf.ai.agent.approvals import decide_tool_call
from huf.ai.agent.chat import get_agent_chat_messages
from huf.ai.agent.integration import run_agent_sync
from huf.ai.run.approvals import DecisionConflict
from huf.ai.run.runs import sweep_stale_runs
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.support.scripted_llm import text, tool_calls

TOOL = "huf_test_approved_todo"


def status(run: str) -> str:
	return frappe.db.get_value("Agent Run", run, "status")


def paused_run(llm, workers, user: str, script_after=()):
	"""A run of the user's that asked to create a ToDo (its text returned) and now waits for approval."""
	fixtures.tool(TOOL, "Create Document", "ToDo", requires_approval=1)
	agent = fixtures.agent(llm, name="Approval Agent", tools=(TOOL,), allow_chat=1)
	todo = f"approval target {frappe.generate_hash(length=8)}"
	llm.script(tool_calls([("call_todo", TOOL, json.dumps({"data": {"description": todo}}))]), *script_after)
	with as_user(user):
		run = run_agent_sync(agent, "Make me a ToDo", channel_id="chat")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: status(run["run"]) == "Awaiting Approval", 60, message="the run to pause")
	return run, todo


def events_of(run: str) -> list[tuple[str, dict]]:
	return [(name, data) for _id, name, data in event_log.read(event_log.log_key(run), "0-0", 0)]


def test_a_call_needing_approval_pauses_the_run_holds_the_conversation_and_goes_on_when_approved(site, llm, workers):
	user = make_user("approver@huf.test", ["Huf User", "System Manager"])
	run, todo = paused_run(llm, workers, user, (text("Deleted it."), text("The later answer.")))

	assert not frappe.db.exists("ToDo", {"description": todo})  # the tool has not run
	call = frappe.get_all("Agent Tool Call", filters={"agent_run": run["run"]}, fields=["call_id", "status", "tool"])
	assert call == [{"call_id": "call_todo", "status": "Awaiting Approval", "tool": TOOL}]
	events = events_of(run["run"])
	approval = next(data for name, data in events if name == "tool_approval")
	assert approval["id"] == "call_todo" and approval["name"] == TOOL and json.loads(approval["arguments"]) == {"data": {"description": todo}}
	assert events[-1] == ("status", {"run": run["run"], "conversation": run["conversation"], "status": "Awaiting Approval", "waiting_for": ["call_todo"], "type": "status"})

	time.sleep(4)  # past a lock lifetime (3 s in tests): no heartbeat protects it, only its status
	sweep_stale_runs()
	assert status(run["run"]) == "Awaiting Approval"

	with as_user(user):  # a later message waits for the decision
		later = run_agent_sync("Approval Agent", "And then?", conversation_id=run["conversation"], channel_id="chat")
	frappe.db.commit()
	time.sleep(3)
	assert status(later["run"]) == "Queued"

	with as_user(user):  # the chat shows the waiting call again after a reload
		loaded = get_agent_chat_messages(run["conversation"])
	assert loaded["active_run"] == run["run"]
	assert [(a.call_id, a.tool) for a in loaded["awaiting_approval"]] == [("call_todo", TOOL)]

	with as_user(user):
		decided = decide_tool_call(run["run"], "call_todo", "approve")
	frappe.db.commit()
	assert decided["status"] == "Queued"
	wait_for(lambda: status(later["run"]) == "Success", 60, message="both runs to finish")
	calls = frappe.get_all("Agent Tool Call", filters={"agent_run": run["run"]}, fields=["status", "tool_result", "error_message"])
	assert status(run["run"]) == "Success" and frappe.db.exists("ToDo", {"description": todo}), calls
	row = frappe.get_all("Agent Tool Call", filters={"agent_run": run["run"]}, fields=["status", "decided_by", "name"])
	assert len(row) == 1 and row[0].status == "Success" and row[0].decided_by == user
	resumed = llm.requests[1]["body"]["messages"]
	assert [m["role"] for m in resumed] == ["system", "user", "assistant", "tool"]
	assert resumed[2]["tool_calls"][0]["id"] == resumed[3]["tool_call_id"] == "call_todo"
	assert frappe.db.get_value("Agent Run", run["run"], "turns") == 2
	names = [name for name, _data in events_of(run["run"])]
	assert names.index("tool_approval") < names.index("tool_result") < names.index("complete")  # one stream, one run

	with as_user(user), pytest.raises(DecisionConflict):
		decide_tool_call(run["run"], "call_todo", "reject")


def test_a_rejected_call_never_runs_the_model_reads_why_and_others_cannot_decide(site, llm, workers):
	user = make_user("approver2@huf.test", ["Huf User", "System Manager"])
	other = make_user("bystander@huf.test", ["Huf User"])
	run, todo = paused_run(llm, workers, user, (text("Fine, I did not."),))

	with as_user(other), pytest.raises(frappe.PermissionError) as refused:
		decide_tool_call(run["run"], "call_todo", "approve")
	assert TOOL not in str(refused.value) and todo not in str(refused.value)
	frappe.clear_messages()
	assert frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, "status") == "Awaiting Approval"

	with as_user(user):
		decide_tool_call(run["run"], "call_todo", "reject", comment="keep it please")
	frappe.db.commit()
	wait_for(lambda: status(run["run"]) == "Success", 60, message="the run to finish")
	assert not frappe.db.exists("ToDo", {"description": todo})
	assert frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, "status") == "Rejected"
	told = llm.requests[-1]["body"]["messages"][-1]
	assert told["role"] == "tool" and "declined" in told["content"] and "keep it please" in told["content"]
