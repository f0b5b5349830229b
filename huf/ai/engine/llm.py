"""The LLM gateway: one streamed completion through LiteLLM, with Huf's retries, fallback and errors.

- Streaming is the only path. ``stream_turn`` assembles text and tool-call fragments into a
  ``ModelTurn``; a caller that wants no deltas simply passes no ``on_delta``.
- The key and base URL go to LiteLLM as arguments on every call, never through ``os.environ``
  (one worker serves many sites; the environment would leak keys between them). The key never
  appears in an ``LLMError``: it is scrubbed even when the provider echoes it back.
- Retries are ours alone (LiteLLM's and the OpenAI client's are switched off) and bounded: rate
  limits, 5xx and network failures, exponential backoff with full jitter, honouring Retry-After,
  and only before the first delta (retrying after text was shown would show it twice). A wait
  between retries wakes as soon as the run is cancelled.
- Two clocks: ``timeout`` is how long the provider may stay silent; ``deadline`` is how long the
  whole call may take (retries, waits and every chunk of the answer), however the provider
  trickles. Past it the call fails with kind "timeout" (``feed.py`` reads the stream).
- Fallback models are tried only when the provider says the model does not exist or this key
  cannot use it (ADR-024): an auth, rate-limit or network failure would recur on the next model
  and hide the real problem.
- Every failure is an ``LLMError`` with a ``kind`` and a message a Desk admin can act on; the
  provider's own words are kept in ``cause``.

Usage comes from the provider's final usage chunk (we always ask for it with
``stream_options.include_usage``). When a server sends none, LiteLLM's token counter estimates it
(``chunks.estimated_usage``, what LiteLLM's own stream gave), so the numbers are approximate but not
zero.

LiteLLM chooses the route, translates the request, makes the client and maps errors for every
provider; on the OpenAI route Huf then reads the events of the OpenAI SDK's stream behind
LiteLLM's stream wrapper as the dicts the server sent (``chunks.py``), and LiteLLM's logging and
pricing work Huf has no use for is switched off once per process (``litellm_import.quiet``). ``benchmarks/model_round.py`` holds a round against
the OpenAI SDK's own.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from typing import Any, Callable

from huf.ai.engine import pinned, prompt_cache
from huf.ai.engine.chunks import chunks_of, estimated_usage
from huf.ai.engine.events import ToolCall, Usage
from huf.ai.engine.feed import Feed, pause
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm_errors import Cancelled, LLMError, classify, mentions_secret
from huf.ai.engine.llm_types import DEFAULT_DEADLINE, LLMRequest, ModelSpec, ModelTurn

# --- configuration ----------------------------------------------------------------------------

# AI Provider name (lower case) -> LiteLLM prefix, with the reference's aliases.
PROVIDER_PREFIXES: dict[str, str] = {
	"openai": "openai",
	"anthropic": "anthropic",
	"google": "gemini",  # Google AI Studio is "gemini/" in LiteLLM
	"gemini": "gemini",
	"openrouter": "openrouter",
	"xai": "xai",
	"grok": "xai",
	"mistral": "mistral",
	"alibaba": "dashscope",
	"dashscope": "dashscope",
	"cohere": "cohere",
	"perplexity": "perplexity",
	"meta": "meta_llama",
	"meta-llama": "meta_llama",
	"meta_llama": "meta_llama",
	"ollama": "ollama_chat",
	"groq": "groq",
	"deepseek": "deepseek",
	"together": "together_ai",
	"together ai": "together_ai",
	"together_ai": "together_ai",
	"fireworks": "fireworks_ai",
	"fireworks ai": "fireworks_ai",
	"deepinfra": "deepinfra",
	"lm studio": "lm_studio",
	"lmstudio": "lm_studio",
	"lm_studio": "lm_studio",
	"vllm": "hosted_vllm",
	"hosted_vllm": "hosted_vllm",
}
# Providers whose own model ids contain a slash ("meta-llama/llama-3-70b", "openai/gpt-oss-120b"):
# their prefix is always added, even when the id happens to start like another provider's prefix.
AGGREGATORS = {"openrouter", "together_ai", "groq", "fireworks_ai", "deepinfra", "hosted_vllm", "lm_studio"}
# LiteLLM provider prefixes a model may already carry ("openai/gpt-4o"): used as typed.
LITELLM_PREFIXES = set(PROVIDER_PREFIXES.values()) | {
	"ollama", "azure", "azure_ai", "bedrock", "vertex_ai", "huggingface", "replicate", "sagemaker",
	"cloudflare", "databricks", "watsonx", "nvidia_nim", "cerebras", "sambanova", "ai21", "anthropic_text",
	"cohere_chat", "codestral", "text-completion-openai", "custom_openai", "openai_like", "github",
	"friendliai", "litellm_proxy", "xinference", "vllm", "llamafile", "moonshot", "novita", "nebius",
	"zai", "volcengine", "minimax", "perplexity", "predibase", "triton", "oci", "snowflake",
}
# Reasoning models that accept only the default temperature (and no top_p).
FIXED_SAMPLING = re.compile(r"(^|/)(gpt-5(?!-chat)|o[134]($|-))")
BACKOFF_BASE, BACKOFF_CAP, RETRY_AFTER_CAP = 0.5, 8.0, 30.0
RETRYABLE = frozenset({"rate_limit", "server", "network"})


# --- LiteLLM -----------------------------------------------------------------------------------


def preload() -> None:
	"""Import LiteLLM now, in a worker's parent process, and make one warm-up completion (see
	``warmup.py``), so forked jobs inherit it all: without it each job pays about 0.3 s more."""
	from huf.ai.engine.warmup import warm_up

	litellm = load_litellm()
	import openai.resources  # noqa: F401

	warm_up(litellm)


# --- model names -------------------------------------------------------------------------------


def normalize_model_name(model: str, provider: str | None, api_base: str | None = None) -> str:
	"""The LiteLLM model string for ``model`` as configured under ``provider``.

	===================================  ==================================================
	Provider (case-insensitive)          Prefix added
	===================================  ==================================================
	OpenAI                               openai/
	Anthropic                            anthropic/
	Google, Gemini                       gemini/   (LiteLLM's name for Google AI Studio)
	OpenRouter                           openrouter/   (always: its ids contain slashes)
	xAI, Grok                            xai/
	Mistral                              mistral/
	Alibaba, DashScope                   dashscope/
	Cohere                               cohere/
	Perplexity                           perplexity/
	Meta, Meta-Llama                     meta_llama/
	Ollama                               ollama_chat/
	Groq, DeepSeek, Together, Fireworks  groq/, deepseek/, together_ai/, fireworks_ai/
	LM Studio, vLLM                      lm_studio/, hosted_vllm/
	any other name, with an API base     openai/   (an OpenAI-compatible server)
	any other name, no API base          none if LiteLLM knows the bare model, else openai/
	===================================  ==================================================

	A model already written in LiteLLM form ("openai/gpt-4o", "anthropic/claude-...") is used as
	typed. For aggregators (OpenRouter, Together, Groq, ...) whose own ids contain a slash, the
	prefix is added unless the model already carries it: "meta-llama/llama-3-70b" under OpenRouter
	becomes "openrouter/meta-llama/llama-3-70b".
	"""
	model = model.strip()
	prefix = PROVIDER_PREFIXES.get((provider or "").strip().lower())
	head = model.split("/", 1)[0] if "/" in model else ""
	if prefix and head == prefix:
		return model
	if prefix in AGGREGATORS:
		return f"{prefix}/{model}"
	if head in LITELLM_PREFIXES:
		return model
	if prefix:
		return f"{prefix}/{model}"
	if api_base or model not in load_litellm().model_cost:
		return f"openai/{model}"
	return model


def takes_images(spec: ModelSpec) -> bool:
	"""Whether ``spec``'s model accepts images: the spec's own word when it has one, otherwise
	LiteLLM's model data (``supports_vision``); a model LiteLLM does not know takes none."""
	if spec.vision is not None:
		return spec.vision
	try:
		model = normalize_model_name(spec.model, spec.provider, spec.api_base)
		return bool(load_litellm().supports_vision(model=model))
	except Exception:  # noqa: BLE001 - unknown to LiteLLM's data: treated as a model without vision
		return False


# --- one turn ----------------------------------------------------------------------------------


def stream_turn(
	request: LLMRequest,
	on_delta: Callable[[str], None] | None = None,
	should_cancel: Callable[[], bool] | None = None,
	wait: Callable[[float, Callable[[], bool] | None], bool] = pause,
) -> ModelTurn:
	"""One model answer for ``request``, streamed, retried and falling back as the module says.
	``wait(seconds, should_cancel)`` sleeps between retries and returns False when cancelled."""
	spec = request.model
	deadline = time.monotonic() + request.deadline
	candidates = list(dict.fromkeys([spec.model, *request.fallback_models]))
	tried: list[str] = []
	for position, candidate in enumerate(candidates):
		model = normalize_model_name(candidate, spec.provider, spec.api_base)
		tried.append(model)
		try:
			return _with_retries(request, model, on_delta, should_cancel, wait, deadline)
		except LLMError as error:
			if error.kind != "model_not_found":
				raise
			if position + 1 < len(candidates):
				continue
			if len(tried) == 1:
				raise
			raise _exhausted(spec, tried, error) from None
	raise AssertionError("unreachable: there is always at least one candidate")


def _exhausted(spec: ModelSpec, tried: list[str], last: LLMError) -> LLMError:
	provider = spec.provider or "the provider"
	return LLMError(
		"model_not_found",
		f"None of the models tried is available from {provider}: {', '.join(tried)}. "
		f"Check the model names on the AI Model and its fallbacks, ask {provider} for access to one of them, "
		"or switch the agent to another provider.",
		last.cause,
		tried[-1],
		last.status_code,
	)


def _with_retries(request: LLMRequest, model: str, on_delta, should_cancel, wait, deadline: float) -> ModelTurn:
	"""Retry transient failures, but never once a delta has been shown, nor past the deadline."""
	shown = False

	def listen(text: str) -> None:
		nonlocal shown
		shown = True
		if on_delta:
			on_delta(text)

	attempt = 0
	while True:
		if should_cancel and should_cancel():
			raise Cancelled(partial=ModelTurn("", (), Usage(), model, None))
		try:
			return _stream_once(request, model, listen, should_cancel, deadline)
		except Cancelled:
			raise
		except LLMError as error:
			if error.kind not in RETRYABLE or shown or attempt >= request.max_retries:
				raise
			attempt += 1
			seconds = backoff(attempt, error.retry_after)
			if time.monotonic() + seconds >= deadline:
				raise  # the wait alone would pass the deadline: this failure is the answer
			if not wait(seconds, should_cancel):
				raise Cancelled(partial=ModelTurn("", (), Usage(), model, None)) from None


def backoff(attempt: int, retry_after: float | None = None) -> float:
	"""Seconds to wait before retry ``attempt`` (1-based): the provider's Retry-After when it sent
	one (capped), else full jitter over 0.5 s doubling per attempt, capped at 8 s."""
	if retry_after is not None and retry_after >= 0:
		return min(retry_after, RETRY_AFTER_CAP)
	return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))


