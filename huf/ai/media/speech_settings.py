"""OpenAI Settings / Groq Settings (a configured transcription endpoint) and Elevenlabs Settings
(which AI Provider speaks through ElevenLabs), as the media tools use them."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.audio import Endpoint
from huf.ai.outbound import allowed_hosts, check_address
from huf.ai.outbound import normalize_url

ENDPOINT_SETTINGS = {"Groq Settings": "groq", "OpenAI Settings": "openai"}  # DocType -> whose upload limits apply


def check_endpoint(doc) -> None:
	"""OpenAI/Groq Settings' validate: a full URL Huf may reach, and what an enabled endpoint needs."""
	doc.api_url = normalize_url(doc.api_url, _("API URL"))
	if doc.api_url and doc.has_value_changed("api_url"):
		check_address(doc.api_url, _("The API URL of {0}").format(doc.doctype), _("audio files and the API key"))
	if doc.enabled and not (doc.api_url and doc.provider):
		frappe.throw(_("To enable {0}, choose the Provider it serves and enter the API URL.").format(doc.doctype), title=_("Missing Settings"))


def endpoint_for(provider: str) -> Endpoint | None:
	"""The enabled configured endpoint serving ``provider``'s speech to text, when there is one. Its
	address is checked again now (the allow-list may have changed), before any key is decrypted."""
	for doctype, route in ENDPOINT_SETTINGS.items():
		settings = frappe.get_cached_doc(doctype)
		if not (settings.enabled and settings.provider == provider and settings.api_url):
			continue
		check_address(settings.api_url, _("The API URL of {0}").format(doctype), _("audio files and the API key"))
		key = settings.get_password("api_key", raise_exception=False) if settings.api_key else None
		if not key and settings.auth_type != "None":
			key = frappe.get_cached_doc("AI Provider", provider).decrypted_key()
		return Endpoint(
			api_url=settings.api_url, api_key=key, model=settings.model or None, method=settings.method or "POST",
			auth_type=settings.auth_type or "Bearer", file_param=settings.file_param or "file",
			response_path=settings.response_path or "text", allowed_hosts=allowed_hosts(), provider=route,
		)  # fmt: skip
	return None


def speaks_elevenlabs(provider: str) -> bool:
	"""Is ``provider`` the one Elevenlabs Settings names (its TTS models go through ElevenLabs)?"""
	return bool(provider) and frappe.get_cached_doc("Elevenlabs Settings").provider == provider
