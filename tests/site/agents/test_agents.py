"""Run Agent (nested sub-agents) and the context strategies, on a real site."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.integration import run_agent_sync
from tests.site import fixtures
from tests.support.scripted_llm import text, tool_calls


def run_agent_tool(name: str, target: str) -> str:
	fixtures.tool(name, "Run Agent", None, agent=target)
	return name


def test_a_sub_agent_answers_inside_the_same_turn_as_its_own_run(site, llm):
	helper = fixtures.agent(llm, name="Helper Agent")
	boss = fixtures.agent(llm, name="Boss Agent", tools=(run_agent_tool("ask_helper", helper),))
	llm.script(
		tool_calls([("c1", "ask_helper", json.dumps({"prompt": "count to three"}))]),
		text("one two three"),  # the helper's answer
		text("The helper says: one two three"),
	)
	result = run_agent_sync(boss, "get help", now=True)
	assert result["status"] == "Success" and result["response"] == "The helper says: one two three"
	child = frappe.get_all("Agent Run", filters={"parent_run": result["run"]}, fields=["agent", "status", "depth", "response"])
	assert child == [{"agent": helper, "status": "Success", "depth": 1, "response": "one two three"}]
	# the helper's work is not in the boss's conversation history
	roles = frappe.get_all("Agent Message", filters={"conversation": result["conversation"]}, pluck="role", order_by="sequence asc")
	assert roles == ["user", "agent", "tool", "agent"]
	assert [m["role"] for m in llm.requests[1]["body"]["messages"]] == ["system", "user"]  # the helper got only its task


def test_an_agent_cannot_call_itself_or_go_deeper_than_the_cap(site, llm):
	loop_agent = fixtures.agent(llm, name="Loop Agent")
	run_agent_tool("call_loop", loop_agent)
	doc = frappe.get_doc("Agent", loop_agent)
	doc.append("agent_tool", {"tool": "call_loop"})
	doc.save()
	llm.script(tool_calls([("c1", "call_loop", json.dumps({"prompt": "again"}))]), text("stopped"))
	result = run_agent_sync(loop_agent, "recurse", now=True)
	assert result["status"] == "Success"
	error = frappe.get_all("Agent Tool Call", filters={"agent_run": result["run"]}, pluck="error_message")[0]
	assert "cannot call itself" in error

	c = fixtures.agent(llm, name="Depth C")
	b = fixtures.agent(llm, name="Depth B", tools=(run_agent_tool("call_c", c),))
	a = fixtures.agent(llm, name="Depth A", tools=(run_agent_tool("call_b", b),), max_agent_depth=1)
	llm.script(
		tool_calls([("c1", "call_b", json.dumps({"prompt": "go"}))]),
		tool_calls([("c2", "call_c", json.dumps({"prompt": "deeper"}))]),
		text("B could not go deeper"),
		text("done"),
	)
	result = run_agent_sync(a, "go deep", now=True)
	assert result["status"] == "Success"
	b_run = frappe.get_all("Agent Run", filters={"parent_run": result["run"]}, pluck="name")[0]
	error = frappe.get_all("Agent Tool Call", filters={"agent_run": b_run}, pluck="error_message")[0]
	assert "only nest 1 agents deep" in error


def test_fifo_sends_only_the_newest_messages(site, llm):
	agent = fixtures.agent(llm, name="Fifo Agent", context_strategy="FIFO", history_limit=2)
	llm.respond_with(lambda body: text("ok " + body["messages"][-1]["content"]))
	first = run_agent_sync(agent, "m1", now=True)
	for prompt in ("m2", "m3"):
		run_agent_sync(agent, prompt, conversation_id=first["conversation"], now=True)
	sent = [m["content"] for m in llm.requests[-1]["body"]["messages"]]
	assert sent == ["You are a test agent.", "m2", "ok m2", "m3"]


def test_summarize_folds_old_messages_into_a_kept_summary(site, llm):
	agent = fixtures.agent(
		llm, name="Summary Agent", context_strategy="Summarize", history_limit=4, summary_ratio=0.5,
		summary_prompt="Condense this: {summary_data}",
	)

	def answer(body):
		last = body["messages"][-1]["content"]
		if last.startswith("Condense this:"):
			return text("SUMMARY", usage=(100, 10, 0))
		return text("ok " + last)

	llm.respond_with(answer)
	first = run_agent_sync(agent, "m1", now=True)
	for prompt in ("m2", "m3"):
		run_agent_sync(agent, prompt, conversation_id=first["conversation"], now=True)
	last = frappe.get_doc("Agent Run", run_agent_sync(agent, "m4", conversation_id=first["conversation"], now=True)["run"])
	summary_request = next(r for r in llm.requests if r["body"]["messages"][-1]["content"].startswith("Condense this:"))
	assert "user: m1" in summary_request["body"]["messages"][-1]["content"]
	sent = llm.requests[-1]["body"]["messages"]
	assert sent[1] == {"role": "system", "content": "Summary of the earlier conversation:\nSUMMARY"}
	assert "m1" not in json.dumps(sent)
	conversation = frappe.get_doc("Agent Conversation", first["conversation"])
	assert conversation.summary == "SUMMARY" and conversation.summarized_until > 0
	assert last.input_tokens >= 100  # the summary call is part of the run's cost


def test_the_summary_call_is_priced_with_the_summary_models_own_prices(site, llm):
	fixtures.provider(llm)
	summarizer = fixtures.model("Scripted", name="scripted-summarizer", use_custom_pricing=1, input_cost_per_1m_tokens=1000.0, output_cost_per_1m_tokens=0.0)
	agent = fixtures.agent(llm, name="Priced Summary Agent", context_strategy="Summarize", history_limit=2, summary_ratio=0.5, summary_model=summarizer)

	def answer(body):
		if body["model"].endswith("scripted-summarizer"):
			return text("SUMMARY", usage=(1000, 10, 0))  # 1,000 input tokens at $1,000 a million: $1
		return text("ok", usage=(0, 0, 0))

	llm.respond_with(answer)
	first = run_agent_sync(agent, "m1", now=True)
	runs = [run_agent_sync(agent, p, conversation_id=first["conversation"], now=True)["run"] for p in ("m2", "m3", "m4")]
	summarized = [r for r in runs if frappe.db.get_value("Agent Run", r, "input_tokens") >= 1000]
	assert summarized, "no run summarized its history"
	assert frappe.db.get_value("Agent Run", summarized[0], "total_cost") == pytest.approx(1.0, abs=0.01)  # plus the answer's own fraction of a cent
