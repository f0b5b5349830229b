"""The agent loop against the scripted model server, through LiteLLM over HTTP."""

import json

from huf.ai.engine.events import (
	AssistantEvent,
	CompleteEvent,
	DeltaEvent,
	ErrorEvent,
	ToolCallEvent,
	ToolResultEvent,
	UsageEvent,
)
from huf.ai.engine.llm import LLMRequest, ModelSpec
from huf.ai.engine.loop import LoopSettings, run_loop
from huf.ai.engine.tools import Tool
from tests.support.scripted_llm import error, text, tool_calls

ADD = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}


def request(server, messages=None) -> LLMRequest:
	spec = ModelSpec(model="scripted-model", provider="Local", api_key="sk-test", api_base=server.base_url)
	return LLMRequest(model=spec, messages=messages or [{"role": "system", "content": "be brief"}, {"role": "user", "content": "add"}])


def adder(log=None) -> Tool:
	def add(args):
		if log is not None:
			log.append(args)
		return {"sum": args["a"] + args["b"]}

	return Tool("add", "Add two integers", ADD, add)


def test_several_tool_calls_in_one_message_then_an_answer(llm):
	llm.script(
		tool_calls([("c1", "add", '{"a": 1, "b": 2}'), ("c2", "add", '{"a": 3, "b": 4}')], usage=(20, 5, 0)),
		text("The sums are 3 and 7.", chunks=3, usage=(40, 8, 10)),
	)
	events, calls = [], []
	result = run_loop(request(llm), [adder(calls)], events.append, cost_of=lambda model, usage: usage.total_tokens / 1000)

	assert result.status == "success" and result.response == "The sums are 3 and 7."
	assert calls == [{"a": 1, "b": 2}, {"a": 3, "b": 4}]
	assert (result.usage.input_tokens, result.usage.output_tokens, result.usage.cached_tokens) == (60, 13, 10)
	assert result.turns == 2 and abs(result.cost - 0.073) < 1e-9
	kinds = [type(e).__name__ for e in events]
	assert kinds == [
		"UsageEvent", "AssistantEvent", "ToolCallEvent", "ToolResultEvent", "ToolCallEvent", "ToolResultEvent",
		"DeltaEvent", "DeltaEvent", "DeltaEvent", "UsageEvent", "AssistantEvent", "CompleteEvent",
	]
	# a result says whether its round has calls left (the event log sends it with the next call)
	assert [e.more for e in events if isinstance(e, ToolResultEvent)] == [True, False]
	deltas = [e for e in events if isinstance(e, DeltaEvent)]
	assert "".join(e.content for e in deltas) == "The sums are 3 and 7."
	complete = events[-1]
	assert isinstance(complete, CompleteEvent) and complete.usage == result.usage and complete.duration_seconds > 0
	# the second model call saw both tool results, paired with their calls
	sent = llm.requests[1]["body"]["messages"]
	assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "tool"]
	assert [m["tool_call_id"] for m in sent[3:]] == ["c1", "c2"]
	assert json.loads(sent[3]["content"]) == {"sum": 3}
	assert [t["function"]["name"] for t in llm.requests[0]["body"]["tools"]] == ["add"]


def test_the_models_mistakes_go_back_to_it_and_the_run_goes_on(llm):
	llm.script(
		tool_calls([("c1", "add", '{"a": "one"}'), ("c2", "multiply", "{}"), ("c3", "add", '{"a": 1,')]),
		text("Sorry, let me fix that."),
	)
	events = []
	result = run_loop(request(llm), [adder()], events.append)
	assert result.status == "success"
	errors = [e.error for e in events if isinstance(e, ToolResultEvent)]
	assert "'b' is a required property" in errors[0] and "'one' is not of type 'integer'" in errors[0]
	assert "There is no tool named 'multiply'" in errors[1]
	assert "not valid JSON" in errors[2]
	tool_messages = [m for m in llm.requests[1]["body"]["messages"] if m["role"] == "tool"]
	assert [json.loads(m["content"])["error"] for m in tool_messages] == errors


def test_a_tools_origin_rides_on_its_call_event(llm):
	"""Where a tool comes from (an MCP server and its own name for the tool) reaches the recorder."""
	origin = {"is_mcp_tool": 1, "mcp_server": "github", "mcp_tool": "create_issue"}
	tool = Tool("github__create_issue", "Open an issue", {"type": "object"}, lambda args: "done", origin=origin)
	llm.script(tool_calls([("c1", "github__create_issue", "{}"), ("c2", "nope", "{}")]), text("Done."))
	events = []
	run_loop(request(llm), [tool], events.append)
	assert [e.origin for e in events if isinstance(e, ToolCallEvent)] == [origin, None]