def _completion_kwargs(request: LLMRequest, model: str) -> dict[str, Any]:
	spec = request.model
	messages = request.messages
	if request.prompt_caching:  # cache markers, for this model (a fallback may have no cached price)
		messages = prompt_cache.marked(request, model, model == normalize_model_name(spec.model, spec.provider, spec.api_base))
	kwargs: dict[str, Any] = {
		"model": model,
		"messages": messages,
		"stream": True,
		"stream_options": {"include_usage": True},
		"api_key": spec.api_key or (pinned.NO_KEY if spec.api_base else None),
		"api_base": spec.api_base or None,
		"timeout": request.timeout,
		"num_retries": 0,  # retries are ours (see _with_retries)
		"max_retries": 0,  # ... and not the OpenAI client's either
		"drop_params": True,  # per call: a param the model does not take is dropped, not an error
	}
	client = pinned.client_for(model, spec.api_base, spec.api_key, spec.allowed_hosts, request.timeout)
	if client is not None:
		kwargs["client"] = client
	if request.tools:
		kwargs["tools"] = list(request.tools)
	if request.max_tokens:
		kwargs["max_tokens"] = request.max_tokens
	if not FIXED_SAMPLING.search(model):
		if request.temperature is not None:
			kwargs["temperature"] = request.temperature
		if request.top_p is not None:
			kwargs["top_p"] = request.top_p
	return kwargs


