"""The LLM gateway: one streamed completion through LiteLLM, with Huf's retry, fallback and errors.

- Streaming is the only path. ``stream_turn`` assembles text and tool-call fragments into a
  ``ModelTurn``; a caller that wants no deltas passes no ``on_delta``.
- The key and base URL go to LiteLLM as arguments on every call, never through ``os.environ``
  (a worker serves many sites; the environment would leak keys between them).
- Retries are ours and bounded: rate limits, 5xx and network failures, with exponential backoff and
  full jitter, honouring Retry-After, and only before the first delta (retrying after text was
  shown would show it twice).
- Fallback models are tried only when the provider says the model does not exist (ADR-024): an auth,
  rate-limit or network failure would recur on the next model and hide the real problem.
- Every failure is an ``LLMError`` with a ``kind`` and a message a Desk admin can act on; the
  provider's own words are kept in ``cause``.
"""

from __future__ import annotations

import os
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from huf.ai.engine.events import ToolCall, Usage

# Provider name (lower case) -> LiteLLM prefix. Aliases from the reference: gemini -> google's
# LiteLLM prefix "gemini", grok -> xai, meta -> meta_llama, alibaba -> dashscope.
PROVIDER_PREFIXES = {
	"openai": "openai",
	"anthropic": "anthropic",
	"google": "gemini",
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
	"ollama": "ollama_chat",
	"groq": "groq",
	"deepseek": "deepseek",
	"together": "together_ai",
	"together ai": "together_ai",
	"lm studio": "lm_studio",
	"lmstudio": "lm_studio",
	"vllm": "hosted_vllm",
}
KNOWN_PREFIXES = set(PROVIDER_PREFIXES.values()) | {
	"azure", "bedrock", "vertex_ai", "ollama", "hosted_vllm", "huggingface", "fireworks_ai", "replicate",
	"sagemaker", "cloudflare", "databricks", "watsonx", "nvidia_nim", "cerebras", "sambanova", "ai21",
	"voyage", "text-completion-openai", "azure_ai", "github", "friendliai", "litellm_proxy",
}
MODEL_UNAVAILABLE_MARKERS = (
	"model_not_found",
	"does not have access to model",
	"model is not available",
	"the model does not exist",
	"does not exist",
	"model not available",
	"no access to model",
	"model not found",
)
TEMPERATURE_ONE_ONLY = re.compile(r"(^|/)(gpt-5|o1|o3|o4)")
BACKOFF_BASE, BACKOFF_CAP, RETRY_AFTER_CAP = 0.5, 8.0, 30.0
RETRYABLE = {"rate_limit", "server", "network"}


@dataclass(frozen=True)
class ModelSpec:
	model: str
	provider: str | None
	api_key: str | None = None
	api_base: str | None = None


@dataclass(frozen=True)
class LLMRequest:
	model: ModelSpec
	messages: list[dict]
	tools: list[dict] = ()
	temperature: float | None = None
	top_p: float | None = None
	max_tokens: int | None = None
	fallback_models: tuple[str, ...] = ()
	timeout: float = 120.0
	max_retries: int = 3


@dataclass(frozen=True)
class ModelTurn:
	content: str
	tool_calls: tuple[ToolCall, ...]
	usage: Usage
	model: str
	finish_reason: str | None


class LLMError(Exception):
	def __init__(self, kind: str, message: str, cause: str | None = None, model: str = "", status_code: int | None = None):
		super().__init__(message)
		self.kind, self.message, self.cause, self.model, self.status_code = kind, message, cause, model, status_code


class Cancelled(LLMError):
	def __init__(self, message: str = "The run was stopped.", partial: ModelTurn | None = None):
		super().__init__("cancelled", message)
		self.partial = partial


_LITELLM = None


def _litellm():
	"""LiteLLM, imported once per process (it costs seconds) and never on paths that don't call a model."""
	global _LITELLM
	if _LITELLM is None:
		os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price map
		import litellm

		litellm.suppress_debug_info = True
		litellm.telemetry = False
		_LITELLM = litellm
	return _LITELLM


