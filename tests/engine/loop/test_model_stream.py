"""How a model's stream is read: the OpenAI SDK's chunks behind LiteLLM's wrapper (chunks.py), in
reader threads kept between calls (readers.py)."""

import os
import threading
import time

import pytest

from huf.ai.engine import readers
from huf.ai.engine.chunks import SDKChunks, chunks_of
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm import LLMError, LLMRequest, ModelSpec, stream_turn
from tests.support.scripted_llm import Reply, text, tool_calls

LOCAL = frozenset({"127.0.0.1"})


def request(server, allowed_hosts=LOCAL) -> LLMRequest:
	spec = ModelSpec(model="scripted-model", provider="Local", api_key="sk-stream", api_base=server.base_url, allowed_hosts=allowed_hosts)
	return LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}], max_retries=0)


# --- chunks.py ----------------------------------------------------------------------------------


def test_the_openai_route_is_read_from_the_sdks_stream(llm):
	llm.script(text("hello"))
	stream = load_litellm().completion(
		model="openai/scripted-model", api_base=llm.base_url, api_key="k", messages=[{"role": "user", "content": "hi"}], stream=True
	)
	source = chunks_of(stream)
	assert isinstance(source, SDKChunks) and source.completion_stream is stream.completion_stream
	pieces = list(source)
	assert all(isinstance(piece, dict) for piece in pieces)  # as the server sent them: no SDK model built per chunk
	assert "".join(p["choices"][0]["delta"].get("content") or "" for p in pieces if p["choices"]) == "hello"
	assert source.received_finish_reason == "stop"


def test_litellm_builds_no_chunk_of_its_own_on_the_openai_route(llm, monkeypatch):
	"""What made a chunk cost five times the SDK's: LiteLLM's copy of each one. With or without the pinned client."""

	def refuse(*args, **kwargs):
		raise AssertionError("LiteLLM's wrapper built a chunk")

	monkeypatch.setattr(load_litellm().CustomStreamWrapper, "chunk_creator", refuse)
	for allowed in (LOCAL, None):
		llm.script(text("one two three", chunks=3), tool_calls([("c1", "find", '{"q": "x"}')]))
		assert stream_turn(request(llm, allowed)).content == "one two three"
		turn = stream_turn(request(llm, allowed))
		assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [("c1", "find", '{"q": "x"}')]
		assert turn.usage.input_tokens == 10 and turn.finish_reason == "tool_calls"


def test_a_model_repeating_one_chunk_is_stopped_as_litellm_stops_it(llm):
	limit = load_litellm().REPEATED_STREAMING_CHUNK_LIMIT
	llm.script(text("same" * (limit + 5), chunks=["same"] * (limit + 5)))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm), on_delta=lambda piece: None)
	assert raised.value.kind == "server" and "repeating the same chunk" in raised.value.message


def test_a_finish_reason_of_error_is_a_failure(llm):
	llm.script(Reply(content="half an answer", chunks=["half an answer"], finish_reason="error"))
	with pytest.raises(LLMError) as raised:
		stream_turn(request(llm))
	assert "streaming error" in raised.value.message


def test_usage_is_estimated_when_the_server_sends_none_also_for_tool_calls(llm):
	llm.script(tool_calls([("c1", "find", '{"query": "opening hours of the library"}')], usage=None))
	turn = stream_turn(request(llm))
	assert turn.usage.input_tokens > 0 and turn.usage.output_tokens > 0


def test_the_usage_estimate_is_litellms_own(llm):
	"""Without usage from the server, the OpenAI route counts what LiteLLM's wrapper counts on a route
	it still reads (vLLM's)."""
	turns = {}
	for provider in ("Local", "vLLM"):
		llm.script(text("a reasonably long answer with several words", usage=None))
		spec = ModelSpec(model="scripted-model", provider=provider, api_key="sk-stream", api_base=llm.base_url)
		turns[provider] = stream_turn(LLMRequest(model=spec, messages=[{"role": "user", "content": "hello there, how are you"}]))
	assert turns["Local"].model.startswith("openai/") and turns["vLLM"].model.startswith("hosted_vllm/")
	assert turns["Local"].usage == turns["vLLM"].usage and turns["Local"].usage.output_tokens > 0


class _Event:
	def __init__(self, data: str):
		self.data, self.event = data, None

	def json(self):
		import json

		return json.loads(self.data)


class _Response:
	request = None
	closed = False

	def close(self):
		self.closed = True


class _Stream:
	"""The part of ``openai.Stream`` SDKChunks reads: its decoded events and its response."""

	def __init__(self, *data: str):
		self.events, self.response = [_Event(d) for d in data], _Response()

	def _iter_events(self):
		yield from self.events


class _Wrapper:
	custom_llm_provider = "openai"

	def __init__(self, stream):
		self.completion_stream = stream

	def _handle_stream_fallback_error(self, error):
		raise error


def test_an_error_the_server_streams_is_raised_as_the_sdk_raises_it():
	from openai import APIError

	stream = _Stream('{"choices": [{"index": 0, "delta": {"content": "par"}}]}', '{"error": {"message": "overloaded"}}')
	with pytest.raises(APIError, match="overloaded"):
		list(SDKChunks(_Wrapper(stream)))
	assert stream.response.closed


def test_the_stream_ends_at_done_and_hands_its_connection_back():
	stream = _Stream('{"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]}', "[DONE]", "{not json")
	source = SDKChunks(_Wrapper(stream))
	assert [c["choices"][0]["delta"]["content"] for c in source] == ["hi"]
	assert source.received_finish_reason == "stop" and stream.response.closed


# --- readers.py ---------------------------------------------------------------------------------


def idle_readers() -> int:
	return sum(thread.name == readers.WAITING for thread in threading.enumerate())


def wait_for(condition, seconds=3.0) -> bool:
	until = time.monotonic() + seconds
	while not condition() and time.monotonic() < until:
		time.sleep(0.01)
	return condition()


def test_the_next_call_is_read_by_the_thread_that_read_the_last():
	seen = []
	readers.run(lambda: seen.append(threading.get_ident()))
	assert wait_for(lambda: len(seen) == 1 and idle_readers() >= 1)
	readers.run(lambda: seen.append(threading.get_ident()))
	assert wait_for(lambda: len(seen) == 2)
	assert seen[0] == seen[1]


def test_a_reader_left_waiting_ends(monkeypatch):
	monkeypatch.setattr(readers, "IDLE", 0.05)
	used = []
	readers.run(lambda: used.append(threading.current_thread()))
	assert wait_for(lambda: used and not used[0].is_alive())


def test_a_forked_child_reads_with_its_own_thread():
	readers.run(lambda: None)
	assert wait_for(lambda: idle_readers() >= 1)
	pid = os.fork()
	if pid == 0:  # the child: the parent's waiting reader is not here
		done = threading.Event()
		readers.run(done.set)
		os._exit(0 if done.wait(5) else 1)
	_, status = os.waitpid(pid, 0)
	assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_a_reader_starts_each_call_with_an_empty_context():
	import contextvars

	mark = contextvars.ContextVar("mark", default="unset")
	seen = []
	readers.run(lambda: (seen.append(mark.get()), mark.set("first call")))
	assert wait_for(lambda: len(seen) == 1 and idle_readers() >= 1)
	readers.run(lambda: seen.append(mark.get()))
	assert wait_for(lambda: len(seen) == 2)
	assert seen == ["unset", "unset"]
