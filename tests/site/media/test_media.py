"""Voice and images on a real site: an agent transcribes a voice note, answers, and speaks the answer;
an image kept as a private File only the conversation's owner reads (over HTTP too); an agent on one
provider speaking with another provider's key; missing settings as tool errors the model reads; the
Speech to Text tool type; the whitelisted transcribe_audio and preview_voice."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.chat import send_agent_chat_message
from huf.ai.media.sdk_tools import preview_voice
from huf.ai.media.speech_to_text import transcribe_audio
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls
from tests.support.scripted_media import wav


def upload(user: str, file_name: str, content: bytes) -> dict:
	with as_user(user):
		doc = frappe.get_doc({"doctype": "File", "file_name": file_name, "content": content, "is_private": 1}).insert()
	frappe.db.commit()
	return {"name": doc.name, "file_url": doc.file_url}


def empty_upload(user: str, file_name: str) -> dict:
	"""A 0-byte File (Frappe saves no empty content itself: the file is put on disk first)."""
	open(frappe.get_site_path("private", "files", file_name), "wb").close()
	with as_user(user):
		doc = frappe.get_doc({"doctype": "File", "file_name": file_name, "file_url": f"/private/files/{file_name}", "is_private": 1}).insert()
	frappe.db.commit()
	return {"name": doc.name, "file_url": doc.file_url}


def media_agent(llm, name: str, user: str, tools: tuple[str, ...], **fields) -> str:
	return fixtures.agent(llm, name=name, tools=tools, allow_chat=1, run_immediately=1, agent_users=[{"user": user}], **fields)


def keyless_provider() -> str:
	"""A provider with neither a key nor an address: nothing can be called through it."""
	if not frappe.db.exists("AI Provider", "Media Keyless"):
		frappe.get_doc({"doctype": "AI Provider", "provider_name": "Media Keyless"}).insert()
	return "Media Keyless"


def tool_result(llm, request: int) -> dict:
	"""What the model read as the last tool result in the ``request``-th chat request."""
	return json.loads(llm.chat_requests[request]["body"]["messages"][-1]["content"])


def media_requests(llm, route: str) -> list[dict]:
	return [r for r in llm.requests if r["path"].endswith(route)]


def test_an_agent_transcribes_a_voice_note_answers_and_speaks_the_answer(site, llm):
	user = make_user("media-voice@huf.test", ["Huf User"])
	agent = media_agent(llm, "Media Voice Agent", user, ("transcribe_audio", "generate_audio"), tts_voice="nova")
	recording = wav(seconds=0.4)
	note = upload(user, "voice-note.wav", recording)
	llm.transcript = "My printer in room 4 is out of toner."
	answer = "I have ordered toner for room 4."
	llm.script(
		tool_calls([("t1", "transcribe_audio", json.dumps({"file_id": note["name"], "language": "en"}))]),
		tool_calls([("s1", "generate_audio", json.dumps({"input": answer}))]),
		text(answer),
	)
	with as_user(user):
		reply = send_agent_chat_message(agent, "Please handle my voice note.", new_conversation=1)
	assert reply["status"] == "Success"

	heard = tool_result(llm, 1)
	assert heard["success"] and heard["text"] == "My printer in room 4 is out of toner." and heard["model"] == "whisper-1"
	(upload_request,) = media_requests(llm, "/audio/transcriptions")
	assert upload_request["file"]["data"] == recording and upload_request["body"]["language"] == "en"

	spoken = tool_result(llm, 2)
	(audio,) = spoken["files"]
	assert spoken["success"] and audio["kind"] == "audio" and audio["content_type"] == "audio/mpeg"
	assert audio["file_url"].startswith("/private/files/") and "base64" not in json.dumps(spoken)
	(speech,) = media_requests(llm, "/audio/speech")
	assert speech["body"]["input"] == answer and speech["body"]["voice"] == "nova"
	file = frappe.get_doc("File", {"file_url": audio["file_url"]})
	assert file.is_private and file.owner == user and file.file_size == audio["size"]
	assert (file.attached_to_doctype, file.attached_to_name) == ("Agent Conversation", reply["conversation"])
	assert file.get_content()[:2] == b"\xff\xfb"


def test_an_image_is_private_to_the_conversations_owner(site, llm, web):
	alice = make_user("media-alice@huf.test", ["Huf User"])
	bob = make_user("media-bob@huf.test", ["Huf User"])
	agent = media_agent(llm, "Media Image Agent", alice, ("generate_image",))
	llm.script(
		tool_calls([("i1", "generate_image", json.dumps({"prompt": "a campaign poster with a lighthouse", "size": "1024x1024"}))]),
		text("Here is your poster."),
	)
	with as_user(alice):
		reply = send_agent_chat_message(agent, "Make a poster.", new_conversation=1)
	assert reply["status"] == "Success"
	made = tool_result(llm, 1)
	(image,) = made["files"]
	assert made["revised_prompt"] == "revised: a campaign poster with a lighthouse" and image["kind"] == "image"
	assert len(llm.chat_requests[1]["body"]["messages"][-1]["content"]) < 600, "the model reads a reference, not the image"
	file = frappe.get_doc("File", {"file_url": image["file_url"]})
	assert file.is_private and file.owner == alice and file.attached_to_name == reply["conversation"]
	stored = frappe.db.get_value("Agent Tool Call", {"agent_run": reply["run"], "tool": "generate_image"}, "tool_result")
	assert json.loads(stored)["files"] == [image]  # what the Agent Run form (agent_run.js) shows

	mine = web.get(image["file_url"], web.token_headers(alice))
	assert mine.status_code == 200 and mine.content.startswith(b"\x89PNG")
	for headers in (web.token_headers(bob), web.site_header()):
		refused = web.get(image["file_url"], headers)
		assert refused.status_code in (403, 404) and not refused.content.startswith(b"\x89PNG")
		record = web.get(f"/api/resource/File/{file.name}", headers)
		assert record.status_code == 403 and image["file_url"] not in record.text


def test_image_options_the_model_does_not_take_are_a_tool_error_naming_the_allowed(site, llm):
	user = make_user("media-sizes@huf.test", ["Huf User"])
	image_model = fixtures.model(fixtures.provider(llm), name="dall-e-3")
	agent = media_agent(llm, "Media Size Agent", user, ("generate_image",), image_model=image_model)
	llm.script(tool_calls([("i1", "generate_image", json.dumps({"prompt": "a cat", "size": "512x512"}))]), text("Sorry."))
	with as_user(user):
		send_agent_chat_message(agent, "A cat please.", new_conversation=1)
	said = tool_result(llm, 1)["error"]
	assert "1024x1024, 1792x1024, 1024x1792" in said and not media_requests(llm, "/images/generations")


def test_a_refused_prompt_and_no_image_are_tool_errors(site, llm):
	from tests.support.scripted_media import CONTENT_POLICY

	user = make_user("media-refused@huf.test", ["Huf User"])
	agent = media_agent(llm, "Media Refused Agent", user, ("generate_image",))
	for reply, words in ((CONTENT_POLICY, "content policy"), ("empty", "returned no image")):
		llm.reset()
		llm.image_reply = reply
		llm.script(tool_calls([("i1", "generate_image", json.dumps({"prompt": "x"}))]), text("I could not."))
		with as_user(user):
			assert send_agent_chat_message(agent, "Draw.", new_conversation=1)["status"] == "Success"
		assert words in tool_result(llm, 1)["error"]


def test_an_agent_speaks_with_another_providers_key(site, llm):
	user = make_user("media-cross@huf.test", ["Huf User"])
	voice_provider = fixtures.provider(llm, name="Scripted Voice", api_key="sk-voice-provider-B")
	tts = fixtures.model(voice_provider, name="voice-b-tts")
	agent = media_agent(llm, "Media Cross Agent", user, ("generate_audio",), tts_model=tts, tts_voice="shimmer")
	llm.script(tool_calls([("s1", "generate_audio", json.dumps({"input": "Bonjour"}))]), text("Done."))
	with as_user(user):
		assert send_agent_chat_message(agent, "Say bonjour.", new_conversation=1)["status"] == "Success"
	(speech,) = media_requests(llm, "/audio/speech")
	assert speech["headers"]["authorization"] == "Bearer sk-voice-provider-B"
	assert (speech["body"]["model"], speech["body"]["voice"]) == ("voice-b-tts", "shimmer")
	assert all(r["headers"]["authorization"] == "Bearer sk-test" for r in llm.chat_requests)


def test_a_provider_named_in_elevenlabs_settings_speaks_through_elevenlabs(site, llm):
	user = make_user("media-eleven@huf.test", ["Huf User"])
	voice_provider = fixtures.provider(llm, name="Scripted Eleven", api_key="xi-secret-key")
	tts = fixtures.model(voice_provider, name="eleven_multilingual_v2")
	agent = media_agent(llm, "Media Eleven Agent", user, ("generate_audio",), tts_model=tts, tts_voice="21m00Tcm4TlvDq8ikWAM")
	settings = frappe.get_doc("Elevenlabs Settings")
	settings.provider = voice_provider
	settings.save()
	frappe.db.commit()
	llm.script(tool_calls([("s1", "generate_audio", json.dumps({"input": "Hallo"}))]), text("Done."))
	try:
		with as_user(user):
			assert send_agent_chat_message(agent, "Say hallo.", new_conversation=1)["status"] == "Success"
	finally:
		settings.reload()
		settings.provider = None
		settings.save()
		frappe.db.commit()
	(speech,) = [r for r in llm.requests if "/text-to-speech/" in r["path"]]
	assert speech["voice"] == "21m00Tcm4TlvDq8ikWAM" and speech["headers"]["xi-api-key"] == "xi-secret-key"
	assert speech["body"]["text"] == "Hallo" and tool_result(llm, 1)["files"][0]["content_type"] == "audio/mpeg"


def test_missing_speech_settings_are_tool_errors_in_words(site, llm):
	user = make_user("media-missing@huf.test", ["Huf User"])
	tts = fixtures.model(keyless_provider(), name="keyless-tts")
	retired = fixtures.model(fixtures.provider(llm), name="retired-stt", disabled=1)
	agent = media_agent(llm, "Media Missing Agent", user, ("generate_audio", "transcribe_audio"), tts_model=tts, stt_model=retired)
	note = upload(user, "missing-note.wav", wav())
	llm.script(
		tool_calls([("s1", "generate_audio", json.dumps({"input": "hi"})), ("t1", "transcribe_audio", json.dumps({"file_id": note["name"]}))]),
		text("I cannot."),
	)
	with as_user(user):
		assert send_agent_chat_message(agent, "Speak and listen.", new_conversation=1)["status"] == "Success"
	messages = llm.chat_requests[1]["body"]["messages"]
	spoke, heard = (json.loads(m["content"])["error"] for m in messages[-2:])
	assert "Media Keyless has no API key" in spoke
	assert "Speech to Text Model retired-stt is disabled" in heard
	assert not media_requests(llm, "/audio/speech") and not media_requests(llm, "/audio/transcriptions")


def test_the_speech_to_text_tool_type_transcribes_and_refuses_bad_audio(site, llm):
	user = make_user("media-stt-type@huf.test", ["Huf User"])
	fixtures.tool("media_listen", "Speech to Text", tool_type="Files")
	agent = media_agent(llm, "Media STT Type Agent", user, ("media_listen",))
	empty = empty_upload(user, "empty-note.wav")
	good = upload(user, "good-note.wav", wav())
	llm.transcript = "call me back"
	llm.script(
		tool_calls([("a", "media_listen", json.dumps({"file_id": empty["name"]})), ("b", "media_listen", json.dumps({"file_url": good["file_url"]}))]),
		text("ok"),
	)
	with as_user(user):
		assert send_agent_chat_message(agent, "Listen.", new_conversation=1)["status"] == "Success"
	first, second = (json.loads(m["content"]) for m in llm.chat_requests[1]["body"]["messages"][-2:])
	assert "is empty (0 bytes)" in first["error"]
	assert second["text"] == "call me back"
	assert len(media_requests(llm, "/audio/transcriptions")) == 1


def test_a_configured_endpoint_transcribes_for_its_provider(site, llm):
	user = make_user("media-endpoint@huf.test", ["Huf User"])
	agent = media_agent(llm, "Media Endpoint Agent", user, ())
	settings = frappe.get_doc("Groq Settings")
	settings.update({"enabled": 1, "provider": "Scripted", "api_url": llm.base_url + "/audio/transcriptions", "api_key": "gsk-configured", "model": "whisper-large-v3"})
	settings.save()
	frappe.db.commit()
	note = upload(user, "endpoint-note.wav", wav())
	llm.transcript = "through the endpoint"
	try:
		with as_user(user):
			result = transcribe_audio(note["file_url"], "en", agent)
	finally:
		settings.reload()
		settings.enabled = 0
		settings.save()
		frappe.db.commit()
	assert result == {"success": True, "text": "through the endpoint", "language": "en", "audio_file_url": note["file_url"]}
	(request,) = media_requests(llm, "/audio/transcriptions")
	assert request["headers"]["authorization"] == "Bearer gsk-configured" and request["body"]["model"] == "whisper-large-v3"


def test_transcribe_audio_reads_only_the_callers_files_and_says_what_is_wrong(site, llm):
	owner = make_user("media-stt-owner@huf.test", ["Huf User"])
	other = make_user("media-stt-other@huf.test", ["Huf User"])
	agent = media_agent(llm, "Media STT Agent", owner, ())
	note = upload(owner, "mine.webm", b"\x1a\x45\xdf\xa3" + bytes(64))
	bad = upload(owner, "mine.aiff", b"FORM0000AIFF")
	llm.transcript = "hello from the chat"
	with as_user(owner):
		assert transcribe_audio(note["file_url"], "en", agent)["text"] == "hello from the chat"
		refused = transcribe_audio(bad["file_url"], "en", agent)
		assert not refused["success"] and "Use one of: flac, mp3" in refused["error"]
	with as_user(other), pytest.raises(frappe.PermissionError, match="may not read"):
		transcribe_audio(note["file_url"], "en")
	with as_user(other), pytest.raises(frappe.PermissionError, match="may not use the agent"):
		transcribe_audio(note["file_url"], "en", agent)
	assert len(media_requests(llm, "/audio/transcriptions")) == 1


def test_preview_voice_speaks_a_sample_as_the_callers_private_file(site, llm):
	manager = make_user("media-manager@huf.test", ["Huf Manager"])
	agent = fixtures.agent(llm, name="Media Preview Agent", tts_voice="echo")
	with as_user(manager):
		sample = preview_voice(agent)
	assert sample["content_type"] == "audio/mpeg" and sample["file_url"].startswith("/private/files/") and sample["file_url"].endswith(".mp3")
	(speech,) = media_requests(llm, "/audio/speech")
	assert speech["body"]["input"] == "Hello! This is how I sound." and speech["body"]["voice"] == "echo"
	file = frappe.get_doc("File", {"file_url": sample["file_url"]})
	assert file.owner == manager and file.is_private and not file.attached_to_doctype
	keyless = keyless_provider()
	with as_user(manager), pytest.raises(frappe.ValidationError, match="Media Keyless has no API key"):
		preview_voice(agent, tts_model=fixtures.model(keyless, name="keyless-tts"))
	assert len(media_requests(llm, "/audio/speech")) == 1


def test_endpoint_settings_are_checked_when_saved(site, llm):
	provider = fixtures.provider(llm)
	for values, said in (
		({"provider": None, "api_url": None}, "choose the Provider it serves and enter the API URL"),
		({"provider": provider, "api_url": "transcribe-here"}, "must be a full URL"),
		({"provider": provider, "api_url": "http://10.255.0.9/v1/audio/transcriptions"}, "private network address"),
	):
		settings = frappe.get_doc("OpenAI Settings")
		settings.update({"enabled": 1, **values})
		with pytest.raises(frappe.ValidationError, match=said):
			settings.save()
	frappe.db.rollback()
