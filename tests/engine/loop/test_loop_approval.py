"""A tool that needs a person's approval: the loop pauses before the round runs, and a resume runs
the approved calls, tells the model about the rejected ones and goes on."""

import json

from huf.ai.engine.events import ToolApprovalEvent, ToolCall, ToolCallEvent, ToolResultEvent
from huf.ai.engine.loop import Decision, Resume, run_loop
from huf.ai.engine.tools import Tool
from huf.ai.engine.wire import to_wire
from tests.engine.loop.test_loop import adder, request
from tests.support.scripted_llm import text, tool_calls


def deleter(log: list) -> Tool:
	def delete(args):
		log.append(args)
		return {"deleted": args["name"]}

	schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
	return Tool("delete_note", "Delete a note", schema, delete, requires_approval=True)


def paused_round(llm, deleted: list, added: list):
	"""One round asking for a normal call and two approval-needing ones; the run pauses."""
	llm.script(
		tool_calls(
			[("c1", "add", '{"a": 1, "b": 2}'), ("c2", "delete_note", '{"name": "N1"}'), ("c3", "delete_note", '{"name": "N2"}')]
		)
	)
	events: list = []
	tools = [adder(added), deleter(deleted)]
	result = run_loop(request(llm), tools, events.append)
	return result, events, tools


def test_a_round_with_a_call_needing_approval_pauses_before_any_call_runs(llm):
	deleted, added = [], []
	result, events, _tools = paused_round(llm, deleted, added)

	assert result.status == "paused" and [call.id for call in result.pending] == ["c2", "c3"]
	assert deleted == [] and added == []  # nothing ran, not even the call that needs no approval
	approvals = [e for e in events if isinstance(e, ToolApprovalEvent)]
	assert [(e.call.id, e.turn) for e in approvals] == [("c2", 1), ("c3", 1)]
	assert not any(isinstance(e, (ToolCallEvent, ToolResultEvent)) for e in events)
	assert result.messages[-1]["tool_calls"][1]["id"] == "c2"  # the assistant message is kept
	name, data = to_wire(approvals[0], "RUN-1", "CONV-1")
	assert name == "tool_approval" and data == {
		"type": "tool_approval", "run": "RUN-1", "id": "c2", "name": "delete_note", "arguments": '{"name": "N1"}', "turn": 1,
	}


def test_resume_runs_the_approved_call_tells_the_model_of_the_rejected_one_and_goes_on(llm):
	deleted, added = [], []
	paused, _events, tools = paused_round(llm, deleted, added)
	llm.script(text("Deleted N1; you kept N2."))
	history = request(llm).messages + paused.messages
	decisions = {"c2": Decision(True), "c3": Decision(False, "keep N2")}
	events: list = []
	resume = Resume(turn=1, calls=tuple(tool_calls_of(paused.messages[-1])), decisions=decisions)
	result = run_loop(request(llm, history), tools, events.append, resume=resume)

	assert result.status == "success" and result.response == "Deleted N1; you kept N2." and result.turns == 2
	assert added == [{"a": 1, "b": 2}] and deleted == [{"name": "N1"}]
	results = {e.call.id: e for e in events if isinstance(e, ToolResultEvent)}
	assert results["c2"].ok and not results["c2"].declined
	assert not results["c3"].ok and results["c3"].declined and "keep N2" in results["c3"].content
	sent = llm.requests[-1]["body"]["messages"]
	assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "tool", "tool"]
	refusal = json.loads(sent[-1]["content"])["error"]
	assert refusal == "A person declined this call to delete_note, so it did not run. Their comment: keep N2"


def test_a_resume_missing_a_decision_pauses_again_and_runs_nothing(llm):
	deleted, added = [], []
	paused, _events, tools = paused_round(llm, deleted, added)
	calls = tuple(tool_calls_of(paused.messages[-1]))
	result = run_loop(request(llm), tools, lambda _e: None, resume=Resume(1, calls, {"c2": Decision(True)}))
	assert result.status == "paused" and [call.id for call in result.pending] == ["c3"]
	assert deleted == [] and added == []


def test_where_nobody_can_be_asked_the_call_fails_with_a_result_saying_why(llm):
	llm.script(tool_calls([("c1", "delete_note", '{"name": "N1"}')]), text("I could not delete it."))
	deleted, events = [], []
	result = run_loop(request(llm), [deleter(deleted)], events.append, can_pause=False)
	assert result.status == "success" and deleted == []
	outcome = next(e for e in events if isinstance(e, ToolResultEvent))
	assert not outcome.ok and not outcome.declined and "needs a person's approval" in outcome.error


def tool_calls_of(message: dict) -> list[ToolCall]:
	return [ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]]
