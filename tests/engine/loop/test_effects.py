"""What a repeat after a dead worker may do, per step kind and tool (engine/effects.py)."""

from __future__ import annotations

from huf.ai.engine.effects import DATABASE, ONCE, REPEATABLE, may_repeat, mcp_effect, step_effect


def test_steps_that_only_compute_or_write_the_database_or_call_a_model_repeat():
	for kind in ("trigger.webhook", "condition", "transform", "loop", "end", "human.approval", "router.llm", "agent.run"):
		assert may_repeat(step_effect(kind, {}, lambda name: ONCE)), kind


def test_a_tool_step_has_its_tools_effect_and_an_unknown_kind_is_not_repeated():
	effects = {"make_todo": DATABASE, "notify": ONCE}
	assert step_effect("tool.call", {"tool": "make_todo"}, effects.get) == DATABASE
	assert step_effect("tool.call", {"tool": "notify"}, effects.get) == ONCE
	assert step_effect("something.new", {}, effects.get) == ONCE and not may_repeat(None)


def test_http_steps_repeat_for_idempotent_methods_or_when_the_receiver_honours_the_key():
	assert [step_effect("http_request", {"method": m}, None) for m in ("get", "PUT", "DELETE", "HEAD")] == [REPEATABLE] * 4
	assert step_effect("http_request", {"method": "POST"}, None) == ONCE
	assert step_effect("http_request", {"method": "PATCH", "idempotent": True}, None) == REPEATABLE


def test_mcp_tools_repeat_only_when_their_server_says_read_only_or_idempotent():
	assert (mcp_effect(None, None), mcp_effect(False, False)) == (ONCE, ONCE)
	assert (mcp_effect(True, None), mcp_effect(None, True)) == (REPEATABLE, REPEATABLE)