def preload() -> None:
	"""Import LiteLLM now (in a worker's parent process, so forked jobs inherit it)."""
	_litellm()


# --- model names -------------------------------------------------------------------------------


def normalize_model_name(model: str, provider: str | None, api_base: str | None = None) -> str:
	"""The LiteLLM model string for ``model`` as configured under ``provider``.

	A model that already starts with a LiteLLM provider prefix is used as it is. Otherwise the
	provider's prefix is added (so OpenRouter's "meta-llama/llama-3-70b" becomes
	"openrouter/meta-llama/llama-3-70b"). A provider Huf does not know is treated as an
	OpenAI-compatible server when it has a base URL; without one, a model LiteLLM knows by its bare
	name is left bare and anything else is sent as "openai/<model>".
	"""
	model = model.strip()
	key = (provider or "").strip().lower()
	prefix = PROVIDER_PREFIXES.get(key)
	head = model.split("/", 1)[0]
	if prefix == "openrouter" and head != "openrouter":
		return f"openrouter/{model}"  # OpenRouter's ids ("openai/gpt-4o") look like other prefixes
	if "/" in model and head in KNOWN_PREFIXES:
		return model
	if prefix:
		return f"{prefix}/{model}"
	if api_base:
		return f"openai/{model}"
	if model in _known_models():
		return model
	return f"openai/{model}"


def _known_models() -> set[str]:
	try:
		return set(_litellm().model_cost)
	except Exception:  # noqa: BLE001
		return set()


# --- one turn ------------------------------------------------------------------------------------


def stream_turn(
	request: LLMRequest,
	on_delta: Callable[[str], None] | None = None,
	should_cancel: Callable[[], bool] | None = None,
	sleep: Callable[[float], None] = time.sleep,
) -> ModelTurn:
	"""One model answer for ``request``, streamed; retried and falling back as described above."""
	spec = request.model
	candidates = [spec.model, *[m for m in request.fallback_models if m != spec.model]]
	tried: list[str] = []
	for model in candidates:
		name = normalize_model_name(model, spec.provider, spec.api_base)
		tried.append(name)
		try:
			return _with_retries(request, name, on_delta, should_cancel, sleep)
		except LLMError as error:
			if error.kind != "model_not_found" or model == candidates[-1]:
				if error.kind == "model_not_found" and len(tried) > 1:
					raise LLMError(
						"model_not_found",
						f"None of the models tried is available from {spec.provider or 'the provider'}: "
						f"{', '.join(tried)}. Check the model names on the AI Model, or ask the provider for access.",
						error.cause,
						name,
						error.status_code,
					) from None
				raise
	raise AssertionError("unreachable")


def _with_retries(request, model, on_delta, should_cancel, sleep) -> ModelTurn:
	seen_delta = [False]

	def listen(text: str) -> None:
		seen_delta[0] = True
		if on_delta:
			on_delta(text)

	attempt = 0
	while True:
		try:
			return _stream_once(request, model, listen, should_cancel)
		except LLMError as error:
			if error.kind not in RETRYABLE or seen_delta[0] or attempt >= request.max_retries:
				raise
			attempt += 1
			sleep(_backoff(attempt, getattr(error, "retry_after", None)))


def _backoff(attempt: int, retry_after: float | None) -> float:
	if retry_after is not None:
		return min(float(retry_after), RETRY_AFTER_CAP)
	return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))


