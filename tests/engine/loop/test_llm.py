"""The gateway through real LiteLLM, over real HTTP, to the scripted OpenAI-compatible server."""

import json
import os
import threading
import time
import traceback

import pytest

from huf.ai.engine.llm import Cancelled, LLMError, LLMRequest, ModelSpec, backoff, normalize_model_name, stream_turn
from huf.ai.engine.llm_errors import scrub
from tests.support.scripted_llm import CONTEXT_TOO_LONG, MODEL_NOT_FOUND, broken, empty, error, hang, text, tool_calls, trickled

KEY = "sk-test-1234567890abcdef"
NO_WAIT = lambda seconds, should_cancel: True  # noqa: E731


def recording(waits: list):
	"""A retry wait that only notes how long it was asked to wait."""
	return lambda seconds, should_cancel: waits.append(seconds) or True


def request(server, model="scripted-model", provider="Local", allowed_hosts=None, **kw) -> LLMRequest:
	spec = ModelSpec(model=model, provider=provider, api_key=KEY, api_base=server.base_url, allowed_hosts=allowed_hosts)
	return LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}], **kw)


LOCAL = frozenset({"127.0.0.1"})  # the site's allow-list letting the scripted server in: the call is pinned


@pytest.mark.parametrize(
	"model, provider, base, expected",
	[
		("gpt-4o-mini", "OpenAI", None, "openai/gpt-4o-mini"),
		("gpt-4o-mini", "openai", None, "openai/gpt-4o-mini"),
		("openai/gpt-4o", "OpenAI", None, "openai/gpt-4o"),
		("anthropic/claude-3-5-sonnet-latest", "OpenAI", None, "anthropic/claude-3-5-sonnet-latest"),
		("claude-3-5-sonnet-latest", "Anthropic", None, "anthropic/claude-3-5-sonnet-latest"),
		("gemini-1.5-pro", "Google", None, "gemini/gemini-1.5-pro"),
		("gemini-1.5-pro", "Gemini", None, "gemini/gemini-1.5-pro"),
		("grok-4", "Grok", None, "xai/grok-4"),
		("grok-4", "xAI", None, "xai/grok-4"),
		("mistral-large-latest", "Mistral", None, "mistral/mistral-large-latest"),
		("qwen-max", "Alibaba", None, "dashscope/qwen-max"),
		("command-r", "Cohere", None, "cohere/command-r"),
		("sonar", "Perplexity", None, "perplexity/sonar"),
		("Llama-4-Maverick", "Meta", None, "meta_llama/Llama-4-Maverick"),
		("deepseek-chat", "DeepSeek", None, "deepseek/deepseek-chat"),
		("meta-llama/llama-3-70b", "OpenRouter", None, "openrouter/meta-llama/llama-3-70b"),
		("openai/gpt-4o", "OpenRouter", None, "openrouter/openai/gpt-4o"),
		("openrouter/openai/gpt-4o", "OpenRouter", None, "openrouter/openai/gpt-4o"),
		("openai/gpt-oss-120b", "Groq", None, "groq/openai/gpt-oss-120b"),
		("meta-llama/Llama-3-70b-chat-hf", "Together", None, "together_ai/meta-llama/Llama-3-70b-chat-hf"),
		("llama3.1", "Ollama", "http://localhost:11434", "ollama_chat/llama3.1"),
		("qwen2.5-7b", "LM Studio", "http://localhost:1234/v1", "lm_studio/qwen2.5-7b"),
		("qwen2.5-7b", "My Local Server", "http://localhost:1234/v1", "openai/qwen2.5-7b"),
		("gpt-4o-mini", "My Local Server", "http://localhost:8000/v1", "openai/gpt-4o-mini"),
		("meta-llama/Llama-3-8B", "vLLM box", "http://gpu:8000/v1", "openai/meta-llama/Llama-3-8B"),
		("ollama_chat/llama3", "Local", "http://localhost:11434", "ollama_chat/llama3"),
		("gpt-4o-mini", "Unknown Co", None, "gpt-4o-mini"),
		("mystery-model", "Unknown Co", None, "openai/mystery-model"),
		("mystery-model", None, None, "openai/mystery-model"),
	],
)
def test_model_names_are_normalized_for_litellm(model, provider, base, expected):
	assert normalize_model_name(model, provider, base) == expected


