# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class ElevenlabsSettings(Document):
	"""Which AI Provider holds the ElevenLabs key: its TTS models speak through LiteLLM's elevenlabs
	route (huf/ai/media/speech_settings.py ``speaks_elevenlabs``)."""
