"""Built-in tools whose work needs a site: they find the File, check the run's user may read it,
and hand the bytes to a Frappe-free engine."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.tools import ToolError


def handle_ocr_document(
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
	from huf.ai.ocr_engine import extract_document

	file = readable_file(file_id, file_url)
	spec = _model(model)
	content = file.get_content()
	data = content if isinstance(content, bytes) else content.encode()
	result = extract_document(file.file_name or file.name, data, pages=pages, model=spec, include_images=bool(include_images))
	return {**result.as_dict(), "file_id": file.name}


def readable_file(file_id: str | None, file_url: str | None):
	"""The File named ``file_id`` or at ``file_url`` (/files/... or /private/files/...), when the
	current user may read it. Several File records can share an address (one per document it is
	attached to): the newest one this user may read is used. ToolError otherwise."""
	if not file_id and not file_url:
		raise ToolError(_("Pass file_id (preferred) or file_url."))
	if file_id:
		names = [file_id] if frappe.db.exists("File", file_id) else []
	else:
		url = file_url.strip()
		url = (
			url[url.index("/private/files/") :]
			if "/private/files/" in url
			else (url[url.index("/files/") :] if "/files/" in url else url)
		)
		names = frappe.get_all("File", filters={"file_url": url}, pluck="name", order_by="creation desc")
	if not names:
		raise ToolError(_("There is no file {0} on this site.").format(file_id or file_url))
	for name in names:
		file = frappe.get_doc("File", name)
		if file.has_permission("read"):
			if file.is_folder:
				raise ToolError(_("{0} is a folder, not a file.").format(file.file_name))
			return file
	raise ToolError(_("You may not read the file {0}.").format(file.file_name or file_id or file_url))


def _model(model: str | None):
	"""The AI Model to read with: the one the model asked for, when it is enabled and the run's user
	may read it (Frappe's permission on AI Model), else the agent's own."""
	from huf.ai.agents import model_spec

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
