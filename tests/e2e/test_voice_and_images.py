"""Voice notes and pictures in the web app's chat (issue 30): Speak records from Chromium's fake
microphone, the recording is uploaded as the person's private file and written down by the scripted
model server's transcription endpoint, and the words wait in the message box to be edited and sent;
an image (and audio) a tool saved on the conversation shows in the answer with a Download link, to
the conversation's owner only."""

from __future__ import annotations

import json
import struct
import zlib
from urllib.parse import quote

import frappe
from playwright.sync_api import expect

from tests.e2e.test_accessibility import AXE, RUN_AXE
from tests.e2e.test_chat_browser import conversation_of, run_status
from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text


def png(width: int = 4, height: int = 3) -> bytes:
	"""A real PNG: red pixels."""

	def chunk(kind: bytes, data: bytes) -> bytes:
		return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

	rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
	header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
	return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def wav(samples: int = 800) -> bytes:
	"""A real WAV: a tenth of a second of silence at 8 kHz."""
	data = b"\x00\x00" * samples
	return b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16) + b"data" + struct.pack("<I", len(data)) + data


def test_speak_records_a_voice_note_that_is_written_down_edited_and_sent(site, llm, workers, web, signed_in):
	agent = fixtures.agent(llm, name="Voice Chat Agent", allow_chat=1)
	user = make_user("voice-chatter@huf.test", ["Huf User"])
	llm.transcript = "What is on my calendar"
	llm.script(text("Two meetings: nine and eleven."))
	workers.start(1)
	page = signed_in(user)
	page.goto(f"/huf/chat/{quote(agent)}")
	box = page.get_by_label(f"Message to {agent}")

	speak = page.get_by_role("button", name="Speak")
	speak.focus()
	page.keyboard.press("Enter")
	stop = page.get_by_role("button", name="Stop recording")
	expect(stop).to_be_focused()
	expect(page.get_by_role("status").filter(has_text="Recording…")).to_contain_text("0:01", timeout=5_000)  # a second of the fake microphone's beep
	page.keyboard.press("Enter")
	expect(box).to_have_value("What is on my calendar", timeout=30_000)
	expect(box).to_be_focused()  # ready to be checked and edited

	heard = [r for r in llm.requests if r["path"].endswith("/audio/transcriptions")]
	assert len(heard) == 1 and heard[0]["body"]["model"] == "whisper-1" and heard[0]["body"]["language"] == "en"
	sent = heard[0]["file"]
	assert sent["name"].startswith("voice-note-") and sent["name"].endswith(".webm") and sent["size"] > 100
	frappe.db.commit()
	note = frappe.db.get_value("File", {"file_name": sent["name"]}, ["owner", "is_private", "attached_to_doctype", "file_size"], as_dict=True)
	assert note == {"owner": user, "is_private": 1, "attached_to_doctype": None, "file_size": sent["size"]}

	box.press("End")
	box.type(" for tomorrow?")
	page.get_by_role("button", name="Send").click()
	page.get_by_test_id("answer").filter(has_text="Two meetings").wait_for(timeout=60_000)
	conversation = conversation_of(agent, user)
	assert conversation, "the answer is on screen, so its conversation exists"
	wait_for(lambda: run_status(conversation) == "Success", message="the run to finish")
	asked = frappe.db.get_value("Agent Message", {"conversation": conversation, "role": "user"}, "content")
	assert asked == "What is on my calendar for tomorrow?"

	# silence heard: said in words, the typed text kept
	llm.transcript = ""
	box.fill("Keep this")
	page.get_by_role("button", name="Speak").click()
	page.get_by_role("button", name="Stop recording").click()
	expect(page.get_by_role("alert")).to_have_text("Couldn't hear anything — try again.", timeout=30_000)
	expect(box).to_have_value("Keep this")
	expect(page.get_by_role("button", name="Speak")).to_be_enabled()


def test_the_speech_model_chosen_in_the_agent_editor_is_the_one_that_listens(site, llm, web, signed_in):
	agent = fixtures.agent(llm, name="Voice Editor Agent", allow_chat=1)
	stt = fixtures.model("Scripted", name="scripted-stt")
	frappe.db.commit()
	page = signed_in(make_user("voice-manager@huf.test", ["Huf Manager"]))
	page.goto(f"/huf/agents/{quote(agent)}")
	form = page.get_by_role("form", name="Agent settings")
	form.get_by_label("Model that writes down speech").select_option(stt)
	form.get_by_label("Voice", exact=True).fill("nova")
	form.get_by_role("button", name="Play a sample").click()  # the voice as set in the form, before it is saved
	player = page.get_by_label("Voice sample")
	expect(player).to_be_visible(timeout=30_000)
	spoken = [r for r in llm.requests if r["path"].endswith("/audio/speech")]
	assert len(spoken) == 1 and spoken[0]["body"]["voice"] == "nova" and spoken[0]["body"]["input"] == "Hello! This is how I sound."
	sample = page.request.get(player.get_attribute("src"))
	assert sample.ok and len(sample.body()) > 100  # the private file plays for who made it
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
	frappe.db.commit()
	saved = frappe.db.get_value("Agent", agent, ["stt_model", "tts_model", "tts_voice", "image_model"])
	assert [value or None for value in saved] == [stt, None, "nova", None]  # an empty choice: the provider's usual model

	llm.transcript = "Use the other model"
	page.goto(f"/huf/chat/{quote(agent)}")
	page.get_by_role("button", name="Speak").click()
	page.get_by_role("button", name="Stop recording").click()
	expect(page.get_by_label(f"Message to {agent}")).to_have_value("Use the other model", timeout=30_000)
	assert [r["body"]["model"] for r in llm.requests if r["path"].endswith("/audio/transcriptions")] == [stt]


