"""Prompt caching on the site: an agent with Enable Prompt Caching sends cache markers to a model with
a cached price, and its Agent Run shows the cached tokens the scripted server reported and the cost
at the cached price; with the switch off nothing is marked."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.integration import run_agent_sync
from huf.ai.engine.cost import compute_cost
from huf.ai.engine.events import Usage
from tests.site import fixtures
from tests.support.scripted_llm import text, tool_calls

LONG = "You answer questions about the site's to-do list, briefly and exactly. " * 60
PRICES = {"use_custom_pricing": 1, "input_cost_per_1m_tokens": 2.0, "output_cost_per_1m_tokens": 8.0, "cached_input_cost_per_1m_tokens": 0.5}


def marked(message: dict) -> bool:
	content = message.get("content")
	return isinstance(content, list) and any(isinstance(b, dict) and b.get("cache_control") == {"type": "ephemeral"} for b in content)


def caching_agent(llm, name: str, model: str, **fields) -> str:
	fixtures.tool("pc_get_todos", "Get List", "ToDo")
	return fixtures.agent(llm, name=name, tools=("pc_get_todos",), model=model, instructions=LONG, **fields)


def two_rounds(llm) -> None:
	llm.script(tool_calls([("c1", "pc_get_todos", json.dumps({"limit": 1}))]), text("There is one to-do."))


def spent(run: str):
	return frappe.db.get_value("Agent Run", run, ["status", "input_tokens", "output_tokens", "cached_tokens", "total_tokens", "total_cost"], as_dict=True)


def test_a_caching_agent_shows_the_cached_tokens_and_the_cached_price_on_its_run(site, llm):
	model = fixtures.model(fixtures.provider(llm), name="pc-cached-model", **PRICES)
	agent = caching_agent(llm, "Caching Agent", model, enable_prompt_caching=1)
	two_rounds(llm)
	result = run_agent_sync(agent, "How many to-dos are there?", channel_id="pc-on", now=True)
	assert result["status"] == "Success", result
	first, second = llm.chat_requests
	assert marked(first["body"]["messages"][0]) and marked(first["body"]["messages"][-1])
	assert marked(second["body"]["messages"][0]) and marked(second["body"]["messages"][-1])
	assert first["usage"][2] == 0 and second["usage"][2] > 0  # round 2 read what round 1 wrote

	row = spent(result["run"])
	rounds = [Usage(*first["usage"]), Usage(*second["usage"])]
	total = sum(rounds, Usage())
	assert (row.input_tokens, row.output_tokens, row.cached_tokens, row.total_tokens) == (
		total.input_tokens, total.output_tokens, total.cached_tokens, total.total_tokens,
	)
	cached_price = sum(((u.input_tokens - u.cached_tokens) * 2.0 + u.cached_tokens * 0.5 + u.output_tokens * 8.0) / 1e6 for u in rounds)
	full_price = sum((u.input_tokens * 2.0 + u.output_tokens * 8.0) / 1e6 for u in rounds)
	assert row.total_cost == pytest.approx(cached_price, abs=1e-8) and row.total_cost < full_price


def test_litellms_cached_price_applies_to_a_model_it_knows(site, llm):
	"""No custom prices: gpt-4o-mini's cached-input price in LiteLLM's data makes it a caching model."""
	model = fixtures.model(fixtures.provider(llm), name="gpt-4o-mini", use_custom_pricing=0)
	agent = caching_agent(llm, "Caching Agent LiteLLM", model, enable_prompt_caching=1)
	two_rounds(llm)
	result = run_agent_sync(agent, "How many to-dos are there?", channel_id="pc-litellm", now=True)
	assert result["status"] == "Success", result
	assert all(marked(r["body"]["messages"][0]) for r in llm.chat_requests)
	rounds = [Usage(*r["usage"]) for r in llm.chat_requests]
	row = spent(result["run"])
	assert row.cached_tokens == rounds[1].cached_tokens > 0
	assert row.total_cost == pytest.approx(sum(compute_cost("openai/gpt-4o-mini", u, None) for u in rounds), abs=1e-7)


def test_with_the_switch_off_nothing_is_marked(site, llm):
	model = fixtures.model(fixtures.provider(llm), name="pc-cached-model", **PRICES)
	agent = caching_agent(llm, "Non Caching Agent", model)
	assert not frappe.db.get_value("Agent", agent, "enable_prompt_caching")  # off unless ticked
	two_rounds(llm)
	result = run_agent_sync(agent, "How many to-dos are there?", channel_id="pc-off", now=True)
	assert result["status"] == "Success", result
	assert "cache_control" not in json.dumps([r["body"] for r in llm.chat_requests])
	assert all("usage" not in r for r in llm.chat_requests)  # usage as scripted: nothing cached
	assert spent(result["run"]).cached_tokens == 0
