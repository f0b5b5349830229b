"""Per-model prices, read from AI Model and cached in Redis until the model is saved again."""

from __future__ import annotations

import frappe

from huf.ai.engine.cost import Prices, compute_cost
from huf.ai.engine.events import Usage

PRICE_CACHE_SECONDS = 600


def _key(model: str) -> str:
	return f"huf:model_prices:{model}"


def get_prices(model: str | None) -> Prices | None:
	"""The custom prices of an AI Model, or None when it has none (LiteLLM's table applies)."""
	if not model:
		return None
	# expires=True: a miss must not be remembered in the process (set_value with an expiry does not
	# update that local copy, so every later call in the process would read the table again)
	cached = frappe.cache.get_value(_key(model), expires=True)
	if cached is None:
		row = frappe.db.get_value(
			"AI Model",
			model,
			["use_custom_pricing", "input_cost_per_1m_tokens", "output_cost_per_1m_tokens", "cached_input_cost_per_1m_tokens"],
			as_dict=True,
		)
		cached = {"custom": bool(row and row.use_custom_pricing)}
		if cached["custom"]:
			cached.update(
				input=row.input_cost_per_1m_tokens or 0.0,
				output=row.output_cost_per_1m_tokens or 0.0,
				cached=row.cached_input_cost_per_1m_tokens or None,
			)
		frappe.cache.set_value(_key(model), cached, expires_in_sec=PRICE_CACHE_SECONDS)
	if not cached["custom"]:
		return None
	return Prices(cached["input"], cached["output"], cached["cached"])


def clear_price_cache(model: str) -> None:
	frappe.cache.delete_value(_key(model))


def cost_function(model_doc_name: str | None):
	"""A ``cost_of(litellm_model, usage)`` for the loop, with the AI Model's prices looked up once."""
	prices = get_prices(model_doc_name)

	def cost_of(litellm_model: str, usage: Usage) -> float:
		return compute_cost(litellm_model, usage, prices)

	return cost_of
