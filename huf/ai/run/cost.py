"""Per-model prices, read from the cached AI Model document (cleared when the model is saved)."""

from __future__ import annotations

import frappe

from huf.ai.engine.cost import Prices, compute_cost
from huf.ai.engine.events import Usage


def get_prices(model: str | None) -> Prices | None:
	"""The custom prices of an AI Model, or None when it has none (LiteLLM's table applies). Read from
	the cached AI Model document (Frappe clears it when the model is saved): a run has it already
	(``models.check_provider``), so this costs no query and no round trip to Redis."""
	if not model:
		return None
	try:
		row = frappe.get_cached_doc("AI Model", model)
	except frappe.DoesNotExistError:
		frappe.clear_last_message()
		return None
	if not row.use_custom_pricing:
		return None
	return Prices(row.input_cost_per_1m_tokens or 0.0, row.output_cost_per_1m_tokens or 0.0, row.cached_input_cost_per_1m_tokens or None)


def clear_price_cache(model: str) -> None:
	"""Forget the cached AI Model, and with it its prices (a save does this by itself)."""
	frappe.clear_document_cache("AI Model", model)


def cost_function(model_doc_name: str | None):
	"""A ``cost_of(litellm_model, usage)`` for the loop, with the AI Model's prices looked up once."""
	prices = get_prices(model_doc_name)

	def cost_of(litellm_model: str, usage: Usage) -> float:
		return compute_cost(litellm_model, usage, prices)

	return cost_of
