"""Prompt caching: markers only for an agent that asks, a model with a cached price and a route that
takes them; cached tokens in the usage and priced at the cached price. Through real LiteLLM
speaking HTTP to the scripted server, which reports cached tokens for what marked requests wrote."""

import pytest

from huf.ai.engine.cost import Prices, compute_cost
from huf.ai.engine.events import Usage, UsageEvent
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm import LLMError, LLMRequest, ModelSpec, stream_turn
from huf.ai.engine.loop import run_loop
from huf.ai.engine.prompt_cache import has_cached_price, mark, takes_markers
from huf.ai.engine.tools import Tool
from tests.support.scripted_llm import MODEL_NOT_FOUND, error, prompt_tokens, text, tool_calls

MARKER = {"type": "ephemeral"}
LONG = "You answer questions about invoices. " * 200  # a system prompt worth caching
PRICED = "gpt-4o-mini"  # LiteLLM's price data has a cached-input price for openai/gpt-4o-mini
UNPRICED = "scripted-model"  # unknown to LiteLLM: no cached price


def spec(server, model=PRICED, provider="OpenAI", **kw) -> ModelSpec:
	return ModelSpec(model=model, provider=provider, api_key="sk-test", api_base=server.base_url, **kw)


def request(server, caching=True, messages=None, **kw) -> LLMRequest:
	messages = messages or [{"role": "system", "content": LONG}, {"role": "user", "content": "What is due?"}]
	return LLMRequest(model=spec(server, **kw), messages=messages, prompt_caching=caching)


def marked(message: dict) -> bool:
	content = message.get("content")
	return isinstance(content, list) and any(block.get("cache_control") == MARKER for block in content)


def sent(server, index=0) -> list[dict]:
	return server.chat_requests[index]["body"]["messages"]


def lookup_tool() -> Tool:
	schema = {"type": "object", "properties": {"number": {"type": "string"}}, "required": ["number"]}
	return Tool("lookup", "Find an invoice", schema, lambda args: {"number": args["number"], "due": "2026-12-31"})


# --- where markers go ----------------------------------------------------------------------------


def test_markers_go_on_the_system_message_and_the_last_message_and_copies_carry_them():
	messages = [
		{"role": "system", "content": "rules"},
		{"role": "user", "content": "first"},
		{"role": "assistant", "content": "answer"},
		{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "data:x"}}]},
	]
	out = mark(messages)
	assert out[0]["content"] == [{"type": "text", "text": "rules", "cache_control": MARKER}]
	assert out[1] is messages[1] and out[2] is messages[2]
	assert out[3]["content"][0] == {"type": "text", "text": "look", "cache_control": MARKER}
	assert out[3]["content"][1] == messages[3]["content"][1]
	assert messages[0]["content"] == "rules" and "cache_control" not in messages[3]["content"][0]  # never changed


