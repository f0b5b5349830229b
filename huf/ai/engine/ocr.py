"""Text out of a document or an image, by the best way the model's provider offers.

- PDFs on providers with a LiteLLM OCR endpoint (Mistral, Azure, Gemini, Vertex AI): ``ocr``
  (a Mistral chat model is swapped for Mistral's OCR model); when that call fails, the local
  reader takes over (``local_pdf``) and says why.
- Other PDFs: ``local_pdf`` (pypdf). Word, Excel, PowerPoint, HTML and text files: ``local``
  (the knowledge extractors; no model, no cost).
- Images: ``vision``, a vision model asked to transcribe the image.

No Frappe here: the caller (``huf/ai/tools/ocr.py``) passes the bytes and the model to use."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field, replace

from huf.ai.engine import llm
from huf.ai.engine.attachments import IMAGE_TYPES, extension, sha256
from huf.ai.engine.knowledge.extract import extract
from huf.ai.engine.knowledge.types import KnowledgeError
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm_errors import scrub
from huf.ai.engine.messages import image_part

OCR_PROVIDERS = {"mistral", "azure", "azure ai", "gemini", "google", "vertex ai", "vertex_ai"}
MISTRAL_OCR_MODEL = "mistral-ocr-latest"  # what a Mistral agent's chat model is swapped for when reading a PDF
VISION_PROMPT = (
	"Transcribe all the text in this image as Markdown, keeping headings, lists and tables. Write only what is in the image."
)


@dataclass
class Extraction:
	success: bool
	text: str = ""
	pages: list[dict] = field(default_factory=list)  # [{"page": 1, "text": ...}]
	strategy: str = "local"  # local | local_pdf | ocr | vision
	file_name: str = ""
	file_hash: str = ""
	model: str = ""
	error: str = ""
	note: str = ""

	def as_dict(self) -> dict:
		return {k: v for k, v in self.__dict__.items() if v or k in ("success", "text", "pages")}


def parse_pages(pages: str | list | None) -> list[int] | None:
	"""'0,1,2' -> [0, 1, 2] (0-based page numbers)."""
	if pages in (None, "", []):
		return None
	items = pages if isinstance(pages, list) else str(pages).split(",")
	try:
		numbers = sorted({int(str(p).strip()) for p in items if str(p).strip()})
	except ValueError:
		raise KnowledgeError(f"pages must be page numbers separated by commas, such as 0,1,2; got {pages!r}.") from None
	if any(n < 0 for n in numbers):
		raise KnowledgeError("Page numbers start at 0.")
	return numbers


def extract_document(
	file_name: str,
	data: bytes,
	*,
	pages: str | list | None = None,
	model: llm.ModelSpec | None = None,
	include_images: bool = False,
) -> Extraction:
	base = Extraction(success=False, file_name=file_name, file_hash=sha256(data))
	try:
		selected = parse_pages(pages)
		kind = extension(file_name)
		if kind in IMAGE_TYPES:
			return _vision(base, file_name, data, model)
		if kind == "pdf" and model and (model.provider or "").strip().lower() in OCR_PROVIDERS:
			try:
				return _ocr(base, data, selected, model, include_images)
			except Exception as error:  # noqa: BLE001 - any OCR failure: read the PDF locally instead
				reason = scrub(str(error), model.api_key)[:200]
				base.note = f"The OCR endpoint failed ({reason}); the text was read locally instead."
		return _local(base, file_name, data, selected)
	except KnowledgeError as error:
		base.error = str(error)
		return base


def _local(result: Extraction, file_name: str, data: bytes, pages: list[int] | None) -> Extraction:
	document = extract(file_name, data, pages=pages)
	result.pages = [{"page": _number(s.locator, i), "text": s.text} for i, s in enumerate(document.segments)]
	result.text = document.text
	result.strategy = "local_pdf" if document.kind == "pdf" else "local"
	result.success = True
	return result


def _number(locator: str, index: int) -> int:
	tail = locator.rsplit(" ", 1)[-1]
	return int(tail) if tail.isdigit() else index + 1


def _ocr(result: Extraction, data: bytes, pages: list[int] | None, model: llm.ModelSpec, include_images: bool) -> Extraction:
	litellm = load_litellm()
	if model.provider.strip().lower() == "mistral" and "ocr" not in model.model.lower():
		model = replace(model, model=MISTRAL_OCR_MODEL)  # a chat model cannot read documents
	name = llm.normalize_model_name(model.model, model.provider, model.api_base)
	document = {"type": "document_url", "document_url": "data:application/pdf;base64," + base64.b64encode(data).decode()}
	response = litellm.ocr(
		model=name,
		document=document,
		api_key=model.api_key,
		api_base=model.api_base,
		pages=pages,
		include_image_base64=include_images,
	)
	found = [
		{
			"page": (p.index if hasattr(p, "index") else p["index"]) + 1,
			"text": p.markdown if hasattr(p, "markdown") else p["markdown"],
		}
		for p in (response.pages if hasattr(response, "pages") else response["pages"])
	]
	result.pages, result.text = found, "\n\n".join(p["text"] for p in found)
	result.strategy, result.model, result.success = "ocr", name, True
	return result


def _vision(result: Extraction, file_name: str, data: bytes, model: llm.ModelSpec | None) -> Extraction:
	if model is None:
		raise KnowledgeError(
			f"{file_name} is an image; reading it needs a vision model. Pass model, or run this tool from an agent."
		)
	image = image_part(IMAGE_TYPES[extension(file_name)], base64.b64encode(data).decode())
	content = [{"type": "text", "text": VISION_PROMPT}, image]
	try:
		turn = llm.stream_turn(llm.LLMRequest(model=model, messages=[{"role": "user", "content": content}]))
	except llm.LLMError as error:
		raise KnowledgeError(f"The vision model could not read {file_name}: {error}") from None
	if not turn.content.strip():
		raise KnowledgeError(f"The vision model found no text in {file_name}.")
	result.text, result.pages = turn.content, [{"page": 1, "text": turn.content}]
	result.strategy, result.model, result.success = "vision", turn.model, True
	return result