def test_text_streams_in_order_and_the_key_goes_per_call_never_into_the_environment(llm):
	environment = dict(os.environ)
	llm.script(text("Hello there, friend", chunks=["Hel", "lo the", "re, ", "friend"], usage=(12, 7, 3)))
	seen = []
	turn = stream_turn(request(llm), on_delta=seen.append)
	assert seen == ["Hel", "lo the", "re, ", "friend"] and turn.content == "Hello there, friend"
	assert (turn.usage.input_tokens, turn.usage.output_tokens, turn.usage.cached_tokens) == (12, 7, 3)
	assert turn.model == "openai/scripted-model" and turn.tool_calls == () and turn.finish_reason == "stop"
	sent = llm.requests[-1]
	assert sent["headers"]["authorization"] == f"Bearer {KEY}"
	assert sent["body"]["stream"] is True and sent["body"]["stream_options"] == {"include_usage": True}
	assert dict(os.environ) == environment
	assert not any(KEY in value for value in os.environ.values())


def test_streamed_tool_call_fragments_are_assembled_per_call(llm):
	args_a = json.dumps({"doctype": "ToDo", "filters": {"status": "Open"}, "limit": 5})
	args_b = json.dumps({"doctype": "ToDo", "name": "TD-0001"})
	llm.script(tool_calls([("call_a", "get_list", args_a), ("call_b", "get_doc", args_b)], content="Looking.", usage=(30, 20, 0)))
	seen = []
	turn = stream_turn(request(llm), on_delta=seen.append)
	assert [(c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls] == [
		("call_a", "get_list", {"doctype": "ToDo", "filters": {"status": "Open"}, "limit": 5}),
		("call_b", "get_doc", {"doctype": "ToDo", "name": "TD-0001"}),
	]
	assert turn.content == "Looking." and seen == ["Looking."] and turn.finish_reason == "tool_calls"
	assert turn.usage.input_tokens == 30


def test_tools_and_sampling_settings_reach_the_provider(llm):
	tool = {"type": "function", "function": {"name": "get_doc", "parameters": {"type": "object", "properties": {}}}}
	llm.script(text("ok"))
	stream_turn(request(llm, tools=[tool], temperature=0.2, top_p=0.9, max_tokens=50))
	body = llm.requests[-1]["body"]
	assert body["tools"] == [tool] and body["temperature"] == 0.2 and body["top_p"] == 0.9 and body["max_tokens"] == 50


def test_temperature_and_top_p_are_dropped_for_models_that_only_take_the_default(llm):
	llm.script(text("a"), text("b"), text("c"))
	turn = stream_turn(request(llm, model="gpt-5-mini", temperature=0.2, top_p=0.5))
	assert turn.content == "a"
	assert "temperature" not in llm.requests[-1]["body"] and "top_p" not in llm.requests[-1]["body"]
	stream_turn(request(llm, model="o3-mini", temperature=0.2))
	assert "temperature" not in llm.requests[-1]["body"]
	# Through OpenRouter LiteLLM does not know the restriction; the gateway still drops them.
	stream_turn(request(llm, model="openai/gpt-5-mini", provider="OpenRouter", temperature=0.2, top_p=0.5))
	sent = llm.requests[-1]["body"]
	assert sent["model"] == "openai/gpt-5-mini" and "temperature" not in sent and "top_p" not in sent


def test_rate_limits_and_server_errors_are_retried_with_backoff(llm):
	waits = []
	llm.script(
		error(429, {"error": {"message": "slow down"}}, {"Retry-After": "2"}),
		error(500, {"error": {"message": "oops"}}),
		text("finally"),
	)
	turn = stream_turn(request(llm), wait=recording(waits))
	assert turn.content == "finally" and len(llm.requests) == 3
	assert waits[0] == 2.0  # the provider's Retry-After
	assert 0 <= waits[1] <= 1.0  # attempt 2: full jitter over 0.5 * 2


def test_a_timeout_is_retried_like_any_network_failure(llm):
	llm.script(hang(1.5), text("second try"))
	started = time.monotonic()
	turn = stream_turn(request(llm, timeout=0.3, max_retries=1), wait=NO_WAIT)
	assert turn.content == "second try" and len(llm.requests) == 2
	assert time.monotonic() - started < 1.4  # did not wait for the hung answer


def test_backoff_is_full_jitter_capped_and_honours_a_capped_retry_after():
	for attempt in range(1, 10):
		for _ in range(50):
			assert 0 <= backoff(attempt) <= min(8.0, 0.5 * 2 ** (attempt - 1))
	assert backoff(1, 3.0) == 3.0 and backoff(1, 3600.0) == 30.0
	assert len({backoff(4) for _ in range(20)}) > 1  # jittered, not fixed


def test_retries_are_bounded_and_keep_the_providers_words(llm):
	llm.script(*[error(429, {"error": {"message": "You exceeded your current quota"}})] * 3, text("unused"))
	waits = []
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, max_retries=2), wait=recording(waits))
	assert raised.value.kind == "rate_limit" and raised.value.status_code == 429
	assert raised.value.cause == "You exceeded your current quota"
	assert "You exceeded your current quota" in raised.value.message
	assert len(llm.requests) == 3 and len(waits) == 2 and llm.pending == 1


