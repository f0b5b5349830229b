"""The built-in ocr_document tool: local extraction for documents, a vision model for images, the
run's user's file permissions, and the file's SHA-256."""

from __future__ import annotations

import base64
import hashlib
import json

import frappe
import pytest

from huf.ai.agent.chat import send_agent_chat_message
from huf.ai.engine.tools import ToolError
from huf.ai.tools import build_tool
from huf.ai.tools.context import RunContext
from huf.ai.tools.ocr import ocr_document
from tests.engine.media.test_attachments import pdf
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.site.knowledge.test_knowledge import docx
from tests.support.scripted_llm import text, tool_calls

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def upload(user: str, file_name: str, content: bytes) -> str:
	with as_user(user):
		doc = frappe.get_doc({"doctype": "File", "file_name": file_name, "content": content, "is_private": 1}).insert()
	frappe.db.commit()
	return doc.name


def two_page_pdf() -> bytes:
	from io import BytesIO

	from pypdf import PdfReader, PdfWriter

	writer = PdfWriter()
	for body in (pdf("Page one", "Alpha terms"), pdf("Page two", "Beta terms")):
		writer.add_page(PdfReader(BytesIO(body)).pages[0])
	out = BytesIO()
	writer.write(out)
	return out.getvalue()


def test_documents_are_read_locally_with_their_hash_and_pages(site):
	user = make_user("ocr-reader@huf.test", ["Huf User"])
	content = docx("Purchase order 77", "Deliver 40 chairs to Hall B.")
	word = upload(user, "po-77.docx", content)
	both = upload(user, "ocr-terms.pdf", two_page_pdf())
	with as_user(user):
		result = ocr_document(file_id=word)
		assert result["success"] and result["strategy"] == "local" and "Deliver 40 chairs" in result["text"]
		assert result["file_hash"] == hashlib.sha256(content).hexdigest() and result["file_id"] == word
		second = ocr_document(file_url=frappe.db.get_value("File", both, "file_url"), pages="1")
		assert second["strategy"] == "local_pdf" and "Beta terms" in second["text"] and "Alpha terms" not in second["text"]
		assert [p["page"] for p in second["pages"]] == [2]
		bad = ocr_document(file_id=both, pages="one")
		assert not bad["success"] and "page numbers" in bad["error"]


def test_someone_elses_private_file_is_refused(site):
	owner = make_user("ocr-owner@huf.test", ["Huf User"])
	other = make_user("ocr-other@huf.test", ["Huf User"])
	private = upload(owner, "ocr-salary.txt", b"secret numbers")
	with as_user(other), pytest.raises(ToolError, match="may not read"):
		ocr_document(file_id=private)
	with as_user(other), pytest.raises(ToolError, match="no file"):
		ocr_document(file_url="/private/files/nothing-here.pdf")


def test_an_agent_reads_an_image_through_its_vision_model(site, llm):
	user = make_user("ocr-agent@huf.test", ["Huf User"])
	agent = fixtures.agent(
		llm, name="OCR Agent", tools=("ocr_document",), allow_chat=1, run_immediately=1, agent_users=[{"user": user}]
	)
	receipt = upload(user, "ocr-receipt.png", PNG)
	llm.script(
		tool_calls([("o1", "ocr_document", json.dumps({"file_id": receipt}))]),
		text("TOTAL 18.40 EUR"),  # the vision model's transcription
		text("The receipt total is 18.40 EUR."),
	)
	with as_user(user):
		reply = send_agent_chat_message(agent, "What is the total on my receipt?", new_conversation=1)
	assert reply["status"] == "Success"
	vision = llm.chat_requests[1]["body"]["messages"][0]["content"]
	assert vision[1]["type"] == "image_url" and vision[1]["image_url"]["url"].startswith("data:image/png;base64,")
	result = json.loads(llm.chat_requests[2]["body"]["messages"][-1]["content"])
	assert result["strategy"] == "vision" and result["text"] == "TOTAL 18.40 EUR" and result["success"]
	assert result["file_hash"] == hashlib.sha256(PNG).hexdigest()


def test_the_model_argument_takes_only_enabled_models_the_user_may_use(site, llm):
	user = make_user("ocr-chooser@huf.test", ["Huf User"])
	outsider = make_user("ocr-outsider@huf.test", [])  # no Huf role: may not read AI Models
	fixtures.model(fixtures.provider(llm), name="scripted-model")
	fixtures.model("Scripted", name="ocr-retired-model", disabled=1)
	receipt = upload(user, "ocr-choice.png", PNG)
	mine = upload(outsider, "ocr-outsider.png", PNG)
	with as_user(user):
		with pytest.raises(ToolError, match="ocr-retired-model is disabled"):
			ocr_document(file_id=receipt, model="ocr-retired-model")
		with pytest.raises(ToolError, match="no AI Model named nope-model you may use"):
			ocr_document(file_id=receipt, model="nope-model")
	with as_user(outsider), pytest.raises(ToolError, match="no AI Model named scripted-model you may use"):
		ocr_document(file_id=mine, model="scripted-model")
	assert llm.chat_requests == []  # no model was called for any of them
	llm.script(text("TOTAL 3.00"))
	with as_user(user):
		assert ocr_document(file_id=receipt, model="scripted-model")["text"] == "TOTAL 3.00"


def test_a_tool_naming_the_old_ocr_path_still_reads_and_the_patch_moves_it(site, llm):
	"""``huf.ai.sdk_tools.handle_ocr_document`` (the reference's path) moved to ``huf.ai.tools.ocr``:
	a tool saved with the old path still works, and the patch rewrites stored tools to the new one."""
	from huf.patches import move_tool_function_paths

	old, new = "huf.ai.sdk_tools.handle_ocr_document", "huf.ai.tools.ocr.ocr_document"
	user = make_user("ocr-old-path@huf.test", ["Huf User"])
	word = upload(user, "ocr-old-path.docx", docx("Old path", "Still reads the file."))
	fixtures.tool("huf_t_old_ocr", "Custom Function", None, function_path=old)  # accepted at save
	frappe.db.set_value("Agent Tool Function", "ocr_document", "function_path", old)  # a site not migrated yet
	ctx = RunContext(run="t", conversation="t", agent=fixtures.agent(llm, name="OCR Old Path Agent"), user=user)
	with as_user(user):
		for name in ("huf_t_old_ocr", "ocr_document"):
			result = build_tool(frappe.get_doc("Agent Tool Function", name), ctx).handler({"file_id": word})
			assert result["success"] and "Still reads the file." in result["text"]
	move_tool_function_paths.execute()
	stored = frappe.get_all("Agent Tool Function", {"name": ("in", ["huf_t_old_ocr", "ocr_document"])}, pluck="function_path")
	assert stored == [new, new]
	assert not frappe.db.exists("Agent Tool Function", {"function_path": old})
