"""The chunks of a streamed LiteLLM completion, read where they cost least.

``litellm.completion(stream=True)`` returns a ``CustomStreamWrapper``. On the OpenAI route (OpenAI
itself and every OpenAI-compatible API Base: Together, LM Studio, DeepInfra and others, which
LiteLLM runs as provider "openai" too) what it wraps is the OpenAI SDK's own stream, whose chunks are
already in the shape Huf reads. For each one the wrapper builds and validates a copy of its own
(``ModelResponseStream``), formats it for debug lines nobody prints, and at the end rebuilds the
whole answer, deep-copies it twice and prices it for logging callbacks Huf does not have. That was
five times what the SDK's own reading costs per chunk, and most of a short round
(``benchmarks/model_round.py``).

``chunks_of`` reads such a stream from the SDK's stream behind the wrapper. LiteLLM still chose the
route, built the request, made the client and opened the stream; what its wrapper did that Huf
relies on is kept here: LiteLLM's own mapping of a failure mid-stream (the wrapper's
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
	from openai import Stream

	return isinstance(source, Stream)


class SDKChunks:
	"""The OpenAI SDK's chunks behind a ``CustomStreamWrapper``. ``completion_stream`` and ``close``
	are there for ``feed.py``, which hangs up through them as it would through the wrapper."""

	def __init__(self, wrapper: Any):
		self.wrapper = wrapper
		self.completion_stream = wrapper.completion_stream
		self.received_finish_reason: str | None = None

	def __iter__(self) -> Iterator[Any]:
		litellm = load_litellm()
		limit = getattr(litellm, "REPEATED_STREAMING_CHUNK_LIMIT", 100)
		last, repeated = None, 1
		try:
			for chunk in self.completion_stream:
				choices = chunk.choices
				if choices:
					reason = choices[0].finish_reason
					if reason:
						if reason == "error":
							raise RuntimeError(f"{self.wrapper.custom_llm_provider} raised a streaming error - finish_reason: error")
						self.received_finish_reason = reason
					delta = choices[0].delta
					content = delta.content if delta is not None else None
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