def drawn_conversation(llm, agent: str, owner: str) -> tuple[str, str, str]:
	"""The owner's conversation in which generate_image and generate_audio saved a PNG and a WAV:
	a real run's question and answer, with the tools' round put between them as the recorder writes
	it (their results name private Files attached to the conversation). Gives (conversation, image
	url, audio url)."""
	from huf.ai.agent.integration import run_agent_sync

	llm.script(text("Here is your cat, and how it sounds."))
	frappe.set_user(owner)
	try:
		result = run_agent_sync(agent, "Draw a cat and say meow", channel_id="chat", now=True)
		urls = {}
		for name, content in (("cat.png", png()), ("meow.wav", wav())):
			doc = {"doctype": "File", "file_name": name, "is_private": 1, "content": content, "attached_to_doctype": "Agent Conversation", "attached_to_name": result["conversation"]}
			urls[name] = frappe.get_doc(doc).insert(ignore_permissions=True).file_url
	finally:
		frappe.set_user("Administrator")
	conversation, run = result["conversation"], result["run"]
	reply = frappe.db.get_value("Agent Message", {"agent_run": run, "role": "agent", "kind": "Message"}, ["name", "sequence"], as_dict=True)
	frappe.db.set_value("Agent Message", reply.name, "sequence", reply.sequence + 3)
	calls = [
		{"id": "draw-1", "type": "function", "function": {"name": "generate_image", "arguments": json.dumps({"prompt": "A grey cat on a red mat"})}},
		{"id": "say-1", "type": "function", "function": {"name": "generate_audio", "arguments": json.dumps({"input": "Meow"})}},
	]
	results = {
		"draw-1": {"success": True, "files": [{"file_url": urls["cat.png"], "file_name": "cat.png", "kind": "image", "content_type": "image/png", "size": len(png())}]},
		"say-1": {"success": True, "files": [{"file_url": urls["meow.wav"], "file_name": "meow.wav", "kind": "audio", "content_type": "audio/wav", "size": len(wav())}]},
	}
	common = {"doctype": "Agent Message", "conversation": conversation, "agent": agent, "user": owner, "agent_run": run}
	frappe.get_doc({**common, "sequence": reply.sequence, "role": "agent", "kind": "Tool Call", "record_kind": "tool_call", "tool_calls": json.dumps(calls)}).insert(ignore_permissions=True)
	for n, call in enumerate(calls, start=1):
		row = {"role": "tool", "kind": "Tool Result", "record_kind": "tool_result", "tool_call_id": call["id"], "tool_name": call["function"]["name"], "tool_status": "Success"}
		frappe.get_doc({**common, **row, "sequence": reply.sequence + n, "content": json.dumps(results[call["id"]])}).insert(ignore_permissions=True)
	frappe.db.commit()
	return conversation, urls["cat.png"], urls["meow.wav"]


def test_an_image_and_audio_a_tool_made_show_in_the_chat_to_its_owner_only(site, llm, web, signed_in):
	agent = fixtures.agent(llm, name="Drawing Chat Agent", allow_chat=1)
	owner = make_user("drawing-owner@huf.test", ["Huf User"])
	other = make_user("drawing-other@huf.test", ["Huf User"])
	conversation, image_url, audio_url = drawn_conversation(llm, agent, owner)
	assert image_url.startswith("/private/files/")

	page = signed_in(owner)
	page.goto(f"/huf/chat/{quote(agent)}/{conversation}")
	answer = page.get_by_test_id("answer").filter(has_text="Here is your cat")
	media = answer.get_by_role("list", name="Files the agent made")
	picture = media.get_by_role("img", name="A grey cat on a red mat")
	expect(picture).to_be_visible()
	expect(picture).to_have_attribute("src", image_url)
	page.wait_for_function("(img) => img.complete && img.naturalWidth === 4 && img.naturalHeight === 3", arg=picture.element_handle())  # the PNG itself, loaded
	expect(media.get_by_role("link", name="A grey cat on a red mat")).to_have_attribute("href", image_url)  # opens full size
	player = media.locator("audio")
	expect(player).to_have_attribute("src", audio_url)
	expect(player).to_have_attribute("aria-label", "Meow")
	page.wait_for_function("(audio) => audio.readyState >= 1 && audio.duration > 0", arg=player.element_handle())  # the WAV, playable

	with page.expect_download() as downloading:
		media.get_by_role("link", name="Download cat.png").click()
	download = downloading.value
	assert download.suggested_filename == "cat.png"
	with open(download.path(), "rb") as saved:
		assert saved.read() == png()
	expect(media.get_by_role("link", name="Download meow.wav")).to_have_attribute("download", "meow.wav")

	page.add_script_tag(path=str(AXE))
	assert page.evaluate(RUN_AXE) == []

	# someone else: not in the chat, and not at the file's address
	stranger = signed_in(other)
	stranger.goto(f"/huf/chat/{quote(agent)}/{conversation}")
	expect(stranger.get_by_text("This conversation belongs to someone else.")).to_be_visible()
	assert stranger.locator("img, audio").count() == 0
	for url in (image_url, audio_url):
		refused = stranger.request.get(url)
		assert refused.status == 403, (url, refused.status)
		assert png() not in refused.body()
	assert page.request.get(image_url).body() == png()  # while its owner reads it
