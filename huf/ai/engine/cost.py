"""What a model round cost, in USD, by the reference's three tiers.

1. Custom prices on the AI Model (input and output both set; 0 means free).
2. LiteLLM's price table for models it knows.
3. 0.0 for anything else: an unknown price never fails a run.

``input_tokens`` counts every prompt token, cached ones included (OpenAI's convention). With a
custom cached-input price, the cached part is billed at that price and the rest at the input price.
"""

from __future__ import annotations

from dataclasses import dataclass

from huf.ai.engine.events import Usage

PER_TOKEN = 1 / 1_000_000


@dataclass(frozen=True)
class Prices:
	input_per_1m: float | None
	output_per_1m: float | None
	cached_input_per_1m: float | None = None

	@property
	def is_set(self) -> bool:
		return self.input_per_1m is not None and self.output_per_1m is not None


def compute_cost(model: str, usage: Usage, prices: Prices | None) -> float:
	if prices is not None and prices.is_set:
		return round(_custom(usage, prices), 8)
	return round(_litellm_cost(model, usage), 8)


def _custom(usage: Usage, prices: Prices) -> float:
	cached = usage.cached_tokens if prices.cached_input_per_1m is not None else 0
	uncached = max(usage.input_tokens - cached, 0)
	return (
		uncached * prices.input_per_1m * PER_TOKEN
		+ cached * (prices.cached_input_per_1m or 0.0) * PER_TOKEN
		+ usage.output_tokens * prices.output_per_1m * PER_TOKEN
	)


def _litellm_cost(model: str, usage: Usage) -> float:
	if not model or not (usage.input_tokens or usage.output_tokens):
		return 0.0
	from huf.ai.engine.llm import _litellm

	try:
		prompt_cost, completion_cost = _litellm().cost_per_token(
			model=model,
			prompt_tokens=usage.input_tokens,
			completion_tokens=usage.output_tokens,
			cache_read_input_tokens=usage.cached_tokens or None,
		)
	except Exception:  # noqa: BLE001 - tier 3: a model LiteLLM does not price costs 0, never an error
		return 0.0
	return float(prompt_cost) + float(completion_cost)
