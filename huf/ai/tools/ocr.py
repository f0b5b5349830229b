"""The built-in ``ocr_document`` tool: find the File, check the run's user may read it, pick the
model, and hand the bytes to the Frappe-free reader in ``huf/ai/engine/ocr.py``."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.models import model_spec
from huf.ai.engine.ocr import extract_document
from huf.ai.engine.tools import ToolError
from huf.ai.tools.files import readable_file


def ocr_document(
	file_id: str | None = None,
	file_url: str | None = None,
	pages: str | None = None,
	include_images: bool = False,
	model: str | None = None,
) -> dict:
	"""Extract the text of a document or an image the current user may read.

	Args:
		file_id: The File's ID (preferred: it names exactly one file).
		file_url: The file's address, /files/... or /private/files/...; the newest file with that address is used.
		pages: Comma-separated 0-based page numbers of a PDF, e.g. 0,1,2. Empty for all pages.
		include_images: Ask the OCR endpoint for embedded images too (PDFs on providers with one).
		model: An AI Model to use for OCR or vision instead of the agent's own.
	"""
	file = readable_file(file_id, file_url)
	spec = _model(model)
	content = file.get_content()
	data = content if isinstance(content, bytes) else content.encode()
	result = extract_document(file.file_name or file.name, data, pages=pages, model=spec, include_images=bool(include_images))
	return {**result.as_dict(), "file_id": file.name}


def _model(model: str | None):
	"""The AI Model to read with: the one the model asked for, when it is enabled and the run's user
	may read it (Frappe's permission on AI Model), else the agent's own."""
	if model:
		doc = frappe.db.exists("AI Model", model) and frappe.get_cached_doc("AI Model", model)
		if not doc or not doc.has_permission("read"):
			raise ToolError(_("There is no AI Model named {0} you may use. Leave model empty to use the agent's own.").format(model))
		if doc.disabled:
			raise ToolError(_("The AI Model {0} is disabled. Leave model empty to use the agent's own.").format(model))
		return model_spec(doc.name)
	context = frappe.flags.get("huf_tool_context")
	if context:
		return model_spec(frappe.get_cached_value("Agent", context.agent, "model"))
	return None
