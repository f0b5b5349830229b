"""Text out of documents, locally: PDF (pypdf, page by page), Word (python-docx), Excel
(openpyxl, each sheet a table), PowerPoint (python-pptx, slide by slide with notes), HTML (the
main text, without scripts, styles or navigation) and plain-text formats.

Every refusal is an ``ExtractError`` naming the file and saying what to do. Chat attachments,
trigger files, knowledge inputs and the ``ocr_document`` tool all read files here."""

from __future__ import annotations

import hashlib
import io
import re

from huf.ai.engine.knowledge.types import Document, ExtractError, Segment

TEXT_KINDS = {"txt", "md", "markdown", "csv", "tsv", "json", "xml", "log", "yaml", "yml"}
HTML_KINDS = {"html", "htm"}
OFFICE_KINDS = {"docx": "Word", "xlsx": "Excel", "pptx": "PowerPoint"}
READABLE = sorted(TEXT_KINDS | HTML_KINDS | set(OFFICE_KINDS) | {"pdf"})
MAX_BYTES = 100 * 1024 * 1024
DROPPED_HTML = ["script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form", "svg", "iframe"]


def extension(file_name: str) -> str:
	return file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""


def sha256(data: bytes) -> str:
	return hashlib.sha256(data).hexdigest()


def check(file_name: str, size: int, max_bytes: int = MAX_BYTES) -> str:
	"""The kind ``file_name`` is read as, or why it cannot be read."""
	kind = extension(file_name)
	if kind not in READABLE:
		raise ExtractError(f"{file_name} is not a kind of file Huf can read. Readable kinds: {', '.join(READABLE)}.")
	if size == 0:
		raise ExtractError(f"{file_name} is empty (0 bytes); upload the file again.")
	if size > max_bytes:
		raise ExtractError(
			f"{file_name} is {size / 1024 / 1024:.1f} MB; files of up to {max_bytes / 1024 / 1024:.0f} MB can be read. "
			"Split it into smaller files."
		)
	return kind


def extract(file_name: str, data: bytes, *, pages: list[int] | None = None, max_bytes: int = MAX_BYTES) -> Document:
	"""The document's text in segments that remember where they came from. ``pages`` (0-based)
	selects PDF pages."""
	kind = check(file_name, len(data), max_bytes)
	if kind == "pdf":
		segments = _pdf(file_name, data, pages)
	elif kind in OFFICE_KINDS:
		segments = _office(file_name, data, kind)
	elif kind in HTML_KINDS:
		return extract_html(data, file_name)
	else:
		segments = [Segment(data.decode("utf-8", errors="replace").lstrip("\ufeff").strip())]
	return _document(file_name, kind, segments)


def extract_html(html: str | bytes, title: str) -> Document:
	"""The readable text of a web page: <main> or <article> when there is one, else the body,
	without scripts, styles, navigation, headers, footers, sidebars or forms."""
	from bs4 import BeautifulSoup

	soup = BeautifulSoup(html, "lxml")
	page_title = soup.title.get_text(" ", strip=True) if soup.title else ""
	for tag in soup(DROPPED_HTML):
		tag.decompose()
	root = soup.find("main") or soup.find("article") or soup.body or soup
	lines = (line.strip() for line in root.get_text("\n").splitlines())
	text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
	return _document(page_title or title, "html", [Segment(text)])


def _document(title: str, kind: str, segments: list[Segment]) -> Document:
	kept = [s for s in segments if s.text.strip()]
	if not kept:
		raise ExtractError(
			f"{title} has no text to read (an empty document, or scanned pages: the ocr_document tool reads those)."
		)
	return Document(title=title, kind=kind, segments=kept)


