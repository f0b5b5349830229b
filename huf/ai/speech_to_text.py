"""Speech to text: a recorded voice note (or any audio File the caller may read) as text.

MINIMAL version written with the web app's microphone button (issue 30, branch media-web), at the
names of the shared contract; the server side's fuller version (the Speech to Text tool type,
provider defaults, OpenAI/Groq Settings endpoints, size and format checks) replaces this file.
Resolution here: the agent's Speech to Text Model, else whisper-1 on the agent's own provider.
"""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai import models
from huf.ai.engine import pinned
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm import normalize_model_name
from huf.ai.engine.llm_errors import checked_failure, scrub
from huf.ai.engine.tools import ToolError
from huf.ai.tools.files import readable_file
from huf.capabilities import needs
from huf.permissions import can_run_agent

DEFAULT_STT_MODEL = "whisper-1"
TIMEOUT = 120.0


@frappe.whitelist()
@needs("agent.run")
def transcribe_audio(audio_file_url: str, language: str = "en", agent: str | None = None) -> dict:
	"""The words spoken in the File at ``audio_file_url``: ``{success, text, language,
	audio_file_url}``, or ``success`` False with ``error`` in words."""
	try:
		file = readable_file(None, audio_file_url)
	except ToolError as refused:
		frappe.throw(str(refused), frappe.PermissionError)
	doc = None
	if agent:
		doc = frappe.get_doc("Agent", agent)
		if not can_run_agent(doc):
			frappe.throw(_("You may not use the agent {0}.").format(agent), frappe.PermissionError)
	language = (language or "en").strip()[:8]
	result = {"success": False, "text": "", "language": language, "audio_file_url": file.file_url}
	if doc is None:
		return result | {"error": _("Say which agent's speech settings to use.")}
	content = file.get_content()  # never empty: Frappe keeps no File without content
	spec = models.model_spec(doc.stt_model) if doc.get("stt_model") else models.provider_spec(models.check_provider(doc.model), DEFAULT_STT_MODEL)
	model = normalize_model_name(spec.model, spec.provider, spec.api_base)
	client = pinned.client_for(model, spec.api_base, spec.api_key, spec.allowed_hosts, TIMEOUT)  # through safe_http
	failure = None
	try:
		response = load_litellm().transcription(
			model=model,
			file=(file.file_name or "voice-note.webm", content),
			language=language,
			api_key=spec.api_key,
			api_base=spec.api_base,
			timeout=TIMEOUT,
			**({"client": client} if client is not None else {}),
		)
	except Exception as error:  # noqa: BLE001 - said in words, the key scrubbed out
		failure = _("Transcription failed: {0}").format(scrub(str(checked_failure(error) or error), spec.api_key)[:400])
	if failure is not None:
		return result | {"error": failure}
	return result | {"success": True, "text": str(getattr(response, "text", "") or "").strip()}
