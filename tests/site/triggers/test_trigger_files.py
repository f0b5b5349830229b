"""Files on a document reach the triggered agent: from an attach field and from a child table's
attach field, as text under each file's name and SHA-256."""

from __future__ import annotations

import base64
import hashlib

import frappe
import pytest

from tests.engine.media.test_attachments import pdf
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.triggers.test_triggers import trigger_runs, triggers  # noqa: F401 - shared fixture
from tests.support.scripted_llm import text

CLAIM, LINE = "Huf Test Claim", "Huf Test Claim Line"


@pytest.fixture(scope="module")
def claim_doctypes(site):
	"""A document with an Attach field and a table whose rows have one (custom DocTypes)."""
	if not frappe.db.exists("DocType", LINE):
		frappe.get_doc({"doctype": "DocType", "name": LINE, "module": "Custom", "custom": 1, "istable": 1, "fields": [{"fieldname": "receipt", "fieldtype": "Attach", "label": "Receipt"}]}).insert()
	if not frappe.db.exists("DocType", CLAIM):
		frappe.get_doc(
			{
				"doctype": "DocType", "name": CLAIM, "module": "Custom", "custom": 1, "autoname": "hash",
				"fields": [
					{"fieldname": "title", "fieldtype": "Data", "label": "Title"},
					{"fieldname": "invoice", "fieldtype": "Attach", "label": "Invoice"},
					{"fieldname": "lines", "fieldtype": "Table", "label": "Lines", "options": LINE},
				],
				"permissions": [{"role": "System Manager", "read": 1, "write": 1, "create": 1, "delete": 1}],
			}
		).insert()
	frappe.db.commit()


def upload(name: str, content: bytes) -> str:
	return frappe.get_doc({"doctype": "File", "file_name": name, "content": content, "is_private": 1}).insert().file_url


def test_files_in_attach_fields_reach_the_agent_with_their_hashes(site, llm, workers, triggers, claim_doctypes):  # noqa: F811
	agent = fixtures.agent(llm, name="Claims Agent")
	triggers(
		agent, trigger_type="Doc Event", reference_doctype=CLAIM, doc_event="after_insert",
		file_attachments=[{"source_type": "Field", "field_name": "invoice"}, {"source_type": "Child Table Field", "child_table": "lines", "field_name": "receipt"}],
	)
	invoice = pdf("Invoice 9", "Total 80.00 EUR")
	invoice_url = upload("invoice-9.pdf", invoice)
	receipt_url = upload("taxi.txt", b"Taxi to airport 35.00 EUR")
	llm.script(text("claim checked"))
	workers.start(1)
	frappe.get_doc({"doctype": CLAIM, "title": "Trip", "invoice": invoice_url, "lines": [{"receipt": receipt_url}]}).insert()
	frappe.db.commit()
	run = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the triggered run")[0]
	assert "Attached File Content:" in run.prompt
	assert f"### invoice-9.pdf (SHA-256 {hashlib.sha256(invoice).hexdigest()})" in run.prompt and "Total 80.00 EUR" in run.prompt
	assert "### taxi.txt (SHA-256 " in run.prompt and "Taxi to airport 35.00 EUR" in run.prompt


def test_attachment_rows_must_name_real_attach_fields(site, llm, triggers, claim_doctypes):  # noqa: F811
	agent = fixtures.agent(llm, name="Claims Rules Agent")
	for rows, says in (
		([{"source_type": "Field", "field_name": "title"}], "has no Attach field"),
		([{"source_type": "Child Table Field", "child_table": "nope", "field_name": "receipt"}], "has no table field"),
	):
		with pytest.raises(frappe.ValidationError, match=says):
			frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, "trigger_type": "Doc Event", "reference_doctype": CLAIM, "doc_event": "after_insert", "file_attachments": rows}).insert()


def test_an_image_on_the_document_is_sent_to_the_model_as_an_image(site, llm, workers, triggers, claim_doctypes):  # noqa: F811
	agent = fixtures.agent(llm, name="Receipt Vision Agent")
	triggers(agent, trigger_type="Doc Event", reference_doctype=CLAIM, doc_event="after_insert", file_attachments=[{"source_type": "Field", "field_name": "invoice"}])
	photo = b"\x89PNG\r\n\x1a\nfake-image-bytes"
	llm.script(text("a taxi receipt"))
	workers.start(1)
	frappe.get_doc({"doctype": CLAIM, "title": "Photo", "invoice": upload("receipt.png", photo)}).insert()
	frappe.db.commit()
	run = wait_for(lambda: [r for r in trigger_runs(agent) if r.status == "Success"], message="the triggered run")[0]
	assert "### receipt.png (SHA-256 " in run.prompt and "(an image, sent with this message)" in run.prompt
	content = llm.chat_requests[-1]["body"]["messages"][-1]["content"]
	assert content[0]["type"] == "text" and "Attached File Content:" in content[0]["text"]
	assert content[1] == {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(photo).decode()}}
