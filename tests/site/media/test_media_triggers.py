"""A voice note attached to a document reaches the triggered agent as a recording it can transcribe:
the agent transcribes it, answers, and speaks the answer into a private File of the conversation."""

from __future__ import annotations

import json
import re

import frappe

from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.triggers.test_trigger_files import CLAIM, claim_doctypes, upload  # noqa: F401 - shared fixture
from tests.site.triggers.test_triggers import trigger_runs, triggers  # noqa: F401 - shared fixture
from tests.support.scripted_llm import text, tool_calls
from tests.support.scripted_media import wav


def test_a_voice_note_on_a_document_is_transcribed_answered_and_spoken(site, llm, workers, triggers, claim_doctypes):  # noqa: F811
	agent = fixtures.agent(llm, name="Voice Claims Agent", tools=("transcribe_audio", "generate_audio"))
	triggers(agent, trigger_type="Doc Event", reference_doctype=CLAIM, doc_event="after_insert", file_attachments=[{"source_type": "Field", "field_name": "invoice"}])
	recording = wav(seconds=0.53)  # content of its own: Frappe gives a file with known content the earlier address
	llm.transcript = "The taxi cost 35 euros, please refund it."

	def transcribe_what_was_attached(body):
		prompt = body["messages"][-1]["content"]
		return tool_calls([("t1", "transcribe_audio", json.dumps({"file_id": re.search(r"File ID (\S+):", prompt).group(1)}))])

	llm.script(
		transcribe_what_was_attached,
		tool_calls([("s1", "generate_audio", json.dumps({"input": "Your 35 euro taxi refund is approved."}))]),
		text("Refund approved."),
	)
	workers.start(1)
	frappe.get_doc({"doctype": CLAIM, "title": "Voice claim", "invoice": upload("claim-note.wav", recording)}).insert()
	frappe.db.commit()
	run = wait_for(lambda: [r for r in trigger_runs(agent) if r.status in ("Success", "Failed")], message="the triggered run")[0]
	assert run.status == "Success", run.error_message
	assert re.search(r"### claim-note\S*\.wav \(SHA-256 \w+\)\n\(a recording, File ID \S+: transcribe it", run.prompt), run.prompt[-300:]

	(heard,) = [r for r in llm.requests if r["path"].endswith("/audio/transcriptions")]
	assert heard["file"]["data"] == recording
	assert json.loads(llm.chat_requests[1]["body"]["messages"][-1]["content"])["text"] == "The taxi cost 35 euros, please refund it."
	spoken = json.loads(llm.chat_requests[2]["body"]["messages"][-1]["content"])["files"][0]
	file = frappe.get_doc("File", {"file_url": spoken["file_url"]})
	conversation = frappe.db.get_value("Agent Run", run.name, "conversation")
	assert file.is_private and (file.attached_to_doctype, file.attached_to_name) == ("Agent Conversation", conversation)
