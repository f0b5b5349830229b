"""Files attached to a message, read as text for the model.

Documents become text the model reads beside the message: plain-text formats are decoded, PDFs go
through pypdf, Word, Excel and PowerPoint files (docx, xlsx, pptx) are read from their XML with the
standard library. Other kinds are refused with a message saying what can be attached. The knowledge
issue reuses ``extract_text``. Each file's text
is capped so one large file cannot crowd the conversation out of the model's context."""

from __future__ import annotations

import io
from dataclasses import dataclass

TEXT_EXTENSIONS = {"txt", "md", "markdown", "csv", "tsv", "json", "xml", "html", "htm", "log", "yaml", "yml"}
OFFICE_EXTENSIONS = {"docx", "xlsx", "pptx"}
IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
MAX_IMAGE_BYTES = 5 * 1024 * 1024
READABLE = sorted(TEXT_EXTENSIONS | OFFICE_EXTENSIONS | {"pdf"})
MAX_TEXT_CHARS = 50_000
MAX_FILES = 5
MAX_BYTES = 10 * 1024 * 1024


class AttachmentError(ValueError):
	"""A file that cannot be attached; the message says why and what to do."""


@dataclass(frozen=True)
class Attachment:
	file_name: str
	text: str


def extension(file_name: str) -> str:
	return file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""


def check_readable(file_name: str, size: int) -> None:
	if extension(file_name) not in set(READABLE):
		raise AttachmentError(f"{file_name} can't be read: attach a PDF, an Office file or a text file ({', '.join(READABLE)}).")
	if size > MAX_BYTES:
		raise AttachmentError(f"{file_name} is {size / 1024 / 1024:.1f} MB; attach files of up to {MAX_BYTES // 1024 // 1024} MB.")


def extract_text(file_name: str, data: bytes) -> str:
	"""The text of one file, at most MAX_TEXT_CHARS (with a note when cut)."""
	check_readable(file_name, len(data))
	kind = extension(file_name)
	if kind == "pdf":
		text = _pdf_text(file_name, data)
	elif kind in OFFICE_EXTENSIONS:
		text = _office_text(file_name, data, kind)
	else:
		text = data.decode("utf-8", errors="replace")
	text = text.strip()
	if not text:
		raise AttachmentError(f"{file_name} has no text to read (a scanned PDF, or an empty file).")
	if len(text) > MAX_TEXT_CHARS:
		text = text[:MAX_TEXT_CHARS] + f"\n[... cut: only the first {MAX_TEXT_CHARS:,} characters of {file_name} are included]"
	return text


def _pdf_text(file_name: str, data: bytes) -> str:
	from pypdf import PdfReader
	from pypdf.errors import PdfReadError

	try:
		reader = PdfReader(io.BytesIO(data))
		if reader.is_encrypted:
			raise AttachmentError(f"{file_name} is password-protected; attach a copy without a password.")
		return "\n\n".join(page.extract_text() or "" for page in reader.pages)
	except PdfReadError as error:
		raise AttachmentError(f"{file_name} is not a readable PDF ({error}).") from None


def _office_text(file_name: str, data: bytes, kind: str) -> str:
	"""Text of a docx (paragraphs), pptx (each slide's text) or xlsx (each sheet's rows, cells
	separated by tabs), read from the XML parts inside the zip."""
	import re
	import zipfile
	from xml.etree import ElementTree

	try:
		archive = zipfile.ZipFile(io.BytesIO(data))
	except zipfile.BadZipFile:
		raise AttachmentError(f"{file_name} is not a readable {kind} file (it is not the zip an Office file is).") from None

	def xml(name: str):
		return ElementTree.fromstring(archive.read(name))

	def texts(node, tag: str) -> str:
		return "".join(t.text or "" for t in node.iter() if t.tag.endswith("}" + tag))

	def numbered(prefix: str) -> list[str]:
		names = [n for n in archive.namelist() if re.fullmatch(prefix + r"(\d+)\.xml", n)]
		return sorted(names, key=lambda n: int(re.search(r"(\d+)\.xml$", n).group(1)))

	if kind == "docx":
		body = xml("word/document.xml")
		return "\n".join(texts(p, "t") for p in body.iter() if p.tag.endswith("}p"))
	if kind == "pptx":
		slides = numbered("ppt/slides/slide")
		return "\n\n".join(f"Slide {i}:\n" + "\n".join(texts(p, "t") for p in xml(name).iter() if p.tag.endswith("}p")) for i, name in enumerate(slides, 1))
	shared = [texts(item, "t") for item in xml("xl/sharedStrings.xml")] if "xl/sharedStrings.xml" in archive.namelist() else []
	sheets = []
	for i, name in enumerate(numbered("xl/worksheets/sheet"), 1):
		rows = []
		for row in (r for r in xml(name).iter() if r.tag.endswith("}row")):
			cells = []
			for cell in (c for c in row if c.tag.endswith("}c")):
				value = next((v.text or "" for v in cell if v.tag.endswith("}v")), "")
				if cell.get("t") == "s" and value.isdigit():
					value = shared[int(value)] if int(value) < len(shared) else ""
				elif cell.get("t") == "inlineStr":
					value = texts(cell, "t")
				cells.append(value)
			rows.append("\t".join(cells))
		sheets.append(f"Sheet {i}:\n" + "\n".join(rows))
	return "\n\n".join(sheets)


def sha256(data: bytes) -> str:
	import hashlib

	return hashlib.sha256(data).hexdigest()


def is_image(file_name: str) -> bool:
	return extension(file_name) in IMAGE_TYPES


def check_image(file_name: str, size: int) -> None:
	if size > MAX_IMAGE_BYTES:
		raise AttachmentError(f"{file_name} is {size / 1024 / 1024:.1f} MB; attach images of up to {MAX_IMAGE_BYTES // 1024 // 1024} MB.")


def user_content(text: str, images: list[tuple[str, bytes]]) -> str | list[dict]:
	"""The user message's content: the text alone, or the text and each image as a data URL part
	(for models that can see; LiteLLM passes the parts on in each provider's own form)."""
	if not images:
		return text
	import base64

	parts: list[dict] = [{"type": "text", "text": text}]
	for file_name, data in images:
		encoded = base64.b64encode(data).decode()
		parts.append({"type": "image_url", "image_url": {"url": f"data:{IMAGE_TYPES[extension(file_name)]};base64,{encoded}"}})
	return parts


def with_attachments(prompt: str, attachments: list[Attachment] | list[dict]) -> str:
	"""The message as the model reads it: what the person wrote, then each file's text, delimited.
	Images carry no text; they travel as parts of their own message (``user_content``)."""
	parts = [prompt]
	for item in attachments:
		if isinstance(item, dict) and item.get("image"):
			continue
		name, text = (item.file_name, item.text) if isinstance(item, Attachment) else (item["file_name"], item["text"])
		parts.append(f'<attached_file name="{name}">\n{text}\n</attached_file>')
	return "\n\n".join(parts)
