"""Which model (and whose key) a media call uses: an AI Model named on the agent, or a model of the
agent's own provider, each checked so a missing or broken setting is a tool error in words."""

from __future__ import annotations

import dataclasses

import frappe
from frappe import _

from huf.ai.engine.llm_types import ModelSpec
from huf.ai.engine.tools import ToolError
from huf.ai.models import provider_spec
from huf.ai.media.speech_settings import speaks_elevenlabs


def of_provider(provider: str | None, model: str, what: str) -> ModelSpec:
	"""``model`` at ``provider`` with its key (decrypted for this call), or a ToolError saying what to set."""
	if not provider or not frappe.db.exists("AI Provider", provider):
		raise ToolError(_("There is no AI Provider to make {0} with. Set the agent's provider, or its {0} model.").format(what))
	doc = frappe.get_cached_doc("AI Provider", provider)
	if not doc.api_key and not doc.api_base:
		raise ToolError(_("The AI Provider {0} has no API key, so it cannot make {1}. Enter its key, or choose another {1} model on the agent.").format(provider, what))
	try:
		spec = provider_spec(doc, model)
	except frappe.ValidationError as error:  # the API Base is not one Huf may reach now
		raise ToolError(str(error)) from None
	return dataclasses.replace(spec, provider="ElevenLabs") if speaks_elevenlabs(provider) else spec


def ai_model(name: str, field: str):
	"""The AI Model ``name`` set in the agent's ``field`` (e.g. TTS Model): its model_name and
	provider, or a ToolError when it is gone or disabled."""
	row = frappe.db.get_value("AI Model", name, ["model_name", "provider", "disabled"], as_dict=True)
	if not row:
		raise ToolError(_("The agent's {0} is {1}, which no longer exists. Choose another on the agent.").format(field, name))
	if row.disabled:
		raise ToolError(_("The agent's {0} {1} is disabled. Enable it or choose another on the agent.").format(field, name))
	return row


def of_ai_model(name: str, what: str, field: str) -> ModelSpec:
	"""The AI Model ``name`` set in the agent's ``field``, with its own provider's key."""
	row = ai_model(name, field)
	return of_provider(row.provider, row.model_name, what)


def api_base(provider: str | None) -> str | None:
	"""The provider's API Base (the cached provider document ``of_provider`` reads too)."""
	return frappe.get_cached_value("AI Provider", provider, "api_base") if provider else None


def main_provider(agent) -> str | None:
	return agent.provider if agent else frappe.db.get_single_value("Agent Settings", "default_provider")
