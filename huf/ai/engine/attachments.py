"""Files attached to a message, read as text for the model.

Documents become text the model reads beside the message: plain-text formats are decoded, PDFs go
through pypdf. Other kinds are refused with a message saying what can be attached. Each file's text
is capped so one large file cannot crowd the conversation out of the model's context."""

from __future__ import annotations

import io
from dataclasses import dataclass

TEXT_EXTENSIONS = {"txt", "md", "markdown", "csv", "tsv", "json", "xml", "html", "htm", "log", "yaml", "yml"}
READABLE = sorted(TEXT_EXTENSIONS | {"pdf"})
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
	if extension(file_name) not in TEXT_EXTENSIONS | {"pdf"}:
		raise AttachmentError(
			f"{file_name} can't be read: attach a PDF or a text file ({', '.join(READABLE)})."
		)
	if size > MAX_BYTES:
		raise AttachmentError(f"{file_name} is {size / 1024 / 1024:.1f} MB; attach files of up to {MAX_BYTES // 1024 // 1024} MB.")


def extract_text(file_name: str, data: bytes) -> str:
	"""The text of one file, at most MAX_TEXT_CHARS (with a note when cut)."""
	check_readable(file_name, len(data))
	if extension(file_name) == "pdf":
		text = _pdf_text(file_name, data)
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


def with_attachments(prompt: str, attachments: list[Attachment] | list[dict]) -> str:
	"""The message as the model reads it: what the person wrote, then each file's text, delimited."""
	parts = [prompt]
	for item in attachments:
		name, text = (item.file_name, item.text) if isinstance(item, Attachment) else (item["file_name"], item["text"])
		parts.append(f'<attached_file name="{name}">\n{text}\n</attached_file>')
	return "\n\n".join(parts)
