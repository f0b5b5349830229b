"""A run that goes on after its worker died: the caller rebuilds the request from what was recorded
(the rounds, the results that were committed) and resumes with the calls of the last round that
have no result. Recorded rounds are not asked again, recorded calls are not run again, and a call
that runs again has the same id (so the same idempotency key)."""

from huf.ai.engine.effects import idempotency_key
from huf.ai.engine.events import AssistantEvent, ToolCall, ToolCallEvent, ToolResultEvent
from huf.ai.engine.loop import Resume, run_loop
from huf.ai.engine.tools import Tool, current_call
from tests.engine.loop.test_loop import ADD, adder, request
from tests.support.scripted_llm import text

ROUND = {
	"role": "assistant",
	"content": "",
	"tool_calls": [
		{"id": "c1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}},
		{"id": "c2", "type": "function", "function": {"name": "add", "arguments": '{"a": 3, "b": 4}'}},
	],
}


def recorded(llm, *results):
	"""The request as the site rebuilds it: the person's message, the recorded round and its recorded results."""
	history = request(llm).messages + [ROUND]
	return request(llm, history + [{"role": "tool", "tool_call_id": call_id, "content": content} for call_id, content in results])


def test_a_round_recorded_whole_is_not_asked_or_run_again_the_next_model_call_is_the_next_turn(llm):
	llm.script(text("3 and 7."))
	events, calls = [], []
	result = run_loop(recorded(llm, ("c1", '{"sum": 3}'), ("c2", '{"sum": 7}')), [adder(calls)], events.append, resume=Resume(1, (), {}))

	assert result.status == "success" and result.response == "3 and 7." and result.turns == 2
	assert calls == [] and len(llm.requests) == 1
	assert [m["role"] for m in llm.requests[0]["body"]["messages"]] == ["system", "user", "assistant", "tool", "tool"]
	assert [e.turn for e in events if isinstance(e, AssistantEvent)] == [2]


def test_a_round_cut_short_runs_only_its_calls_without_a_result_with_their_own_ids(llm):
	llm.script(text("3 and 7."))
	events, calls = [], []
	c2 = ToolCall("c2", "add", '{"a": 3, "b": 4}')
	result = run_loop(recorded(llm, ("c1", '{"sum": 3}')), [adder(calls)], events.append, resume=Resume(1, (c2,), {}))

	assert result.status == "success" and result.turns == 2
	assert calls == [{"a": 3, "b": 4}]  # c1 had its result recorded: it did not run again
	assert [(type(e).__name__, e.call.id, e.turn) for e in events if isinstance(e, (ToolCallEvent, ToolResultEvent))] == [
		("ToolCallEvent", "c2", 1), ("ToolResultEvent", "c2", 1),
	]  # fmt: skip
	sent = llm.requests[0]["body"]["messages"]
	assert [(m["role"], m.get("tool_call_id")) for m in sent[2:]] == [("assistant", None), ("tool", "c1"), ("tool", "c2")]


def test_a_handler_knows_the_call_it_runs_for_so_a_repeat_sends_the_same_idempotency_key(llm):
	keys = []

	def add(args):
		keys.append(idempotency_key("RUN-1", current_call().id))
		return {"sum": args["a"] + args["b"]}

	tools = [Tool("add", "Add two integers", ADD, add)]
	c2 = ToolCall("c2", "add", '{"a": 3, "b": 4}')
	for _attempt in range(2):  # the same call run again, as a resumed run does
		llm.script(text("7."))
		run_loop(recorded(llm, ("c1", '{"sum": 3}')), tools, lambda _e: None, resume=Resume(1, (c2,), {}))
	assert keys == ["huf-RUN-1-c2", "huf-RUN-1-c2"]
	assert current_call() is None  # only while a handler runs
