"""ocr_document's strategies below Frappe: LiteLLM's OCR endpoint spoken to over HTTP (the scripted
server answers Mistral's OCR API), its fallback to the local reader, and local reading elsewhere."""

from __future__ import annotations

import base64

from huf.ai.engine.llm import ModelSpec
from huf.ai.engine.ocr import extract_document
from tests.engine.knowledge.test_knowledge_extract import pdf_pages

PDF = pdf_pages("Invoice 1001", "Total 250 EUR", "Thank you")


def mistral(llm) -> ModelSpec:
	return ModelSpec(model="mistral-ocr-latest", provider="Mistral", api_key="sk-ocr-secret", api_base=llm.base_url)


def test_a_pdf_goes_to_the_providers_ocr_endpoint_with_the_chosen_pages(llm):
	llm.ocr_pages = ["# Invoice 1001", "| Total | 250 EUR |", "Thank you"]
	result = extract_document("invoice.pdf", PDF, pages="1,2", model=mistral(llm))

	assert result.success and result.strategy == "ocr" and result.model == "mistral/mistral-ocr-latest"
	assert result.pages == [{"page": 2, "text": "| Total | 250 EUR |"}, {"page": 3, "text": "Thank you"}]
	assert result.text == "| Total | 250 EUR |\n\nThank you"
	(request,) = llm.requests
	assert request["path"] == "/v1/ocr" and request["headers"]["authorization"] == "Bearer sk-ocr-secret"
	assert request["body"]["pages"] == [1, 2] and request["body"]["model"] == "mistral-ocr-latest"
	sent = request["body"]["document"]["document_url"]
	assert base64.b64decode(sent.removeprefix("data:application/pdf;base64,")) == PDF
	assert "sk-ocr-secret" not in str(result.as_dict())


def test_when_the_ocr_endpoint_fails_the_pdf_is_read_locally_and_says_why(llm):
	llm.ocr_failure = (503, {"error": {"message": "OCR is overloaded", "type": "server_error"}})
	result = extract_document("invoice.pdf", PDF, pages=[0], model=mistral(llm))

	assert result.success and result.strategy == "local_pdf"
	assert result.pages == [{"page": 1, "text": "Invoice 1001"}]
	assert result.note.startswith("The OCR endpoint failed (") and "read locally instead" in result.note
	assert "sk-ocr-secret" not in result.note
	assert [r["path"] for r in llm.requests] == ["/v1/ocr"]


def test_providers_without_an_ocr_endpoint_read_pdfs_locally_without_a_call(llm):
	model = ModelSpec(model="scripted-model", provider="Local", api_key="k", api_base=llm.base_url)
	result = extract_document("invoice.pdf", PDF, model=model)

	assert result.success and result.strategy == "local_pdf" and result.file_hash
	assert [p["page"] for p in result.pages] == [1, 2, 3] and llm.requests == []


def test_bad_page_numbers_are_explained_before_any_call(llm):
	result = extract_document("invoice.pdf", PDF, pages="two", model=mistral(llm))
	assert not result.success and "page numbers separated by commas" in result.error
	assert llm.requests == []


def test_a_mistral_agents_chat_model_is_swapped_for_mistrals_ocr_model(llm):
	llm.ocr_pages = ["Invoice 1001"]
	chat_model = ModelSpec(model="mistral-large-latest", provider="Mistral", api_key="sk-ocr-secret", api_base=llm.base_url)
	result = extract_document("invoice.pdf", PDF, pages="0", model=chat_model)
	assert result.strategy == "ocr" and result.model == "mistral/mistral-ocr-latest"
	assert llm.requests[0]["body"]["model"] == "mistral-ocr-latest"