def test_server_errors_are_final_after_the_last_retry(llm):
	llm.script(*[error(503, "upstream overloaded")] * 2)
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, max_retries=1), wait=NO_WAIT)
	assert raised.value.kind == "server" and raised.value.cause == "upstream overloaded" and len(llm.requests) == 2


def test_nothing_is_retried_once_text_was_shown(llm):
	llm.script(broken("abcdef", after=2), text("never sent"))
	seen = []
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm), on_delta=seen.append, wait=NO_WAIT)
	assert raised.value.kind == "network"
	assert seen == ["a", "b"] and len(llm.requests) == 1 and llm.pending == 1


def test_a_stream_cut_before_any_text_is_retried(llm):
	llm.script(broken("abc", after=0), text("whole answer"))
	seen = []
	turn = stream_turn(request(llm), on_delta=seen.append, wait=NO_WAIT)
	assert turn.content == "whole answer" and seen == ["whole answer"] and len(llm.requests) == 2


def test_auth_errors_are_not_retried_never_fall_back_and_never_reveal_the_key(llm):
	llm.script(error(401, {"error": {"message": f"Incorrect API key provided: {KEY}", "code": "invalid_api_key"}}), text("unused"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, provider="OpenAI", model="openai/x", fallback_models=("other-model",)), wait=NO_WAIT)
	failure = raised.value
	assert failure.kind == "auth" and failure.status_code == 401 and len(llm.requests) == 1
	assert "API key" in failure.message and "AI Provider" in failure.message
	assert "Incorrect API key provided" in failure.cause
	assert KEY not in "".join(traceback.format_exception(failure))
	link, seen = failure, []  # nothing the error leads to, shown or suppressed, holds the key
	while link is not None and link not in seen:
		seen.append(link)
		assert KEY not in str(link) and KEY not in str(getattr(link, "body", "")), type(link).__name__
		link = link.__cause__ or link.__context__
	assert seen == [failure]


@pytest.mark.parametrize(
	"text, secret, scrubbed",
	[
		(f"Authorization: Bearer {KEY} was refused", KEY, "Authorization: Bearer [hidden] was refused"),
		("Bearer abc.def-123 was refused", None, "Bearer [hidden] was refused"),
		(f"Incorrect API key provided: {KEY}.", KEY, "Incorrect API key provided: [hidden]."),
		("Incorrect API key provided: sk-proj-abcdefghijkl", None, "Incorrect API key provided: sk-pr…"),
	],
)
def test_scrub_hides_each_key_once_and_leaves_the_rest_readable(text, secret, scrubbed):
	assert scrub(text, secret) == scrubbed


def test_model_not_found_walks_the_fallback_chain(llm):
	llm.script(error(404, MODEL_NOT_FOUND), text("from the fallback"))
	turn = stream_turn(request(llm, fallback_models=("backup-model",)), wait=NO_WAIT)
	assert turn.content == "from the fallback" and turn.model == "openai/backup-model"
	assert [r["body"]["model"] for r in llm.requests] == ["scripted-model", "backup-model"]


