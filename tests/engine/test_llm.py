"""The gateway through real LiteLLM, over HTTP, to the scripted OpenAI-compatible server."""

import json
import os

import pytest

from huf.ai.engine import llm as gateway
from huf.ai.engine.llm import Cancelled, LLMError, LLMRequest, ModelSpec, normalize_model_name, stream_turn
from tests.support.scripted_llm import broken, empty, error, hang, text, tool_calls

NOT_FOUND = {"error": {"message": "The model `x` does not exist", "type": "invalid_request_error", "code": "model_not_found"}}


def request(server, model="scripted-model", **kw) -> LLMRequest:
	spec = ModelSpec(model=model, provider=kw.pop("provider", "Local"), api_key="sk-test-123456789", api_base=server.base_url)
	return LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}], **kw)


@pytest.mark.parametrize(
	"model, provider, base, expected",
	[
		("gpt-4o-mini", "OpenAI", None, "openai/gpt-4o-mini"),
		("openai/gpt-4o", "OpenAI", None, "openai/gpt-4o"),
		("claude-3-5-sonnet-latest", "anthropic", None, "anthropic/claude-3-5-sonnet-latest"),
		("gemini-1.5-pro", "Google", None, "gemini/gemini-1.5-pro"),
		("gemini-1.5-pro", "gemini", None, "gemini/gemini-1.5-pro"),
		("grok-4", "Grok", None, "xai/grok-4"),
		("qwen-max", "Alibaba", None, "dashscope/qwen-max"),
		("Llama-4", "Meta", None, "meta_llama/Llama-4"),
		("meta-llama/llama-3-70b", "OpenRouter", None, "openrouter/meta-llama/llama-3-70b"),
		("openai/gpt-4o", "OpenRouter", None, "openrouter/openai/gpt-4o"),
		("llama3.1", "Ollama", "http://localhost:11434", "ollama_chat/llama3.1"),
		("qwen2.5-7b", "My LM Studio", "http://localhost:1234/v1", "openai/qwen2.5-7b"),
		("gpt-4o-mini", "Unknown Co", None, "gpt-4o-mini"),
		("mystery-model", "Unknown Co", None, "openai/mystery-model"),
	],
)
def test_model_names_are_normalized_for_litellm(model, provider, base, expected):
	assert normalize_model_name(model, provider, base) == expected


def test_text_streams_in_order_and_the_key_goes_per_call_never_into_the_environment(llm):
	before = dict(os.environ)
	llm.script(text("Hello there, friend", chunks=4, usage=(12, 7, 3)))
	seen = []
	turn = stream_turn(request(llm), on_delta=seen.append)
	assert len(seen) == 4 and "".join(seen) == turn.content == "Hello there, friend"
	assert turn.usage.input_tokens == 12 and turn.usage.output_tokens == 7 and turn.usage.cached_tokens == 3
	assert turn.model == "openai/scripted-model" and turn.tool_calls == ()
	assert llm.requests[-1]["headers"]["Authorization"] == "Bearer sk-test-123456789"
	assert llm.requests[-1]["body"]["stream"] is True
	assert dict(os.environ) == before


def test_streamed_tool_call_fragments_are_assembled_per_call(llm):
	args_a, args_b = json.dumps({"doctype": "ToDo", "limit": 5}), json.dumps({"name": "TD-0001"})
	llm.script(tool_calls([("call_a", "get_list", args_a), ("call_b", "get_doc", args_b)]))
	turn = stream_turn(request(llm))
	assert [(c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls] == [
		("call_a", "get_list", {"doctype": "ToDo", "limit": 5}),
		("call_b", "get_doc", {"name": "TD-0001"}),
	]
	assert turn.finish_reason == "tool_calls"


def test_rate_limits_and_server_errors_are_retried_with_backoff(llm):
	waits = []
	llm.script(error(429, {"error": {"message": "slow down"}}, {"Retry-After": "2"}), error(500, {"error": {"message": "oops"}}), text("finally"))
	turn = stream_turn(request(llm), sleep=waits.append)
	assert turn.content == "finally" and len(llm.requests) == 3
	assert waits[0] == 2.0 and 0 <= waits[1] <= 1.0


def test_retries_are_bounded_and_keep_the_providers_words(llm):
	llm.script(*[error(429, {"error": {"message": "You exceeded your current quota"}})] * 3)
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, max_retries=2), sleep=lambda s: None)
	assert raised.value.kind == "rate_limit" and "exceeded your current quota" in raised.value.cause
	assert len(llm.requests) == 3