def _stream_once(request: LLMRequest, model: str, on_delta: Callable[[str], None], should_cancel, deadline: float) -> ModelTurn:
	"""One streamed attempt. Only the provider's failures are classified: an error raised by
	``on_delta`` (the caller's own, such as a reply over its size limit) passes through unchanged."""
	spec = request.model
	assembler = _Assembler(model)
	feed = Feed(_open_stream, _completion_kwargs(request, model))
	try:
		while True:
			kind, item = feed.next(deadline, should_cancel)
			if kind == "end":
				finished = item
				break
			if kind == "error":
				raise classify(item, model, spec) from (None if mentions_secret(item, spec.api_key) else item)
			if kind == "timeout":
				raise _too_slow(request, model)
			if kind == "chunk":
				assembler.add(item, on_delta)
			if kind == "cancel" or (should_cancel and should_cancel()):
				raise Cancelled(partial=assembler.turn())
	finally:
		feed.stop()
	turn = assembler.turn()
	provider = spec.provider or "the provider"
	if not finished:
		raise LLMError("network", f"The connection to {provider} ended before {model} finished its answer. Try again.", model=model)
	if not turn.content.strip() and not turn.tool_calls:
		if turn.finish_reason == "length":
			message = f"{model} used up its output tokens before writing an answer. Raise Max Tokens on the agent, or use another model."
		else:
			message = f"{model} answered with nothing (no text and no tool call). Try again, or pick another model."
		raise LLMError("empty_response", message, model=model)
	if not assembler.usage_seen:  # counted only for an answer that is used: a long history takes a while
		turn = dataclasses.replace(turn, usage=estimated_usage(model, request.messages, assembler.answer_text()))
	return turn