def _stream_once(request: LLMRequest, model: str, on_delta, should_cancel) -> ModelTurn:
	litellm = _litellm()
	spec = request.model
	kwargs: dict[str, Any] = {
		"model": model,
		"messages": request.messages,
		"stream": True,
		"stream_options": {"include_usage": True},
		"api_key": spec.api_key or ("sk-none" if spec.api_base else None),
		"api_base": spec.api_base,
		"timeout": request.timeout,
		"num_retries": 0,
		"max_retries": 0,
		"drop_params": True,
	}
	if request.tools:
		kwargs["tools"] = list(request.tools)
	if request.max_tokens:
		kwargs["max_tokens"] = request.max_tokens
	if not TEMPERATURE_ONE_ONLY.search(model):
		if request.temperature is not None:
			kwargs["temperature"] = request.temperature
		if request.top_p is not None:
			kwargs["top_p"] = request.top_p
	assembler = _Assembler(model)
	try:
		stream = litellm.completion(**kwargs)
		for chunk in stream:
			assembler.add(chunk, on_delta)
			if should_cancel and should_cancel():
				_close(stream)
				raise Cancelled(partial=assembler.turn())
		# LiteLLM makes up a "stop" when a stream just ends; the provider never finished that answer
		finished = getattr(stream, "received_finish_reason", "") is not None
	except LLMError:
		raise
	except Exception as error:  # noqa: BLE001 - classified below, the cause kept
		raise classify(error, model, spec) from error
	turn = assembler.turn()
	if not finished:
		raise LLMError(
			"network",
			f"The connection to {spec.provider or 'the provider'} dropped before {model} finished its answer. Try again.",
			model=model,
		)
	if not turn.content.strip() and not turn.tool_calls:
		raise LLMError(
			"empty_response",
			f"The model {model} answered with nothing (no text and no tool call). Try again, or pick another model.",
			model=model,
		)
	return turn


def _close(stream) -> None:
	close = getattr(stream, "close", None) or getattr(getattr(stream, "completion_stream", None), "close", None)
	try:
		if close:
			close()
	except Exception:  # noqa: BLE001
		pass


class _Assembler:
	"""Builds one ModelTurn from stream chunks: text in order, tool calls by their index."""

	def __init__(self, model: str):
		self.model = model
		self.text: list[str] = []
		self.calls: dict[int, dict] = {}
		self.usage = Usage()
		self.finish_reason: str | None = None

	def add(self, chunk, on_delta) -> None:
		usage = getattr(chunk, "usage", None)
		if usage:
			self.usage = _usage(usage)
		for choice in getattr(chunk, "choices", None) or []:
			self.finish_reason = getattr(choice, "finish_reason", None) or self.finish_reason
			delta = getattr(choice, "delta", None)
			if delta is None:
				continue
			text = getattr(delta, "content", None)
			if text:
				self.text.append(text)
				on_delta(text)
			for fragment in getattr(delta, "tool_calls", None) or []:
				self._add_call(fragment)

	def _add_call(self, fragment) -> None:
		index = getattr(fragment, "index", None)
		index = len(self.calls) if index is None else index
		call = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
		if getattr(fragment, "id", None):
			call["id"] = fragment.id
		function = getattr(fragment, "function", None)
		if function is not None:
			if getattr(function, "name", None):
				call["name"] = function.name
			if getattr(function, "arguments", None):
				call["arguments"] += function.arguments

	def turn(self) -> ModelTurn:
		calls = tuple(
			ToolCall(id=c["id"] or f"call_{i}", name=c["name"], arguments=c["arguments"])
			for i, c in sorted(self.calls.items())
			if c["name"]
		)
		return ModelTurn("".join(self.text), calls, self.usage, self.model, self.finish_reason)


def _usage(usage) -> Usage:
	def get(obj, name):
		return getattr(obj, name, None) if not isinstance(obj, dict) else obj.get(name)

	details = get(usage, "prompt_tokens_details")
	cached = (get(details, "cached_tokens") if details else None) or get(usage, "cache_read_input_tokens") or 0
	return Usage(int(get(usage, "prompt_tokens") or 0), int(get(usage, "completion_tokens") or 0), int(cached))


# --- errors --------------------------------------------------------------------------------------