def test_nothing_is_retried_once_text_was_shown(llm):
	llm.script(broken("abcdef", after=2), text("never sent"))
	seen = []
	with pytest.raises(LLMError):
		stream_turn(request(llm), on_delta=seen.append, sleep=lambda s: None)
	assert "".join(seen) == "ab" and len(llm.requests) == 1


def test_auth_errors_are_not_retried_and_never_fall_back(llm):
	llm.script(error(401, {"error": {"message": "Incorrect API key provided: sk-test-123456789"}}))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, fallback_models=("other-model",)), sleep=lambda s: None)
	assert raised.value.kind == "auth" and len(llm.requests) == 1
	assert "sk-test-123456789" not in raised.value.message and "sk-test-123456789" not in raised.value.cause


def test_model_not_found_walks_the_fallback_chain(llm):
	llm.script(error(404, NOT_FOUND), text("from the fallback"))
	turn = stream_turn(request(llm, fallback_models=("backup-model",)))
	assert turn.content == "from the fallback" and turn.model == "openai/backup-model"
	assert [r["body"]["model"] for r in llm.requests] == ["scripted-model", "backup-model"]


def test_an_exhausted_fallback_chain_names_every_model_tried(llm):
	llm.script(error(404, NOT_FOUND), error(404, NOT_FOUND))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, fallback_models=("backup-model",)))
	assert raised.value.kind == "model_not_found"
	assert "openai/scripted-model, openai/backup-model" in raised.value.message


def test_context_too_long_and_empty_answers_are_classified(llm):
	llm.script(error(400, {"error": {"message": "This model's maximum context length is 8192 tokens", "code": "context_length_exceeded"}}))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm))
	assert raised.value.kind == "context_too_long"
	llm.script(empty())
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm))
	assert raised.value.kind == "empty_response" and "answered with nothing" in raised.value.message


def test_a_hung_server_times_out_as_a_network_error(llm):
	llm.script(hang(3))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, timeout=0.5, max_retries=0))
	assert raised.value.kind == "network"


def test_an_unreachable_server_is_a_network_error_that_names_the_url():
	spec = ModelSpec(model="m", provider="Local", api_key=None, api_base="http://127.0.0.1:9/v1")
	with pytest.raises(LLMError) as raised:
		stream_turn(LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}], max_retries=1), sleep=lambda s: None)
	assert raised.value.kind == "network" and "http://127.0.0.1:9/v1" in raised.value.message


def test_cancel_mid_stream_keeps_the_partial_text(llm):
	llm.script(text("one two three four", chunks=4, delay=0.05))
	seen = []
	with pytest.raises(Cancelled) as raised:
		stream_turn(request(llm), on_delta=seen.append, should_cancel=lambda: len(seen) >= 2)
	assert raised.value.partial.content == "".join(seen) and len(seen) == 2


def test_temperature_is_dropped_for_models_that_only_take_the_default(llm):
	llm.script(text("a"), text("b"))
	stream_turn(request(llm, model="gpt-5-mini", temperature=0.2, top_p=0.5))
	assert "temperature" not in llm.requests[-1]["body"] and "top_p" not in llm.requests[-1]["body"]
	stream_turn(request(llm, temperature=0.2))
	assert llm.requests[-1]["body"]["temperature"] == 0.2


def test_litellm_is_imported_once_per_process():
	first = gateway._litellm()
	assert gateway._litellm() is first
