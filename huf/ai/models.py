"""An AI Model as the engine calls it: its provider checked, its key decrypted for the call only."""

from __future__ import annotations

import dataclasses

import frappe
from frappe import _

from huf.ai.engine import llm
from huf.ai.outbound import allowed_hosts


def check_provider(model_name: str):
	"""The model's provider, when it can be called: it has a key, or a base URL of a local server.

	Reads the masked value of the Password field, so no decryption (and no query) on the web path."""
	provider = frappe.get_cached_doc("AI Provider", frappe.get_cached_doc("AI Model", model_name).provider)
	if not provider.api_key and not provider.api_base:
		frappe.throw(
			_("The AI Provider {0} has no API key. Open it and enter the key from the provider's dashboard.").format(
				frappe.bold(provider.name)
			)
		)
	return provider


def model_spec(model_name: str) -> llm.ModelSpec:
	"""The AI Model with its provider's key (decrypted for this call only) and base URL, once the base
	URL has passed the outbound allow-list. An AI Model with its own cached-input price caches
	prompts (``ModelSpec.caches_prompts``); otherwise LiteLLM's price data says."""
	row = frappe.get_cached_doc("AI Model", model_name)
	spec = provider_spec(check_provider(model_name), row.model_name)
	if row.get("use_custom_pricing") and row.get("cached_input_cost_per_1m_tokens"):
		spec = dataclasses.replace(spec, caches_prompts=True)
	return spec


def provider_spec(provider, model: str) -> llm.ModelSpec:
	"""``model`` at ``provider`` (an AI Provider): its key decrypted for this call only, its base URL
	once it has passed the allow-list, and that allow-list, so the call is checked again as it
	connects (engine/pinned.py)."""
	api_key, api_base = provider.endpoint()
	allowed = allowed_hosts() if api_base else None
	return llm.ModelSpec(model=model, provider=provider.provider_name, api_key=api_key, api_base=api_base, allowed_hosts=allowed)


def fallback_models(model_name: str) -> tuple[str, ...]:
	text = frappe.get_cached_doc("AI Model", model_name).get("fallback_models") or ""
	return tuple(line.strip() for line in text.splitlines() if line.strip())
