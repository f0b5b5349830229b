"""How a failed model call is reported: ``LLMError`` with a ``kind`` and a message a Desk admin can
act on, the provider's own words kept in ``cause`` and any key scrubbed out of both."""

from __future__ import annotations

import re
import time
from email.utils import parsedate_to_datetime

from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.safe_http import SafeHTTPError
from huf.ai.engine.llm_types import ModelSpec, ModelTurn

# ADR-024: wording providers use when a model does not exist or this key may not use it.
MODEL_UNAVAILABLE_MARKERS = (
	"model_not_found",
	"does not have access to model",
	"model is not available",
	"model not available",
	"does not exist",
	"no access to model",
	"model not found",
)
CONTEXT_MARKERS = ("context length", "context_length", "context window", "maximum context", "prompt is too long")


class LLMError(Exception):
	"""A model call that failed. ``kind`` is one of: auth, rate_limit, context_too_long,
	model_not_found, network, bad_request, server, empty_response, timeout (the call's total deadline
	passed), response_too_long (raised by the loop's delta listener), cancelled."""

	def __init__(
		self,
		kind: str,
		message: str,
		cause: str | None = None,
		model: str = "",
		status_code: int | None = None,
		retry_after: float | None = None,
	):
		super().__init__(message)
		self.kind = kind
		self.message = message
		self.cause = cause
		self.model = model
		self.status_code = status_code
		self.retry_after = retry_after

	def __str__(self) -> str:
		return self.message


class Cancelled(LLMError):
	"""The caller asked to stop. ``partial`` holds what the model had produced by then."""

	def __init__(self, message: str = "The run was stopped.", partial: ModelTurn | None = None):
		super().__init__("cancelled", message, model=partial.model if partial else "")
		self.partial = partial


def classify(error: Exception, model: str, spec: ModelSpec) -> LLMError:
	"""Map a LiteLLM/OpenAI/network exception to an LLMError whose message says what to do.

	Order matters, because LiteLLM 1.97 wraps failures loosely: a refused connection arrives as an
	InternalServerError (500), a stream cut mid-way as MidStreamFallbackError (500), and OpenAI's
	403 ``model_not_found`` as a plain APIError."""
	litellm = load_litellm()
	cause = scrub(deepest_message(error), spec.api_key)
	status = getattr(error, "status_code", None)
	status = status if isinstance(status, int) else None
	lowered = cause.lower()
	provider = spec.provider or "the provider"
	where = f" at {spec.api_base}" if spec.api_base else ""

	def has(*types: str) -> bool:
		return any(isinstance(error, getattr(litellm, name)) for name in types if hasattr(litellm, name))

	checked = checked_failure(error)

	if has("ContextWindowExceededError") or any(marker in lowered for marker in CONTEXT_MARKERS):
		kind = "context_too_long"
		message = f"The conversation is too long for {model}. Start a new conversation, lower the agent's history limit, or use a model with a larger context window."
	elif has("AuthenticationError") or status == 401:
		kind = "auth"
		message = f"The provider rejected the API key for {provider}. Open the AI Provider {provider} and set a valid key."
	elif has("NotFoundError") or status == 404 or any(marker in lowered for marker in MODEL_UNAVAILABLE_MARKERS):
		kind = "model_not_found"
		message = f"{provider} says the model {model} does not exist or this key may not use it. Check the model name on the AI Model"
		message += f", and that the API Base URL{where} is right." if spec.api_base else "."
	elif has("PermissionDeniedError") or status == 403:
		kind = "auth"
		message = f"{provider} refused access with this API key. Check the key's permissions in the AI Provider {provider}."
	elif has("RateLimitError") or status == 429:
		kind = "rate_limit"
		message = f"{provider} is rate limiting requests (or the account is out of credit). Wait a moment and try again, or check the plan's limits."
	elif checked is not None and checked.kind == "refused":
		kind, status = "blocked", None
		message = (
			f"Huf did not send the request for {model} to {provider}{where}: that address is not one Huf may reach now, "
			"so neither the request nor the key went there. If the server is yours, an administrator can allow its host "
			"with huf_allowed_hosts in site_config.json."
		)
	elif checked is not None or has("Timeout", "APIConnectionError") or _is_network(error):
		kind, status = "network", None
		message = f"Could not get an answer from {provider}{where} for {model}. Check that the server is running and the API Base URL is right, then try again."
	elif has("BadRequestError", "UnprocessableEntityError", "UnsupportedParamsError") or status in (400, 422):
		kind = "bad_request"
		message = f"{provider} refused the request for {model}. Check the model's settings on the agent."
	elif has("InternalServerError", "ServiceUnavailableError", "APIError") or (status or 0) >= 500:
		kind = "server"
		message = f"{provider} had a server error answering with {model}. Try again in a moment."
	else:
		kind = "bad_request"
		message = f"The request to {provider} for {model} failed."
	full = f"{message} ({cause})" if cause else message
	return LLMError(kind, full, cause or None, model, status, _retry_after(error))