def classify(error: Exception, model: str, spec: ModelSpec) -> LLMError:
	"""Map a LiteLLM/OpenAI/network exception to an LLMError with an actionable message."""
	litellm = _litellm()
	cause = scrub(deepest_message(error), spec.api_key)
	status = getattr(error, "status_code", None)
	provider = spec.provider or "the provider"
	lowered = cause.lower()
	if isinstance(error, litellm.ContextWindowExceededError) or "context length" in lowered or "context_length" in lowered:
		kind, message = "context_too_long", f"The conversation is too long for {model}. Start a new conversation, lower History Limit on the agent, or use a model with a larger context."
	elif isinstance(error, (litellm.AuthenticationError, litellm.PermissionDeniedError)) or status in (401, 403) and not _unavailable(lowered):
		kind, message = "auth", f"{provider} rejected the API key. Open the AI Provider {provider} and enter a valid key."
	elif isinstance(error, litellm.NotFoundError) or status == 404 or _unavailable(lowered):
		kind, message = "model_not_found", f"{provider} says the model {model} does not exist or this key cannot use it. Check the model name on the AI Model."
	elif isinstance(error, litellm.RateLimitError) or status == 429:
		kind, message = "rate_limit", f"{provider} is rate limiting requests (or the account is out of credit). Wait a moment and try again."
	elif isinstance(error, (litellm.Timeout, litellm.APIConnectionError)) or _is_network(error):
		kind, message = "network", f"Could not reach {provider} for {model}{' at ' + spec.api_base if spec.api_base else ''}. Check the API Base URL and that the server is running."
	elif isinstance(error, (litellm.BadRequestError, litellm.UnprocessableEntityError)) or status in (400, 422):
		kind, message = "bad_request", f"{provider} refused the request for {model}."
	elif status is None or status >= 500 or isinstance(error, (litellm.InternalServerError, litellm.ServiceUnavailableError)):
		kind, message = "server", f"{provider} had a server error answering with {model}. Try again in a moment."
	else:
		kind, message = "bad_request", f"{provider} refused the request for {model}."
	result = LLMError(kind, f"{message} ({cause})" if cause else message, cause, model, status)
	result.retry_after = _retry_after(error)
	return result


def _unavailable(text: str) -> bool:
	return any(marker in text for marker in MODEL_UNAVAILABLE_MARKERS)


def _is_network(error: Exception) -> bool:
	seen = error
	while seen is not None:
		if isinstance(seen, (TimeoutError, ConnectionError)) or type(seen).__name__ in ("ConnectError", "ReadTimeout", "RemoteProtocolError", "ReadError"):
			return True
		seen = seen.__cause__ or seen.__context__
	return False


def deepest_message(error: Exception) -> str:
	"""The most specific text about what went wrong: the provider's JSON message when there is one."""
	texts = []
	seen = error
	while seen is not None and len(texts) < 10:
		body = getattr(seen, "body", None)
		if isinstance(body, dict):
			inner = body.get("error", body)
			if isinstance(inner, dict) and inner.get("message"):
				return str(inner["message"])
		texts.append(str(seen))
		seen = seen.__cause__ or seen.__context__
	text = next((t for t in texts if t), type(error).__name__)
	match = re.search(r'"message"\s*:\s*"([^"]+)"', text)
	if match:
		return match.group(1)
	return re.sub(r"^(litellm\.\w+:\s*)+(\w+Exception\s*-\s*)?", "", text).strip()[:500]


def scrub(text: str, secret: str | None) -> str:
	if secret and len(secret) >= 4:
		text = text.replace(secret, "[key hidden]")
	return re.sub(r"(sk-[A-Za-z0-9_\-]{6})[A-Za-z0-9_\-]+", r"\1…", text)


def _retry_after(error: Exception) -> float | None:
	"""Retry-After in seconds, from the first exception in the chain whose response carries it."""
	seen = error
	while seen is not None:
		headers = getattr(seen, "litellm_response_headers", None) or getattr(getattr(seen, "response", None), "headers", None)
		value = headers.get("retry-after") if headers else None
		if value is not None:
			try:
				return float(value)
			except (TypeError, ValueError):
				return None
		seen = seen.__cause__ or seen.__context__
	return None
