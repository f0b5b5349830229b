"""What the web app's Providers screen needs beyond plain document reads and saves: an overview that
says whether a key is set without ever returning it, and a connection test that calls the provider
the way a run would and reports the provider's own error."""

from __future__ import annotations

import time

import frappe
from frappe import _

from huf.ai.engine import llm
from huf.ai.engine.llm_errors import LLMError
from huf.ai.models import provider_spec
from huf.capabilities import needs

PING = [{"role": "user", "content": "Reply with the single word OK."}]


@frappe.whitelist()
@needs("agent.read")
def get_provider_overview() -> list[dict]:
	"""Every provider with its models; ``key_set`` says whether a key is stored (the key never leaves)."""
	frappe.has_permission("AI Provider", "read", throw=True)
	providers = frappe.get_all("AI Provider", fields=["name", "api_base", "description", "modified", "api_key"], order_by="name asc")
	models = frappe.get_all(
		"AI Model",
		fields=[
			"name", "provider", "disabled", "use_custom_pricing", "input_cost_per_1m_tokens",
			"output_cost_per_1m_tokens", "cached_input_cost_per_1m_tokens", "fallback_models",
		],
		order_by="name asc",
	)
	for provider in providers:
		provider["key_set"] = bool(provider.pop("api_key"))  # the column holds a mask; only "is set" leaves
		provider["ready"] = provider["key_set"] or bool(provider.api_base)
		provider["models"] = [model for model in models if model.provider == provider.name]
	return providers


@frappe.whitelist(methods=["POST"])
@needs("provider.write")
def test_provider_connection(provider: str, model: str | None = None) -> dict:
	"""Send one tiny message through ``provider`` (with ``model``, or its first enabled model) and say
	what happened: ``{ok, model, reply, seconds}`` or ``{ok: false, kind, message}``."""
	doc = frappe.get_doc("AI Provider", provider)
	doc.check_permission("write")
	model = (model or "").strip() or frappe.db.get_value("AI Model", {"provider": provider, "disabled": 0}, "model_name", order_by="creation asc")
	if not model:
		frappe.throw(_("Add a model to {0} first, or type a model name to test with.").format(frappe.bold(provider)))
	if not doc.api_key and not doc.api_base:
		return {"ok": False, "kind": "auth", "message": _("Enter the provider's API key (or a base URL for a local server) first.")}
	spec = provider_spec(doc, model)
	started = time.monotonic()
	try:
		turn = llm.stream_turn(llm.LLMRequest(model=spec, messages=PING, max_tokens=5, timeout=20, deadline=30, max_retries=0))
	except LLMError as error:
		return {"ok": False, "kind": error.kind, "message": error.message, "model": model}
	return {"ok": True, "model": turn.model, "reply": turn.content[:200], "seconds": round(time.monotonic() - started, 2)}
