"""What a model round cost, in USD, by the reference's three tiers.

1. Custom prices on the AI Model, when input and output are both set (0 means free: a
   self-hosted model costs nothing even if LiteLLM knows a price for its name).
2. LiteLLM's price table, for models it knows (``model`` is the normalized LiteLLM name, as in
   ``ModelTurn.model``).
3. 0.0 for anything else: an unknown price never fails a run.

``input_tokens`` counts every prompt token, cached ones included (OpenAI's convention, which
LiteLLM's usage follows for every provider). With a custom cached-input price the cached part is
billed at that price and the rest at the input price; without one, all input is billed at the
input price. The LiteLLM tier bills cached tokens at the table's cache-read price where it has one,
and tokens written to the cache (``Usage.cache_write_tokens``, Anthropic's 1.25 times the input
price) at its cache-write price where it has one; custom prices bill writes at the input price.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from huf.ai.engine.events import Usage
from huf.ai.engine.litellm_import import load_litellm

PER_TOKEN = 1 / 1_000_000


@dataclass(frozen=True)
class Prices:
	input_per_1m: float | None
	output_per_1m: float | None
	cached_input_per_1m: float | None = None

	@property
	def is_set(self) -> bool:
		"""Custom pricing applies only when both main prices are set (the reference's rule)."""
		return self.input_per_1m is not None and self.output_per_1m is not None


def compute_cost(model: str, usage: Usage, prices: Prices | None) -> float:
	"""USD for ``usage`` on ``model``, rounded to 8 decimals. Never raises."""
	if prices is not None and prices.is_set:
		return round(_custom(usage, prices), 8)
	return round(_from_litellm(model, usage), 8)


def _custom(usage: Usage, prices: Prices) -> float:
	cached = min(usage.cached_tokens, usage.input_tokens) if prices.cached_input_per_1m is not None else 0
	return PER_TOKEN * (
		(usage.input_tokens - cached) * float(prices.input_per_1m)
		+ cached * float(prices.cached_input_per_1m or 0.0)
		+ usage.output_tokens * float(prices.output_per_1m)
	)


def _from_litellm(model: str, usage: Usage) -> float:
	if not model or not (usage.input_tokens or usage.output_tokens):
		return 0.0  # nothing used, or no model: skip importing LiteLLM at all
	try:
		prompt_cost, completion_cost = load_litellm().cost_per_token(
			model=model,
			prompt_tokens=usage.input_tokens,
			completion_tokens=usage.output_tokens,
			cache_read_input_tokens=usage.cached_tokens,
			# LiteLLM bills written tokens at 0 for a model without a write price: only where it has one
			cache_creation_input_tokens=usage.cache_write_tokens if usage.cache_write_tokens and _prices_writes(model) else 0,
		)
		return float(prompt_cost) + float(completion_cost)
	except Exception:  # noqa: BLE001 - tier 3: a model LiteLLM cannot price costs 0, never an error
		return 0.0


@lru_cache(maxsize=256)
def _prices_writes(model: str) -> bool:
	"""Whether LiteLLM's table has a cache-write price for ``model`` (asked once per model)."""
	try:
		return load_litellm().get_model_info(model=model).get("cache_creation_input_token_cost") is not None
	except Exception:  # noqa: BLE001 - unknown model: no write price
		return False