def _open_stream(**kwargs) -> Any:
	"""LiteLLM's streamed completion, read where its chunks cost least (``chunks.py``)."""
	return chunks_of(load_litellm().completion(**kwargs))


def _too_slow(request: LLMRequest, model: str) -> LLMError:
	provider = request.model.provider or "the provider"
	return LLMError(
		"timeout",
		f"{provider} took longer than {request.deadline:g} seconds to answer with {model}, the longest Huf waits for one "
		"model call, so the call was stopped. Try again, ask for a shorter answer, or raise Model Call Time Limit in Agent Settings.",
		model=model,
	)


class _Assembler:
	"""Builds one ModelTurn from stream chunks: text in order, tool calls by their index."""

	def __init__(self, model: str):
		self.model = model
		self.text: list[str] = []
		self.calls: dict[int, dict[str, str]] = {}
		self.usage = Usage()
		self.usage_seen = False
		self.finish_reason: str | None = None

	def add(self, chunk, on_delta: Callable[[str], None]) -> None:
		"""One chunk: an object (LiteLLM's) or the dict the server sent (``chunks.SDKChunks``)."""
		usage = field(chunk, "usage")
		if usage:
			self.usage = read_usage(usage)
			self.usage_seen = True
		for choice in field(chunk, "choices") or []:
			self.finish_reason = field(choice, "finish_reason") or self.finish_reason
			delta = field(choice, "delta")
			if delta is None:
				continue
			text = field(delta, "content")
			if text:
				self.text.append(text)
				on_delta(text)
			for fragment in field(delta, "tool_calls") or []:
				self._add_call(fragment)

	def _add_call(self, fragment) -> None:
		index = field(fragment, "index")
		call = self.calls.setdefault(len(self.calls) if index is None else index, {"id": "", "name": "", "arguments": ""})
		if field(fragment, "id"):
			call["id"] = field(fragment, "id")
		function = field(fragment, "function")
		if function is not None:
			if field(function, "name"):
				call["name"] = field(function, "name")
			if field(function, "arguments"):
				call["arguments"] += field(function, "arguments")

	def answer_text(self) -> str:
		"""The answer as LiteLLM counts its tokens: the text, then each tool call as JSON."""
		calls = (
			json.dumps({"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}})
			for call in self.calls.values()
		)
		return "".join(self.text) + "".join(calls)

	def turn(self) -> ModelTurn:
		calls = tuple(
			ToolCall(id=call["id"] or f"call_{index}", name=call["name"], arguments=call["arguments"])
			for index, call in sorted(self.calls.items())
			if call["name"]
		)
		return ModelTurn("".join(self.text), calls, self.usage, self.model, self.finish_reason)


def field(obj: Any, name: str) -> Any:
	"""``obj``'s ``name``, whether ``obj`` is a dict (a chunk as the server sent it) or an object."""
	return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def read_usage(usage: Any) -> Usage:
	"""Usage from an OpenAI/LiteLLM usage object or dict; cached tokens from OpenAI's
	prompt_tokens_details or Anthropic's cache_read_input_tokens, cache writes from Anthropic's
	cache_creation_input_tokens (LiteLLM keeps it on the usage of every route that reports it)."""
	details = field(usage, "prompt_tokens_details")
	cached = (field(details, "cached_tokens") if details else None) or field(usage, "cache_read_input_tokens") or 0
	written = field(usage, "cache_creation_input_tokens") or 0
	return Usage(int(field(usage, "prompt_tokens") or 0), int(field(usage, "completion_tokens") or 0), int(cached), int(written))


__all__ = [
	"DEFAULT_DEADLINE",
	"Cancelled",
	"LLMError",
	"LLMRequest",
	"ModelSpec",
	"ModelTurn",
	"backoff",
	"classify",
	"normalize_model_name",
	"preload",
	"read_usage",
	"stream_turn",
]
