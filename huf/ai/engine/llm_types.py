"""What a model call takes and gives back: ``ModelSpec`` (which model, with which key and server),
``LLMRequest`` (one call) and ``ModelTurn`` (one answer). Plain data, shared by ``llm.py``,
``llm_errors.py`` and their callers."""

from __future__ import annotations

from dataclasses import dataclass

from huf.ai.engine.events import ToolCall, Usage

DEFAULT_DEADLINE = 600.0


@dataclass(frozen=True)
class ModelSpec:
	model: str  # as the admin typed it ("gpt-4o-mini", "openai/gpt-4o", "llama3")
	provider: str | None  # AI Provider name, e.g. "OpenAI", "Anthropic", "Ollama", "Local"
	api_key: str | None = None
	api_base: str | None = None
	# The hosts an administrator lets Huf reach although private. Set (by the site) for an API Base:
	# a call to an OpenAI-compatible base then connects through safe_http (pinned.py), so the address
	# is checked when connecting, not only before. None: LiteLLM connects by itself.
	allowed_hosts: frozenset[str] | None = None
	# Whether the model takes images (in tool results: see loop.py). None: LiteLLM's model data
	# says (``llm.takes_images``); a model it does not know takes none.
	vision: bool | None = None
	# Whether the model reads prompts from a cache at a lower price: True when the AI Model has its
	# own cached-input price. None: LiteLLM's price data says (``prompt_cache.has_cached_price``).
	caches_prompts: bool | None = None


@dataclass(frozen=True)
class LLMRequest:
	model: ModelSpec
	messages: list[dict]
	tools: list[dict] = ()  # OpenAI function-tool specs
	temperature: float | None = None
	top_p: float | None = None
	max_tokens: int | None = None
	fallback_models: tuple[str, ...] = ()  # same provider; tried only on model-not-found
	timeout: float = 120.0  # seconds the provider may stay silent (connect, or between chunks)
	deadline: float = DEFAULT_DEADLINE  # seconds the whole call may take: retries, waits, the whole answer
	max_retries: int = 3
	prompt_caching: bool = False  # the agent's Enable Prompt Caching: cache markers where they apply (prompt_cache.py)


@dataclass(frozen=True)
class ModelTurn:
	content: str
	tool_calls: tuple[ToolCall, ...]
	usage: Usage
	model: str  # the normalized LiteLLM model actually used (after any fallback)
	finish_reason: str | None