def test_a_message_without_text_is_left_unmarked():
	call = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
	assert mark([call]) == [call]
	assert mark([{"role": "user", "content": "hi"}]) == [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": MARKER}]}]


@pytest.mark.parametrize(
	"model, base, takes",
	[
		("anthropic/claude-sonnet-4-5", None, True),
		("bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0", None, True),
		("vertex_ai/claude-3-5-sonnet@20240620", None, True),
		("openrouter/anthropic/claude-3.5-sonnet", None, True),
		("openai/gpt-4o-mini", "http://127.0.0.1:8000/v1", True),  # an OpenAI-compatible server: LiteLLM keeps it
		("openai/gpt-4o-mini", None, False),  # OpenAI caches by itself; LiteLLM would drop it anyway
		("openai/gpt-4o-mini", "https://api.openai.com/v1", False),
		("openai/gpt-4o", "https://acme.openai.azure.com/openai/v1", False),  # Azure refuses the field
		("azure/gpt-4o", "https://acme.openai.azure.com", False),
		("deepseek/deepseek-chat", None, False),
		("xai/grok-3", None, False),
		("gemini/gemini-2.5-flash", None, False),  # LiteLLM would open a paid context cache
		("vertex_ai/gemini-2.5-flash", None, False),
	],
)
def test_only_routes_that_take_markers_get_them(model, base, takes):
	assert takes_markers(model, base) is takes


def test_cached_prices_come_from_litellms_price_data():
	assert has_cached_price("openai/gpt-4o-mini") and has_cached_price("anthropic/claude-sonnet-4-5")
	assert not has_cached_price("openai/scripted-model")


# --- what is sent --------------------------------------------------------------------------------


def test_a_caching_agent_on_a_model_with_a_cached_price_sends_markers(llm):
	llm.script(text("Invoice 7 is due."))
	turn = stream_turn(request(llm))
	messages = sent(llm)
	assert marked(messages[0]) and messages[0]["content"][0]["text"] == LONG
	assert marked(messages[1]) and messages[1]["content"][0]["text"] == "What is due?"
	assert turn.content == "Invoice 7 is due."


def test_no_marker_when_the_agent_does_not_ask(llm):
	llm.script(text("ok"))
	stream_turn(request(llm, caching=False))
	assert sent(llm) == [{"role": "system", "content": LONG}, {"role": "user", "content": "What is due?"}]


def test_no_marker_for_a_model_without_a_cached_price(llm):
	llm.script(text("ok"))
	stream_turn(request(llm, model=UNPRICED, provider="Local"))
	assert not any(marked(message) for message in sent(llm))
	assert "usage" not in llm.chat_requests[0]  # the server saw no marker: usage as scripted


def test_the_ai_models_own_cached_price_counts_as_a_cached_price(llm):
	llm.script(text("ok"), text("ok"))
	stream_turn(request(llm, model=UNPRICED, provider="Local", caches_prompts=True))
	stream_turn(request(llm, model=PRICED, caches_prompts=False))  # the AI Model's word wins both ways
	assert marked(sent(llm, 0)[0]) and not marked(sent(llm, 1)[0])


def test_a_fallback_model_without_a_cached_price_gets_no_marker(llm):
	llm.script(error(404, MODEL_NOT_FOUND), text("from the fallback"))
	req = LLMRequest(
		model=spec(llm), messages=[{"role": "system", "content": LONG}, {"role": "user", "content": "hi"}],
		prompt_caching=True, fallback_models=(UNPRICED,),
	)
	assert stream_turn(req).content == "from the fallback"
	assert marked(sent(llm, 0)[0]) and not any(marked(message) for message in sent(llm, 1))


def test_azure_never_gets_the_field_it_refuses(llm):
	"""LiteLLM would pass a marker on to Azure, which answers 400: none is sent, though gpt-4o has a cached price."""
	req = LLMRequest(
		model=ModelSpec(model="azure/gpt-4o", provider=None, api_key="k", api_base=llm.base_url.removesuffix("/v1")),
		messages=[{"role": "system", "content": LONG}, {"role": "user", "content": "hi"}],
		prompt_caching=True, max_retries=0,
	)
	assert has_cached_price("azure/gpt-4o")
	with pytest.raises(LLMError):  # the scripted server has no Azure route; what matters is the body it saw
		stream_turn(req)
	body = llm.requests[0]["body"]
	assert "cache_control" not in str(body) and body["messages"][0] == {"role": "system", "content": LONG}


# --- usage and cost ------------------------------------------------------------------------------


def test_a_run_reads_its_earlier_rounds_from_the_cache_and_pays_the_cached_price(llm):
	"""Round 1 writes the system prompt and the question to the cache; round 2 reads them back. The
	run's usage is the rounds' sum, and each round is priced with its cached tokens at the cached price."""
	llm.script(tool_calls([("c1", "lookup", '{"number": "7"}')]), text("Invoice 7 is due on 31 December."))
	events = []
	cost_of = lambda model, usage: compute_cost(model, usage, None)  # noqa: E731 - LiteLLM's prices, as a site without custom ones
	result = run_loop(request(llm), [lookup_tool()], events.append, cost_of=cost_of)
	assert result.status == "success" and result.response == "Invoice 7 is due on 31 December."
	first, second = (request["usage"] for request in llm.chat_requests)
	assert first[2] == 0  # nothing cached yet: this round writes
	assert second[2] == prompt_tokens(llm.chat_requests[1]["body"], 2) > 0  # the system prompt and the question
	rounds = [event.usage for event in events if isinstance(event, UsageEvent)]
	assert rounds == [Usage(*first), Usage(*second)]
	assert result.usage == Usage(first[0] + second[0], first[1] + second[1], second[2], first[3] + second[3])
	assert first[3] == prompt_tokens(llm.chat_requests[0]["body"]) and second[3] > 0  # each round wrote its new tail
	assert result.cost == pytest.approx(sum(compute_cost("openai/gpt-4o-mini", usage, None) for usage in rounds))
	uncached = sum(compute_cost("openai/gpt-4o-mini", Usage(u.input_tokens, u.output_tokens), None) for u in rounds)
	assert 0 < result.cost < uncached
	prompt, completion = load_litellm().cost_per_token(
		model="openai/gpt-4o-mini", prompt_tokens=second[0], completion_tokens=second[1], cache_read_input_tokens=second[2]
	)
	assert compute_cost("openai/gpt-4o-mini", rounds[1], None) == pytest.approx(prompt + completion, abs=1e-8)  # rounded to 8 places


def test_the_ai_models_cached_price_bills_the_cached_tokens(llm):
	llm.script(text("first"), text("second"))
	req = request(llm, model=UNPRICED, provider="Local", caches_prompts=True)
	prices = Prices(2.0, 8.0, 0.5)
	stream_turn(req)
	turn = stream_turn(req)  # the same prompt again: all of it up to the last marker is read from the cache
	usage = turn.usage
	assert usage.cached_tokens == prompt_tokens(llm.chat_requests[1]["body"]) == usage.input_tokens
	expected = (usage.cached_tokens * 0.5 + usage.output_tokens * 8.0) / 1_000_000
	assert compute_cost(turn.model, usage, prices) == pytest.approx(expected)


def test_a_scripted_cached_count_is_reported_as_scripted(llm):
	llm.script(text("ok", usage=(500, 5, 123)))
	assert stream_turn(request(llm)).usage == Usage(500, 5, 123)


def test_cache_writes_are_billed_at_the_write_price_where_litellm_has_one(llm):
	"""Claude through OpenRouter (an OpenAI-format route that keeps the markers): the first call writes
	its prompt to the cache (1.25 times the input price), the second reads it (a tenth)."""
	llm.script(text("first"), text("second"))
	req = request(llm, model="anthropic/claude-sonnet-4.5", provider="OpenRouter")
	first, second = stream_turn(req), stream_turn(req)
	assert marked(sent(llm, 0)[0]) and first.model == "openrouter/anthropic/claude-sonnet-4.5"
	assert first.usage.cache_write_tokens == first.usage.input_tokens and first.usage.cached_tokens == 0
	assert second.usage.cached_tokens == second.usage.input_tokens and second.usage.cache_write_tokens == 0
	info = load_litellm().get_model_info(model=first.model)
	written = first.usage.input_tokens * info["cache_creation_input_token_cost"] + first.usage.output_tokens * info["output_cost_per_token"]
	read = second.usage.cached_tokens * info["cache_read_input_token_cost"] + second.usage.output_tokens * info["output_cost_per_token"]
	assert compute_cost(first.model, first.usage, None) == pytest.approx(written, abs=1e-8)
	assert compute_cost(second.model, second.usage, None) == pytest.approx(read, abs=1e-8)
	assert first.usage.to_dict()["cache_write_tokens"] == first.usage.cache_write_tokens
	assert "cache_write_tokens" not in second.usage.to_dict()  # only when there were writes


def test_without_a_write_price_written_tokens_cost_the_input_price():
	usage = Usage(10_000, 0, 0, 4_000)
	assert compute_cost("openai/gpt-4o-mini", usage, None) == compute_cost("openai/gpt-4o-mini", Usage(10_000, 0), None)
	assert compute_cost("x", usage, Prices(2.0, 8.0, 0.5)) == pytest.approx(0.02)
