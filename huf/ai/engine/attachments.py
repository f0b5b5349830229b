"""Files attached to a message, read as text for the model.

Documents are read by the knowledge extractor (``huf.ai.engine.knowledge.extract``): PDFs, Word,
Excel and PowerPoint files, web pages and plain-text formats. Other kinds are refused with a
message saying what can be attached. Each file's text is capped so one large file cannot crowd
the conversation out of the model's context."""

from __future__ import annotations

from dataclasses import dataclass

from huf.ai.engine.knowledge.extract import READABLE, extension, extract, sha256
from huf.ai.engine.knowledge.types import ExtractError
from huf.ai.engine.messages import MAX_IMAGE_BYTES, image_part

IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
MAX_TEXT_CHARS = 50_000
MAX_FILES = 5
MAX_BYTES = 10 * 1024 * 1024
__all__ = ["READABLE", "extension", "sha256"]


class AttachmentError(ValueError):
	"""A file that cannot be attached; the message says why and what to do."""


@dataclass(frozen=True)
class Attachment:
	file_name: str
	text: str


def check_readable(file_name: str, size: int) -> None:
	if extension(file_name) not in READABLE:
		raise AttachmentError(f"{file_name} can't be read: attach a PDF, an Office file or a text file ({', '.join(READABLE)}).")
	if size > MAX_BYTES:
		raise AttachmentError(
			f"{file_name} is {size / 1024 / 1024:.1f} MB; attach files of up to {MAX_BYTES // 1024 // 1024} MB."
		)


def extract_text(file_name: str, data: bytes) -> str:
	"""The text of one file, at most MAX_TEXT_CHARS (with a note when cut)."""
	check_readable(file_name, len(data))
	if not data.strip():
		raise AttachmentError(f"{file_name} has no text to read (an empty file).")
	try:
		document = extract(file_name, data, max_bytes=MAX_BYTES)
		text = "\n\n".join(f"[{s.locator}]\n{s.text}" if s.locator else s.text for s in document.segments).strip()
	except ExtractError as error:
		raise AttachmentError(str(error)) from None
	if len(text) > MAX_TEXT_CHARS:
		text = text[:MAX_TEXT_CHARS] + f"\n[... cut: only the first {MAX_TEXT_CHARS:,} characters of {file_name} are included]"
	return text


def is_image(file_name: str) -> bool:
	return extension(file_name) in IMAGE_TYPES


def check_image(file_name: str, size: int) -> None:
	if size > MAX_IMAGE_BYTES:
		raise AttachmentError(
			f"{file_name} is {size / 1024 / 1024:.1f} MB; attach images of up to {MAX_IMAGE_BYTES // 1024 // 1024} MB."
		)


def user_content(text: str, images: list[tuple[str, bytes]]) -> str | list[dict]:
	"""The user message's content: the text alone, or the text and each image as a data URL part
	(for models that can see; LiteLLM passes the parts on in each provider's own form)."""
	if not images:
		return text
	import base64

	parts: list[dict] = [{"type": "text", "text": text}]
	for file_name, data in images:
		parts.append(image_part(IMAGE_TYPES[extension(file_name)], base64.b64encode(data).decode()))
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
