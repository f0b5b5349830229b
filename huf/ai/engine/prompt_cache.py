"""Prompt caching: cache markers on a model call's messages, for an agent that asks for them.

A provider that caches prompts bills the part of a prompt it read from its cache at a lower price
(LiteLLM's ``cache_read_input_token_cost``). Some cache by themselves (OpenAI, Azure, DeepSeek,
xAI, Groq, Fireworks, Gemini): nothing is sent, and the cached tokens they report are priced
as such anyway (``cost.py``). Others cache only what the request marks: Anthropic's
``cache_control: {"type": "ephemeral"}`` on a content block, which LiteLLM passes on or turns into
the provider's own form (Bedrock's cache points).

``marked(request, model)`` is the one place markers are added (``llm._completion_kwargs``, for each
model tried, so a fallback without a cached price gets none). A call is marked when all hold:

- the agent asked for it (``LLMRequest.prompt_caching``);
- the model has a cached-input price: the AI Model's own (``ModelSpec.caches_prompts``, for its
  model only), else LiteLLM's price data for the model;
- the route takes markers (``takes_markers``): the providers whose LiteLLM translation keeps or
  converts ``cache_control`` (Anthropic, Bedrock, Vertex AI's Claude, OpenRouter, which keeps it
  for the models that take it, DashScope, Z.ai, MiniMax) and an OpenAI-compatible API Base
  (LiteLLM keeps it there on purpose: a gateway may cache with it, and a server that does not
  ignores it), except Azure, which refuses the field ("Unrecognized request argument"). On every
  other route LiteLLM would drop the marker or, for Gemini, open a paid context cache: none is sent.

Where, as LiteLLM's own default breakpoints for Anthropic put them: the system message (tools and
instructions, the stable head of every call) and the last message (so the next round of the run,
and the next run of the conversation, read everything before it from the cache). Two markers;
Anthropic takes at most four. The request's messages are never changed: marked messages are copies.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlparse

from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm_types import LLMRequest

MARKER = {"type": "ephemeral"}
# LiteLLM providers whose translation keeps or converts cache_control (see the module's doc).
MARKED_PROVIDERS = frozenset({"anthropic", "bedrock", "bedrock_converse", "openrouter", "dashscope", "zai", "minimax"})
# Hosts of an API Base under the OpenAI route where a marker is refused (Azure) or of no use (OpenAI, which caches by itself).
REFUSING_HOSTS = (".azure.com", ".azure-api.net", ".openai.com")


def marked(request: LLMRequest, model: str, primary: bool = True) -> list[dict]:
	"""The messages to send for ``request`` to ``model`` (the normalized LiteLLM name; ``primary``:
	the request's own model, not a fallback): with cache markers when the module's rules allow
	them, else the request's own list."""
	if not request.prompt_caching or not applies(request, model, primary):
		return request.messages
	return mark(request.messages)


def applies(request: LLMRequest, model: str, primary: bool = True) -> bool:
	"""Whether a call of ``request`` to ``model`` is marked (its agent's switch aside)."""
	spec = request.model
	priced = spec.caches_prompts if primary and spec.caches_prompts is not None else has_cached_price(model)
	return bool(priced) and takes_markers(model, spec.api_base)


@lru_cache(maxsize=256)
def has_cached_price(model: str) -> bool:
	"""Whether LiteLLM's price data has a cached-input price for ``model`` (asked once per model: a
	lookup takes milliseconds). A model it does not know has none."""
	try:
		return load_litellm().get_model_info(model=model).get("cache_read_input_token_cost") is not None
	except Exception:  # noqa: BLE001 - not in LiteLLM's data: no cached price
		return False


@lru_cache(maxsize=256)
def takes_markers(model: str, api_base: str | None) -> bool:
	"""Whether a marker may go to ``model`` at ``api_base`` (see the module's doc)."""
	try:
		provider = load_litellm().get_llm_provider(model=model, api_base=api_base)[1]
	except Exception:  # noqa: BLE001 - a route LiteLLM cannot tell: nothing it might refuse
		return False
	if provider == "vertex_ai":
		return "claude" in model.lower()
	if provider == "openai":
		host = (urlparse(api_base).hostname or "").lower() if api_base else ""
		return bool(host) and not any(host.endswith(end) or host == end[1:] for end in REFUSING_HOSTS)
	return provider in MARKED_PROVIDERS


def mark(messages: list[dict]) -> list[dict]:
	"""``messages`` with a marker on the system message and on the last message (copies of those two)."""
	out = list(messages)
	positions = {len(out) - 1} if out else set()
	if out and out[0].get("role") == "system":
		positions.add(0)
	for position in positions:
		out[position] = _marked(out[position])
	return out


def _marked(message: dict) -> dict:
	"""One message with a marker on its last text block; unchanged when it has no text to mark (an
	assistant message that only calls tools: Anthropic refuses a marker on an empty block)."""
	content = message.get("content")
	if isinstance(content, str):
		if not content:
			return message
		return {**message, "content": [{"type": "text", "text": content, "cache_control": dict(MARKER)}]}
	if isinstance(content, list):
		for index in range(len(content) - 1, -1, -1):
			block = content[index]
			if isinstance(block, dict) and block.get("type") == "text" and block.get("text"):
				blocks = list(content)
				blocks[index] = {**block, "cache_control": dict(MARKER)}
				return {**message, "content": blocks}
	return message