def test_no_access_to_a_model_also_falls_back(llm):
	# OpenAI answers 403 for a model the project may not use; LiteLLM raises a plain APIError for it.
	no_access = {"error": {"message": "Project `proj_1` does not have access to model `gpt-5`", "code": "model_not_found"}}
	llm.script(error(403, no_access), text("from the sibling"))
	turn = stream_turn(request(llm, model="gpt-5", fallback_models=("gpt-4o-mini",)), wait=NO_WAIT)
	assert turn.model == "openai/gpt-4o-mini" and turn.content == "from the sibling"


def test_an_exhausted_fallback_chain_names_every_model_tried(llm):
	llm.script(error(404, MODEL_NOT_FOUND), error(404, MODEL_NOT_FOUND), error(404, MODEL_NOT_FOUND))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, fallback_models=("backup-model", "last-resort")), wait=NO_WAIT)
	failure = raised.value
	assert failure.kind == "model_not_found" and len(llm.requests) == 3
	assert "openai/scripted-model, openai/backup-model, openai/last-resort" in failure.message
	assert "access" in failure.message and failure.cause == "The model `x` does not exist"


def test_rate_limits_never_fall_back(llm):
	llm.script(error(429, {"error": {"message": "slow down"}}), text("unused"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, fallback_models=("backup-model",), max_retries=0), wait=NO_WAIT)
	assert raised.value.kind == "rate_limit" and [r["body"]["model"] for r in llm.requests] == ["scripted-model"]


def test_context_too_long_is_classified_and_not_retried(llm):
	llm.script(error(400, CONTEXT_TOO_LONG), text("unused"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm), wait=NO_WAIT)
	assert raised.value.kind == "context_too_long" and len(llm.requests) == 1
	assert "maximum context length is 8192" in raised.value.cause


def test_a_bad_request_is_final(llm):
	llm.script(error(400, {"error": {"message": "Invalid value for 'messages'"}}), text("unused"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm), wait=NO_WAIT)
	assert raised.value.kind == "bad_request" and raised.value.cause == "Invalid value for 'messages'"
	assert len(llm.requests) == 1


def test_an_empty_answer_is_an_error_not_a_blank_message(llm):
	llm.script(empty(), text("unused"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm), wait=NO_WAIT)
	assert raised.value.kind == "empty_response" and "answered with nothing" in raised.value.message
	assert len(llm.requests) == 1


def test_a_hung_server_times_out_as_a_network_error(llm):
	llm.script(hang(3))
	started = time.monotonic()
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, timeout=0.3, max_retries=0))
	assert raised.value.kind == "network" and time.monotonic() - started < 2


def test_an_unreachable_server_is_a_network_error_that_names_the_url():
	spec = ModelSpec(model="m", provider="Local", api_key=None, api_base="http://127.0.0.1:9/v1")
	waits = []
	with pytest.raises(LLMError) as raised:
		stream_turn(LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}], max_retries=1), wait=recording(waits))
	assert raised.value.kind == "network" and "http://127.0.0.1:9/v1" in raised.value.message
	assert "refused" in raised.value.cause.lower() and len(waits) == 1


def test_an_api_base_given_the_sites_allow_list_is_checked_as_it_is_connected_to(llm):
	"""pinned.py: with the allow-list the call connects through safe_http, so the address is judged
	when connecting (not only before, where a changed DNS answer could slip past)."""
	llm.script(text("through the check", chunks=["through ", "the check"]), text("never sent"))
	seen = []
	turn = stream_turn(request(llm, allowed_hosts=LOCAL), on_delta=seen.append)
	assert turn.content == "through the check" and seen == ["through ", "the check"]
	assert llm.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"
	sent = len(llm.requests)
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, allowed_hosts=frozenset(), max_retries=0))
	assert raised.value.kind == "blocked" and "neither the request nor the key went there" in raised.value.message
	assert "points to 127.0.0.1, a private address" in raised.value.cause
	assert len(llm.requests) == sent  # refused before connecting: the server never heard of it
	assert KEY not in raised.value.message and KEY not in raised.value.cause


