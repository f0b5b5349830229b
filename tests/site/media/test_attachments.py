"""Files attached to chat messages: read once, sent to the model beside the message and again with
the history, shown as names; someone else's file, an agent that takes none, or an unreadable kind
is refused before anything is written."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.agent.chat import get_agent_chat_messages, send_agent_chat_message
from huf.ai.media.attachments import read_attachments
from tests.engine.media.test_attachments import pdf
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text


def upload(user: str, file_name: str, content: bytes) -> str:
	with as_user(user):
		doc = frappe.get_doc({"doctype": "File", "file_name": file_name, "content": content, "is_private": 1}).insert()
	frappe.db.commit()
	return doc.name


def runs_of(agent: str) -> int:
	return frappe.db.count("Agent Run", {"agent": agent})


def test_an_attached_pdf_reaches_the_model_now_and_with_later_messages(site, llm):
	agent = fixtures.agent(llm, name="Files Agent", allow_chat=1, allow_file_attachments=1, context_strategy="FIFO")
	frappe.db.set_value("Agent", agent, "run_immediately", 1)
	user = make_user("files-owner@huf.test", ["Huf User"])
	invoice = upload(user, "invoice-42.pdf", pdf("Invoice 42", "Total due: 1,250.00 EUR"))
	llm.script(text("The total is 1,250.00 EUR."), text("It was invoice 42."))
	with as_user(user):
		first = send_agent_chat_message(agent, "What is the total?", new_conversation=1, attachments=f'["{invoice}"]')
		assert first["status"] == "Success"
		send_agent_chat_message(agent, "Which invoice was that?", conversation_id=first["conversation"])
		page = get_agent_chat_messages(first["conversation"])
	sent = llm.chat_requests[0]["body"]["messages"][-1]["content"]
	assert sent.startswith("What is the total?") and '<attached_file name="invoice-42.pdf">' in sent and "Total due: 1,250.00 EUR" in sent
	history = [m["content"] for m in llm.chat_requests[1]["body"]["messages"] if m["role"] == "user"]
	assert "Total due: 1,250.00 EUR" in history[0] and history[1] == "Which invoice was that?"
	asked = [m for m in page["messages"] if m["role"] == "user"]
	assert asked[0]["content"] == "What is the total?"  # the chat shows what the person wrote...
	assert [a["file_name"] for a in asked[0]["attachments"]] == ["invoice-42.pdf"]  # ...and the file's name
	assert "text" not in asked[0]["attachments"][0] and asked[1]["attachments"] == []


def test_refused_attachments_write_nothing(site, llm):
	agent = fixtures.agent(llm, name="Picky Files Agent", allow_chat=1, allow_file_attachments=1)
	closed = fixtures.agent(llm, name="No Files Agent", allow_chat=1)
	owner = make_user("files-a@huf.test", ["Huf User"])
	other = make_user("files-b@huf.test", ["Huf User"])
	mine = upload(owner, "notes.txt", b"private notes")
	theirs = upload(other, "secret.txt", b"not yours")
	image = upload(owner, "setup.exe", b"MZ\x90\x00....")
	before = runs_of(agent), runs_of(closed)
	with as_user(owner):
		with pytest.raises(frappe.PermissionError, match="not found among your uploads"):
			send_agent_chat_message(agent, "read this", new_conversation=1, attachments=[theirs])
		with pytest.raises(frappe.ValidationError, match="can't be attached: attach an image"):
			send_agent_chat_message(agent, "read this", new_conversation=1, attachments=[image])
		with pytest.raises(frappe.ValidationError, match="does not take files"):
			send_agent_chat_message(closed, "read this", new_conversation=1, attachments=[mine])
		with pytest.raises(frappe.ValidationError, match="at most 5 files"):
			send_agent_chat_message(agent, "read this", attachments=[mine, theirs, image, "a", "b", "c"])
	frappe.db.rollback()
	assert (runs_of(agent), runs_of(closed)) == before
	with pytest.raises(frappe.PermissionError, match="Sign in to attach files"):
		read_attachments(frappe.get_doc("Agent", agent), [mine], "Guest")
