"""A voice note recorded in the chat becomes text (huf/ai/media/speech_to_text.py `transcribe_audio`): the
uploader's private File goes to the scripted model server's transcription endpoint, with the
agent's Speech to Text Model when it has one; nobody else may have someone's recording read."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.media.speech_to_text import transcribe_audio
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.scripted_media import wav

WAV = wav()


def voice_note(owner: str, name: str = "note.wav", content: bytes = WAV) -> str:
	"""A private File of ``owner``'s, attached to nothing (as the chat's upload makes it)."""
	frappe.set_user(owner)
	try:
		doc = frappe.get_doc({"doctype": "File", "file_name": name, "is_private": 1, "content": content}).insert()
	finally:
		frappe.set_user("Administrator")
	frappe.db.commit()
	return doc.file_url


def as_user(user: str, *args, **kwargs) -> dict:
	frappe.set_user(user)
	try:
		return transcribe_audio(*args, **kwargs)
	finally:
		frappe.set_user("Administrator")


def test_a_voice_note_is_heard_with_the_agents_model_and_only_by_its_owner(site, llm):
	agent = fixtures.agent(llm, name="Voice Note Agent", allow_chat=1)
	owner = make_user("voice-owner@huf.test", ["Huf User"])
	other = make_user("voice-other@huf.test", ["Huf User"])
	url = voice_note(owner)
	llm.transcript = "Book a table for two at eight."

	heard = as_user(owner, url, "pt", agent)
	assert heard == {"success": True, "text": "Book a table for two at eight.", "language": "pt", "audio_file_url": url}
	sent = llm.requests[-1]
	assert sent["path"].endswith("/audio/transcriptions")
	assert sent["body"]["model"] == "whisper-1" and sent["body"]["language"] == "pt"
	assert (sent["file"]["name"], sent["file"]["data"]) == ("note.wav", WAV)
	assert sent["headers"]["authorization"] == "Bearer sk-test"

	# the agent's own Speech to Text Model wins over whisper-1
	stt = fixtures.model("Scripted", name="scripted-stt")
	frappe.db.set_value("Agent", agent, "stt_model", stt)
	frappe.db.commit()
	assert as_user(owner, url, "en", agent)["success"]
	assert llm.requests[-1]["body"]["model"] == "scripted-stt"

	with pytest.raises(frappe.PermissionError):
		as_user(other, url, "en", agent)
	assert len(llm.requests) == 2  # refused before anything was sent