def test_max_turns_ends_the_run_as_failed_with_advice(llm):
	llm.script(*[tool_calls([(f"c{i}", "add", '{"a": 1, "b": 1}')]) for i in range(3)])
	events = []
	result = run_loop(request(llm), [adder()], events.append, LoopSettings(max_turns=3))
	assert result.status == "failed" and result.error.kind == "max_turns"
	assert "all 3 of its turns" in result.error.message and isinstance(events[-1], ErrorEvent)
	assert len(llm.requests) == 3


def test_tool_results_are_truncated_for_the_model(llm):
	big = Tool("big", "Returns a lot", {"type": "object"}, lambda a: "z" * 5000)
	llm.script(tool_calls([("c1", "big", "{}")]), text("ok"))
	events = []
	run_loop(request(llm), [big], events.append, LoopSettings(max_context_chars=100))
	result_event = next(e for e in events if isinstance(e, ToolResultEvent))
	assert result_event.truncated and result_event.content.startswith("z" * 100)
	assert len(llm.requests[1]["body"]["messages"][-1]["content"]) < 200


def test_a_provider_error_fails_the_run_with_its_kind_and_keeps_usage_so_far(llm):
	llm.script(tool_calls([("c1", "add", '{"a": 1, "b": 2}')], usage=(30, 4, 0)), error(401, {"error": {"message": "bad key"}}))
	events = []
	result = run_loop(request(llm), [adder()], events.append)
	assert result.status == "failed" and result.error.kind == "auth" and "bad key" in result.error.cause
	assert result.usage.input_tokens == 30
	assert not any(isinstance(e, CompleteEvent) for e in events)


def test_cancel_between_rounds_stops_before_the_next_model_call(llm):
	llm.script(tool_calls([("c1", "add", '{"a": 1, "b": 2}')]), text("never asked for"))
	events = []
	state = {"after_tool": False}

	def on_event(event):
		events.append(event)
		if isinstance(event, ToolResultEvent):
			state["after_tool"] = True

	result = run_loop(request(llm), [adder()], on_event, should_cancel=lambda: state["after_tool"])
	assert result.status == "cancelled" and len(llm.requests) == 1
	assert any(isinstance(e, ToolCallEvent) for e in events)


def test_a_broken_history_is_repaired_before_the_model_sees_it(llm):
	messages = [
		{"role": "user", "content": "earlier"},
		{"role": "tool", "tool_call_id": "orphan", "content": "lost"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "x", "type": "function", "function": {"name": "add", "arguments": "{}"}}]},
		{"role": "user", "content": "now"},
	]
	llm.script(text("fine"))
	result = run_loop(request(llm, messages), [adder()], lambda e: None, lookup_result=lambda call_id: None)
	assert result.status == "success"
	assert [m["role"] for m in llm.requests[0]["body"]["messages"]] == ["user", "user"]


def test_usage_events_name_the_model_that_answered(llm):
	llm.script(text("hi"))
	events = []
	run_loop(request(llm), [], events.append)
	usage = next(e for e in events if isinstance(e, UsageEvent))
	assert usage.model == "openai/scripted-model"
	assert next(e for e in events if isinstance(e, AssistantEvent)).content == "hi"


def test_an_answer_past_its_size_limit_fails_the_run_and_says_how_to_raise_it(llm):
	llm.script(text("abcdefghij" * 30, chunks=30, delay=0.01))
	events = []
	result = run_loop(request(llm), [], events.append, LoopSettings(max_response_chars=100))
	assert result.status == "failed" and result.error.kind == "response_too_long"
	assert "longer than 100 characters" in result.error.message and "Max Response Characters in Agent Settings" in result.error.message
	shown = "".join(e.content for e in events if isinstance(e, DeltaEvent))
	assert shown == result.response == "abcdefghij" * 10  # the piece that went over is neither shown nor kept
	assert isinstance(events[-1], ErrorEvent) and not any(isinstance(e, CompleteEvent) for e in events)
	assert len(llm.requests) == 1  # not retried


def test_deltas_carry_only_their_own_piece(llm):
	llm.script(text("x" * 3000, chunks=30))
	events = []
	run_loop(request(llm), [], events.append)
	deltas = [e for e in events if isinstance(e, DeltaEvent)]
	assert [(e.content, e.turn) for e in deltas] == [("x" * 100, 1)] * 30
	assert not any(hasattr(e, "full_response") for e in deltas)  # the text so far is never rebuilt per piece