def test_cancel_mid_stream_keeps_the_partial_text(llm):
	llm.script(text("one two three four", chunks=4, delay=0.02))
	seen = []
	with pytest.raises(Cancelled) as raised:
		stream_turn(request(llm), on_delta=seen.append, should_cancel=lambda: len(seen) >= 2)
	assert raised.value.kind == "cancelled" and len(seen) == 2
	assert raised.value.partial.content == "".join(seen) == "one two th"


def test_without_usage_from_the_server_litellm_estimates_it(llm):
	# LiteLLM 1.97 counts tokens itself when the stream carries no usage: cost is approximate, not 0.
	llm.script(text("a reasonably long answer with several words", usage=None))
	turn = stream_turn(request(llm))
	assert turn.usage.input_tokens > 0 and turn.usage.output_tokens > 0


# --- deadlines and cancel while waiting ---------------------------------------------------------


def model_stream_threads() -> int:
	return sum(thread.name == "huf-model-stream" for thread in threading.enumerate())


def test_a_slow_model_is_stopped_at_the_calls_deadline_not_after_its_last_chunk(llm):
	llm.script(text("one two three four five six seven eight nine ten", chunks=10, delay=1.0))
	seen = []
	started = time.monotonic()
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, timeout=5, deadline=2), on_delta=seen.append)
	assert raised.value.kind == "timeout" and time.monotonic() - started < 4  # not the 10 s of all ten chunks
	assert "took longer than 2 seconds" in raised.value.message and "Model Call Time Limit in Agent Settings" in raised.value.message
	assert 1 <= len(seen) < 10


@pytest.mark.parametrize("allowed_hosts", [None, LOCAL], ids=["litellm-connects", "pinned"])
def test_a_server_trickling_bytes_is_stopped_at_the_deadline_and_hung_up_on(llm, allowed_hosts):
	llm.script(trickled("a long answer that arrives one byte at a time", seconds_per_byte=0.05))
	started = time.monotonic()
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, allowed_hosts=allowed_hosts, timeout=5, deadline=1), on_delta=[].append)
	assert raised.value.kind == "timeout" and time.monotonic() - started < 3  # each read got a byte: no read timed out
	until = time.monotonic() + 3
	while model_stream_threads() and time.monotonic() < until:
		time.sleep(0.05)
	assert model_stream_threads() == 0  # the connection was shut down, not left trickling


def test_cancel_is_seen_while_the_provider_is_silent(llm):
	llm.script(hang(5))
	started = time.monotonic()
	with pytest.raises(Cancelled):
		stream_turn(request(llm, timeout=10), should_cancel=lambda: time.monotonic() - started > 0.3)
	assert time.monotonic() - started < 2  # not the 5 s the provider took to say anything


def test_a_wait_between_retries_wakes_when_the_run_is_cancelled(llm):
	llm.script(error(429, {"error": {"message": "slow down"}}, {"Retry-After": "20"}), text("never asked for"))
	started = time.monotonic()
	with pytest.raises(Cancelled):
		stream_turn(request(llm), should_cancel=lambda: time.monotonic() - started > 0.5)
	assert time.monotonic() - started < 3 and len(llm.requests) == 1  # not the 20 s the provider asked for


def test_a_retry_whose_wait_would_pass_the_deadline_gives_the_error_at_once(llm):
	llm.script(error(429, {"error": {"message": "slow down"}}, {"Retry-After": "20"}), text("never asked for"))
	waits = []
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm, deadline=5), wait=recording(waits))
	assert raised.value.kind == "rate_limit" and waits == [] and len(llm.requests) == 1


def test_an_error_from_the_listener_is_not_taken_for_a_provider_error(llm):
	llm.script(text("hello", chunks=2), text("never asked for"))

	def listener(_text):
		raise RuntimeError("the recorder could not write")

	with pytest.raises(RuntimeError, match="the recorder could not write"):
		stream_turn(request(llm), on_delta=listener, wait=NO_WAIT)
	assert len(llm.requests) == 1