NETWORK_ERRORS = ("ConnectError", "ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout", "RemoteProtocolError", "ReadError", "WriteError")


def _is_network(error: BaseException) -> bool:
	return any(
		isinstance(link, (TimeoutError, ConnectionError)) or type(link).__name__ in NETWORK_ERRORS
		for link in _chain(error)
	)


def checked_failure(error: BaseException) -> SafeHTTPError | None:
	"""safe_http's own refusal or failure behind ``error``, when the call went through it (pinned.py)."""
	return next((link for link in _chain(error) if isinstance(link, SafeHTTPError)), None)


def _chain(error: BaseException) -> list[BaseException]:
	"""The exception and what caused it, outermost first (cycles and runaway chains cut)."""
	links: list[BaseException] = []
	link: BaseException | None = error
	while link is not None and link not in links and len(links) < 12:
		links.append(link)
		link = link.__cause__ or link.__context__
	return links


LITELLM_PREFIX = re.compile(r"^\s*((litellm\.)?\w+(Error|Exception|Timeout)\s*:\s*|\w+Exception\s*-\s*)+")


def deepest_message(error: BaseException) -> str:
	"""The most specific words about what went wrong: the provider's own error message when any
	exception in the chain carries the response body, else the innermost non-empty message, with
	LiteLLM's "litellm.BadRequestError: OpenAIException - " prefixes stripped."""
	texts: list[str] = []
	for link in _chain(error):
		body = getattr(link, "body", None)
		if isinstance(body, dict):
			inner = body.get("error", body)
			message = inner.get("message") if isinstance(inner, dict) else inner
			if message:
				return str(message).strip()
		elif isinstance(body, str) and body.strip():
			return body.strip()[:500]
		texts.append(LITELLM_PREFIX.sub("", str(link)).strip())
	meaningful = [text for text in texts if text]
	return meaningful[-1][:500] if meaningful else type(error).__name__


HIDDEN = "[hidden]"
SECRET_LIKE = re.compile(r"\b(sk-[A-Za-z0-9_\-]{2})[A-Za-z0-9_\-]{8,}|(Bearer\s+)(?!\[hidden\])\S+")


def scrub(text: str, secret: str | None) -> str:
	"""``text`` without the API key (nor anything that looks like one), each replaced by one
	"[hidden]" (a "Bearer <key>" stays "Bearer [hidden]", not hidden twice)."""
	if secret and len(secret) >= 4:
		text = text.replace(secret, HIDDEN)
	return SECRET_LIKE.sub(lambda m: f"{m.group(1)}…" if m.group(1) else f"{m.group(2)}{HIDDEN}", text)


def mentions_secret(error: BaseException, secret: str | None) -> bool:
	"""Does any exception in the chain carry the key? Then it is not chained onto ours (a logged
	traceback would print it)."""
	return bool(secret) and any(secret in str(link) or secret in str(getattr(link, "body", "")) for link in _chain(error))


def _retry_after(error: BaseException) -> float | None:
	"""Retry-After in seconds (delta-seconds, HTTP date, or retry-after-ms), from the first
	exception in the chain whose response carries it."""
	for link in _chain(error):
		headers = getattr(link, "litellm_response_headers", None) or getattr(getattr(link, "response", None), "headers", None)
		if not headers:
			continue
		try:
			if headers.get("retry-after-ms") is not None:
				return float(headers["retry-after-ms"]) / 1000
			value = headers.get("retry-after")
		except Exception:  # noqa: BLE001 - odd header containers: no hint, plain backoff
			return None
		if value is None:
			continue
		try:
			return max(float(value), 0.0)
		except (TypeError, ValueError):
			try:
				return max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
			except (TypeError, ValueError):
				return None
	return None
