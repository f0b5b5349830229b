"""Speech to text: the ``Speech to Text`` tool type and the ``transcribe_audio`` tool (an audio File
the run's user may read), and the whitelisted ``transcribe_audio`` the web app's microphone uses.

Which model, in the reference's order (``_resolve_stt_config``):
1. ``model`` passed to the tool: that model, with the agent's main provider's key;
2. the agent's Speech to Text Model: that AI Model, with its own provider's key;
3. the main provider's default speech-to-text model (whisper-1 for OpenAI and OpenAI-compatible
   servers, whisper-large-v3 for Groq).
A provider that OpenAI Settings / Groq Settings serve (enabled) is transcribed at that endpoint."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.media import models as media_models
from huf.ai.engine import audio
from huf.ai.engine.audio import Endpoint
from huf.ai.engine.llm_types import ModelSpec
from huf.ai.engine.media import MediaError
from huf.ai.engine.tools import ToolError
from huf.ai.media.speech_settings import endpoint_for
from huf.ai.tools.files import FileRefused, readable_file
from huf.capabilities import needs
from huf.permissions import can_run_agent


def transcribe_file(file_id: str | None = None, file_url: str | None = None, language: str | None = None, model: str | None = None) -> dict:
	"""Transcribe an audio file on this site (a voice note, a recording) to text.

	Args:
		file_id: The File's ID (preferred).
		file_url: The file's address, e.g. /private/files/note.webm.
		language: The language spoken, as an ISO-639-1 code such as en or de (optional; helps accuracy).
		model: A speech-to-text model to use instead of the agent's, e.g. whisper-1.
	"""
	context = frappe.flags.get("huf_tool_context")
	agent = frappe.get_cached_doc("Agent", context.agent) if context else None
	file = readable_file(file_id, file_url)
	text, used = _transcribe(file, agent, language, model)
	return {"success": True, "text": text, "language": language or "", "file_id": file.name, "model": used}


def _transcribe(file, agent, language: str | None, model: str | None = None) -> tuple[str, str]:
	"""(the text, the model used); ToolError in words for anything that stops it."""
	content = file.get_content()
	data = content if isinstance(content, bytes) else content.encode()
	target = _resolve_stt_config(agent, model)
	try:
		if isinstance(target, Endpoint):
			return audio.transcribe_at(target, file.file_name or file.name, data, language), target.model or target.api_url
		return audio.transcribe(target, file.file_name or file.name, data, language), target.model
	except MediaError as error:
		raise ToolError(str(error)) from None


def _resolve_stt_config(agent, model: str | None = None) -> ModelSpec | Endpoint:
	provider, name = media_models.main_provider(agent), model
	if not name and agent and agent.get("stt_model"):
		row = media_models.ai_model(agent.stt_model, _("Speech to Text Model"))
		provider, name = row.provider, row.model_name
	endpoint = endpoint_for(provider) if provider else None
	name = name or audio.default_model(provider, media_models.api_base(provider)) or ("whisper-1" if endpoint else None)
	if not name:
		raise ToolError(
			_("The provider {0} has no speech-to-text model Huf knows. Set the agent's Speech to Text Model (Voice and images).").format(provider)
		)
	spec = media_models.of_provider(provider, name, _("speech to text"))
	return Endpoint(**{**endpoint.__dict__, "model": endpoint.model or spec.model}) if endpoint else spec


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def transcribe_audio(audio_file_url: str, language: str = "en", agent: str | None = None) -> dict:
	"""The text of an audio File the caller may read (a voice note just recorded in the chat), with
	the agent's speech-to-text settings when ``agent`` is given (the caller must be able to run it)."""
	doc = None
	if agent:
		doc = frappe.get_doc("Agent", agent)
		if not can_run_agent(doc):
			frappe.throw(_("You may not use the agent {0}.").format(agent), frappe.PermissionError)
	try:
		file = readable_file(None, audio_file_url)
	except ToolError as error:
		frappe.throw(str(error), frappe.PermissionError if isinstance(error, FileRefused) else frappe.DoesNotExistError)
	result = {"success": True, "text": "", "language": language or "", "audio_file_url": file.file_url}
	try:
		result["text"], _used = _transcribe(file, doc, language)
	except ToolError as error:
		result.update(success=False, error=str(error))
	return result
