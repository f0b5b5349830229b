"""The chunks of a streamed LiteLLM completion, read where they cost least.

``litellm.completion(stream=True)`` returns a ``CustomStreamWrapper``. On the OpenAI route (OpenAI
itself and every OpenAI-compatible API Base: Together, LM Studio, DeepInfra and others, which
LiteLLM runs as provider "openai" too) what it wraps is the OpenAI SDK's own stream, whose chunks are
already in the shape Huf reads. For each one the wrapper builds and validates a copy of its own
(``ModelResponseStream``), formats it for debug lines nobody prints, and at the end rebuilds the
whole answer, deep-copies it twice and prices it for logging callbacks Huf does not have. That was
five times what the SDK's own reading costs per chunk, and most of a short round
(``benchmarks/model_round.py``).

``chunks_of`` reads such a stream from the SDK's stream behind the wrapper, as the JSON objects the
server sent: the SDK still decodes the events and raises an error a server streams, but the
``ChatCompletionChunk`` it would build per event (most of its own cost per chunk) is skipped too;
the assembler in ``llm.py`` reads dicts and objects alike. LiteLLM still chose the route, built
the request, made the client and opened the stream; what its wrapper did that Huf relies on is
kept here: LiteLLM's own mapping of a failure mid-stream (the wrapper's
``_handle_stream_fallback_error``), ``received_finish_reason`` (a stream that just stops was cut:
``feed.py``), a ``finish_reason`` of "error" as a failure, and the stop for a model that repeats one
chunk (``REPEATED_STREAMING_CHUNK_LIMIT``). Usage the server did not send is estimated with
LiteLLM's token counter (``estimated_usage``), as the wrapper did. Every other provider is read
through the wrapper: its chunks need LiteLLM's translation.
"""

from __future__ import annotations

from typing import Any, Iterator

from huf.ai.engine.events import Usage
from huf.ai.engine.litellm_import import load_litellm


def chunks_of(stream: Any) -> Any:
	"""What to read for ``stream``: the SDK's stream behind LiteLLM's wrapper on the OpenAI route,
	else ``stream`` itself."""
	if getattr(stream, "custom_llm_provider", None) == "openai" and _is_sdk_stream(getattr(stream, "completion_stream", None)):
		return SDKChunks(stream)
	return stream


def _is_sdk_stream(source: Any) -> bool:
	"""An ``openai.Stream`` whose events this module knows how to read (``SDKChunks._chunks``)."""
	from openai import Stream

	return isinstance(source, Stream) and hasattr(source, "_iter_events") and hasattr(source, "response")


class SDKChunks:
	"""The chunks of the OpenAI SDK's stream behind a ``CustomStreamWrapper``, as the JSON objects the
	server sent (``dict``s in OpenAI's chunk shape): the SDK decodes the server-sent events and
	raises the errors a server streams, as it does for its own chunks, but builds no
	``ChatCompletionChunk`` per event (most of what a chunk cost the SDK itself, and nothing Huf
	reads). ``completion_stream`` and ``close`` are there for ``feed.py``, which hangs up through
	them as it would through the wrapper."""

	def __init__(self, wrapper: Any):
		self.wrapper = wrapper
		self.completion_stream = wrapper.completion_stream
		self.received_finish_reason: str | None = None

	def __iter__(self) -> Iterator[Any]:
		litellm = load_litellm()
		limit = getattr(litellm, "REPEATED_STREAMING_CHUNK_LIMIT", 100)
		last, repeated = None, 1
		try:
			for chunk in self._chunks():
				choices = chunk.get("choices")
				if choices:
					choice = choices[0] or {}
					reason = choice.get("finish_reason")
					if reason:
						if reason == "error":
							raise RuntimeError(f"{self.wrapper.custom_llm_provider} raised a streaming error - finish_reason: error")
						self.received_finish_reason = reason
					content = (choice.get("delta") or {}).get("content")
					if isinstance(content, str) and len(content) > 2:
						repeated = repeated + 1 if content == last else 1
						last = content
						if repeated >= limit:
							raise litellm.InternalServerError(
								message=f"The model is repeating the same chunk = {content}.", model="", llm_provider=""
							)
					else:
						last, repeated = None, 1
				yield chunk
		except Exception as error:  # noqa: BLE001 - mapped by LiteLLM exactly as its wrapper maps it
			handle = getattr(self.wrapper, "_handle_stream_fallback_error", None)
			if handle is None:
				raise
			handle(error)

	def _chunks(self) -> Iterator[dict]:
		"""What ``openai.Stream.__stream__`` does for a chat completion, less the model it builds."""
		from openai import APIError

		stream = self.completion_stream
		try:
			for event in stream._iter_events():
				if event.data.startswith("[DONE]"):
					break
				data = event.json()
				if isinstance(data, dict) and data.get("error"):
					error = data["error"]
					message = error.get("message") if isinstance(error, dict) else None
					if not message or not isinstance(message, str):
						message = "An error occurred during streaming"
					raise APIError(message=message, request=stream.response.request, body=error)
				if isinstance(data, dict):
					yield data
		finally:
			stream.response.close()

	def close(self) -> None:
		self.completion_stream.close()


def estimated_usage(model: str, messages: list[dict], answer: str) -> Usage:
	"""LiteLLM's token count of ``messages`` and ``answer``, for a server that sent no usage (what the
	wrapper's end-of-stream rebuild gave). Zero when LiteLLM cannot count them."""
	litellm = load_litellm()
	try:
		prompt = litellm.token_counter(model=model, messages=messages)
	except Exception:  # noqa: BLE001 - an estimate only: unknown content counts as nothing
		prompt = 0
	try:
		completion = litellm.token_counter(model=model, text=answer, count_response_tokens=True) if answer else 0
	except Exception:  # noqa: BLE001
		completion = 0
	return Usage(int(prompt or 0), int(completion or 0), 0)
