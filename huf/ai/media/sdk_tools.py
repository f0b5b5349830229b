"""The standard media tools ``generate_image`` and ``generate_audio`` (the reference's names), and
``preview_voice``, the agent editor's "play a sample".

What they make is saved as private Files attached to the run's conversation (``files.py``);
the model reads a reference to each (address, name, kind, size), never the bytes."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.media import files as media_files, models as media_models
from huf.ai.engine import media
from huf.ai.engine.llm_types import ModelSpec
from huf.ai.engine.media import MediaError
from huf.ai.engine.tools import ToolError
from huf.ai.media.speech_settings import speaks_elevenlabs
from huf.capabilities import needs

SAMPLE_TEXT = "Hello! This is how I sound."


def _run_agent():
	"""The agent and conversation of the run calling the tool (None outside a run)."""
	context = frappe.flags.get("huf_tool_context")
	if not context:
		return None, None
	return frappe.get_cached_doc("Agent", context.agent), context.conversation or None


def handle_generate_image(prompt: str, size: str | None = None, quality: str | None = None, n: int | None = None) -> dict:
	"""Make images from a description; they are saved as files of this conversation.

	Args:
		prompt: A detailed description of the image to make.
		size: Image size, e.g. 1024x1024 (what the model takes; the error names the sizes when it does not).
		quality: Image quality, e.g. standard or hd (DALL-E 3), low/medium/high (gpt-image-1).
		n: How many images (default 1).
	"""
	agent, conversation = _run_agent()
	spec = _image_model(agent)
	try:
		images = media.generate_images(spec, prompt, size=size or None, quality=quality or None, n=int(n) if n else None)
	except MediaError as error:
		raise ToolError(str(error)) from None
	files = [media_files.save(image, "image", "image", conversation) for image in images]
	result: dict = {"success": True, "files": files}
	revised = next((image.revised_prompt for image in images if image.revised_prompt), "")
	if revised:
		result["revised_prompt"] = revised
	return result


def _image_model(agent) -> ModelSpec:
	if agent and agent.get("image_model"):
		return media_models.of_ai_model(agent.image_model, _("images"), _("Image Model"))
	provider = media_models.main_provider(agent)
	default = media.default_model("image", provider, media_models.api_base(provider))
	if not default:
		raise ToolError(_("The provider {0} has no image model Huf knows. Set the agent's Image Model (Voice and images).").format(provider))
	return media_models.of_provider(provider, default, _("images"))


def handle_generate_audio(
	input: str, voice: str | None = None, model: str | None = None, speed: float | None = None, response_format: str | None = None
) -> dict:
	"""Speak a text aloud; the audio is saved as a file of this conversation.

	Args:
		input: The text to speak.
		voice: A voice of the speech model, e.g. alloy or nova (OpenAI), a voice ID (ElevenLabs). Default: the agent's.
		model: A speech model to use instead of the agent's, e.g. tts-1-hd.
		speed: 0.25 to 4.0 (default 1.0).
		response_format: mp3 (default), opus, aac, flac, wav or pcm.
	"""
	agent, conversation = _run_agent()
	spec, default_voice = _resolve_tts_config(agent, model)
	try:
		spoken = media.speak(spec, input, voice=voice or default_voice, speed=speed, response_format=response_format)
	except MediaError as error:
		raise ToolError(str(error)) from None
	return {"success": True, "files": [media_files.save(spoken, "audio", "speech", conversation)]}


def _resolve_tts_config(agent, model: str | None = None) -> tuple[ModelSpec, str | None]:
	"""(the speech model with its key, the agent's voice), in the reference's order:
	1. ``model`` passed to the tool: that model, with the agent's main provider's key;
	2. the agent's TTS Model: that AI Model, with its own provider's key (another provider may speak);
	3. the main provider's default speech model."""
	voice = (agent.get("tts_voice") if agent else None) or None
	provider = media_models.main_provider(agent)
	if model:
		return media_models.of_provider(provider, model, _("speech")), voice
	if agent and agent.get("tts_model"):
		return media_models.of_ai_model(agent.tts_model, _("speech"), _("TTS Model")), voice
	default = media.default_model("tts", "ElevenLabs" if speaks_elevenlabs(provider) else provider, media_models.api_base(provider))
	if not default:
		raise ToolError(
			_("The provider {0} has no speech model Huf knows. Set the agent's TTS Model (Voice and images).").format(provider)
		)
	return media_models.of_provider(provider, default, _("speech")), voice


@frappe.whitelist(methods=["POST"])
@needs("agent.write")
def preview_voice(agent: str, text: str | None = None, tts_model: str | None = None, tts_voice: str | None = None) -> dict:
	"""A short spoken sample with the agent's (or the given) TTS model and voice, as a private File
	of the caller's."""
	doc = frappe.get_doc("Agent", agent)
	doc.check_permission("write")
	if tts_model:
		frappe.get_doc("AI Model", tts_model).check_permission("read")
		doc.tts_model = tts_model
	if tts_voice:
		doc.tts_voice = tts_voice
	try:
		spec, voice = _resolve_tts_config(doc)
		spoken = media.speak(spec, text or SAMPLE_TEXT, voice=voice, response_format="mp3")
	except (ToolError, MediaError) as error:
		frappe.throw(str(error), title=_("No Sample"))
	saved = media_files.save(spoken, "audio", "voice-sample")
	return {"file_url": saved["file_url"], "file_name": saved["file_name"], "content_type": saved["content_type"]}