def _pdf(file_name: str, data: bytes, pages: list[int] | None) -> list[Segment]:
	from pypdf import PdfReader
	from pypdf.errors import PdfReadError

	try:
		reader = PdfReader(io.BytesIO(data))
		if reader.is_encrypted and not reader.decrypt(""):
			raise ExtractError(f"{file_name} is password-protected; upload a copy without a password.")
		count = len(reader.pages)
		wanted = range(count) if pages is None else [p for p in dict.fromkeys(pages) if 0 <= p < count]
		if not wanted:
			raise ExtractError(f"{file_name} has {count} pages; none of the pages asked for ({_human(pages)}) is among them.")
		return [Segment((reader.pages[i].extract_text() or "").strip(), f"page {i + 1}") for i in wanted]
	except ExtractError:
		raise
	except (PdfReadError, ValueError, KeyError, TypeError, OSError) as error:
		raise ExtractError(f"{file_name} is not a readable PDF ({error}); it may be damaged. Export it again.") from None
	except Exception as error:
		if "crypt" in type(error).__name__.lower() or "AES" in str(error):
			raise ExtractError(f"{file_name} is password-protected; upload a copy without a password.") from None
		raise ExtractError(f"{file_name} is not a readable PDF ({type(error).__name__}); it may be damaged.") from None


def _human(pages: list[int] | None) -> str:
	return ", ".join(str(p + 1) for p in pages or [])


def _office(file_name: str, data: bytes, kind: str) -> list[Segment]:
	import zipfile

	if not zipfile.is_zipfile(io.BytesIO(data)):
		raise ExtractError(f"{file_name} is not a readable {OFFICE_KINDS[kind]} file; open it and save it again as .{kind}.")
	try:
		return {"docx": _docx, "xlsx": _xlsx, "pptx": _pptx}[kind](data)
	except (KeyError, ValueError, zipfile.BadZipFile) as error:
		raise ExtractError(f"{file_name} is not a readable {OFFICE_KINDS[kind]} file ({error}).") from None


def _docx(data: bytes) -> list[Segment]:
	from docx import Document as Word

	word = Word(io.BytesIO(data))
	parts = [p.text for p in word.paragraphs if p.text.strip()]
	for table in word.tables:
		parts.append(_markdown([[cell.text for cell in row.cells] for row in table.rows]))
	return [Segment("\n\n".join(parts))]


def _xlsx(data: bytes) -> list[Segment]:
	from openpyxl import load_workbook

	book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
	try:
		segments = []
		for sheet in book.worksheets:
			rows = [["" if v is None else str(v) for v in row] for row in sheet.iter_rows(values_only=True)]
			rows = [r for r in rows if any(c.strip() for c in r)]
			segments.append(Segment(_markdown(rows), f"sheet {sheet.title}"))
		return segments
	finally:
		book.close()


def _pptx(data: bytes) -> list[Segment]:
	from pptx import Presentation

	deck = Presentation(io.BytesIO(data))
	segments = []
	for number, slide in enumerate(deck.slides, 1):
		parts = []
		for shape in slide.shapes:
			if shape.has_text_frame and shape.text_frame.text.strip():
				parts.append(shape.text_frame.text.strip())
			if getattr(shape, "has_table", False) and shape.has_table:
				parts.append(_markdown([[cell.text for cell in row.cells] for row in shape.table.rows]))
		if slide.has_notes_slide and slide.notes_slide.notes_text_frame.text.strip():
			parts.append("Notes: " + slide.notes_slide.notes_text_frame.text.strip())
		segments.append(Segment("\n".join(parts), f"slide {number}"))
	return segments


def _markdown(rows: list[list[str]]) -> str:
	"""Rows as a Markdown table, the first row as its header."""
	if not rows:
		return ""
	width = max(len(r) for r in rows)

	def line(cells: list[str]) -> str:
		cells = [re.sub(r"\s+", " ", c).replace("|", "\\|").strip() for c in cells] + [""] * (width - len(cells))
		return "| " + " | ".join(cells) + " |"

	return "\n".join([line(rows[0]), "|" + " --- |" * width, *(line(r) for r in rows[1:])])
