"""Text out of documents, locally: PDF (pypdf, page by page, with the values of filled form
fields), Word (python-docx), Excel (openpyxl, each sheet a table), PowerPoint (python-pptx, slide
by slide with notes, tables and charts: title, categories, series), HTML (the main text, without
scripts, styles or navigation) and plain-text formats.

Every refusal is an ``ExtractError`` naming the file and saying what to do; a document with no
text says what it holds instead (pictures, empty tables, pages without a text layer). Chat
attachments, trigger files, knowledge inputs and the ``ocr_document`` tool all read files here."""

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
		segments, found = _pdf(file_name, data, pages)
	elif kind in OFFICE_KINDS:
		segments, found = _office(file_name, data, kind)
	elif kind in HTML_KINDS:
		return extract_html(data, file_name)
	else:
		segments, found = [Segment(data.decode("utf-8", errors="replace").lstrip("\ufeff").strip())], "it holds only blank space"
	return _document(file_name, kind, segments, found)


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
	return _document(page_title or title, "html", [Segment(text)], "the page has no main text")


def _document(title: str, kind: str, segments: list[Segment], found: str) -> Document:
	"""``found``: what the document holds, said when none of it is text."""
	kept = [s for s in segments if s.text.strip()]
	if not kept:
		raise ExtractError(f"{title} has no text to read: {found}.")
	return Document(title=title, kind=kind, segments=kept)


def _plural(count: int, one: str, many: str) -> str:
	return f"{count} {one if count == 1 else many}"


def _found(counts: dict[str, int]) -> str:
	"""{"picture": 2, "empty table": 1} -> "2 pictures and 1 empty table" (kinds named in PLURALS)."""
	parts = [_plural(n, what, PLURALS[what]) for what, n in counts.items() if n]
	return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


PLURALS = {
	"picture": "pictures",
	"chart without text": "charts without text",
	"empty table": "empty tables",
	"video or sound": "videos or sounds",
}


def _pdf(file_name: str, data: bytes, pages: list[int] | None) -> tuple[list[Segment], str]:
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
		segments = [Segment(_pdf_page(reader.pages[i]), f"page {i + 1}") for i in wanted]
	except ExtractError:
		raise
	except (PdfReadError, ValueError, KeyError, TypeError, OSError) as error:
		raise ExtractError(f"{file_name} is not a readable PDF ({error}); it may be damaged. Export it again.") from None
	except Exception as error:
		if "crypt" in type(error).__name__.lower() or "AES" in str(error):
			raise ExtractError(f"{file_name} is password-protected; upload a copy without a password.") from None
		raise ExtractError(f"{file_name} is not a readable PDF ({type(error).__name__}); it may be damaged.") from None
	n = len(segments)
	where = (
		f"its {_plural(n, 'page has', 'pages have')}"
		if pages is None
		else f"the {_plural(n, 'page asked for has', 'pages asked for have')}"
	)
	return segments, f"{where} no text layer, as scanned pages have none (the ocr_document tool reads those)"


def _pdf_page(page) -> str:
	"""The page's text, then "Label: value" for each filled form field on it: a form's values live
	in its fields, not in the page's text. Anything odd in the form's part of the page (an
	annotation list that is no list, a broken field) costs only those values, never the text."""
	text = (page.extract_text() or "").strip()
	try:
		values = _form_values(page)
	except Exception:  # noqa: BLE001 - a page's form values are extra; its text is what must come through
		values = []
	return "\n".join(line for line in [text, *values] if line)


def _form_values(page) -> list[str]:
	from pypdf.errors import PdfReadError
	from pypdf.generic import ArrayObject

	annotations = page.get("/Annots")
	annotations = annotations.get_object() if annotations is not None else None  # often held as a reference
	if not isinstance(annotations, ArrayObject):
		return []
	lines, seen = [], set()
	for ref in annotations:
		try:
			widget = ref.get_object()
			if widget.get("/Subtype") != "/Widget":
				continue
			holder = _inherited(widget, "/V")  # a radio group's value sits on the field above its buttons
			value = _field_value(holder["/V"]) if holder is not None else ""
			where = getattr(holder, "indirect_reference", None)
			key = (where.idnum, where.generation) if where is not None else id(holder)
			if not value or key in seen:
				continue
			seen.add(key)
			label = _inherited(holder, "/TU") or _inherited(holder, "/T")
			name = str(label.get("/TU") or label.get("/T")).strip() if label is not None else ""
			lines.append(f"{name or 'Field'}: {value}")
		except (AttributeError, KeyError, TypeError, ValueError, PdfReadError):  # one odd annotation hides only itself
			continue
	return lines


def _inherited(field, key: str):
	"""The field, or the nearest parent field, that holds ``key`` (form values are inherited)."""
	for _ in range(16):  # parent chains are short; a loop in a broken file is not followed forever
		if field is None or key in field:
			return field
		parent = field.get("/Parent")
		field = parent.get_object() if parent is not None else None
	return None


def _field_value(value) -> str:
	"""A field's value as text: a string, a chosen option (a name; a box left unticked is "Off"),
	or several chosen options."""
	value = value.get_object()
	if isinstance(value, list):
		return ", ".join(v for v in (_field_value(item) for item in value) if v)
	text = str(value).strip()
	if text.startswith("/"):  # a name: the option a box or radio button is set to
		text = "" if text == "/Off" else text[1:]
	return text


def _human(pages: list[int] | None) -> str:
	return ", ".join(str(p + 1) for p in pages or [])


def _office(file_name: str, data: bytes, kind: str) -> tuple[list[Segment], str]:
	import zipfile

	if not zipfile.is_zipfile(io.BytesIO(data)):
		raise ExtractError(f"{file_name} is not a readable {OFFICE_KINDS[kind]} file; open it and save it again as .{kind}.")
	try:
		return {"docx": _docx, "xlsx": _xlsx, "pptx": _pptx}[kind](data)
	except (KeyError, ValueError, zipfile.BadZipFile) as error:
		raise ExtractError(f"{file_name} is not a readable {OFFICE_KINDS[kind]} file ({error}).") from None


def _docx(data: bytes) -> tuple[list[Segment], str]:
	from docx import Document as Word

	word = Word(io.BytesIO(data))
	parts = [p.text for p in word.paragraphs if p.text.strip()]
	parts += [_markdown([[cell.text for cell in row.cells] for row in table.rows]) for table in word.tables]
	held = {"empty table": len(word.tables), "picture": len(word.inline_shapes)}
	found = f"it holds only {_found(held)}" if any(held.values()) else "the document is empty"
	return [Segment("\n\n".join(p for p in parts if p))], found


def _xlsx(data: bytes) -> tuple[list[Segment], str]:
	from openpyxl import load_workbook

	book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
	try:
		segments = []
		for sheet in book.worksheets:
			rows = [["" if v is None else str(v) for v in row] for row in sheet.iter_rows(values_only=True)]
			segments.append(Segment(_markdown(rows), f"sheet {sheet.title}"))
		return segments, f"its {_plural(len(segments), 'sheet is', 'sheets are')} empty"
	finally:
		book.close()


def _pptx(data: bytes) -> tuple[list[Segment], str]:
	from pptx import Presentation

	deck = Presentation(io.BytesIO(data))
	segments, held = [], dict.fromkeys(PLURALS, 0)
	for number, slide in enumerate(deck.slides, 1):
		parts = []
		for shape in _shapes(slide.shapes):
			text = _shape_text(shape)
			if text:
				parts.append(text)
			elif kind := _shape_kind(shape):
				held[kind] += 1
		if slide.has_notes_slide and slide.notes_slide.notes_text_frame.text.strip():
			parts.append("Notes: " + slide.notes_slide.notes_text_frame.text.strip())
		segments.append(Segment("\n".join(parts), f"slide {number}"))
	if not segments:
		return segments, "it has no slides"
	if any(held.values()):
		return segments, f"its {_plural(len(segments), 'slide holds', 'slides hold')} only {_found(held)}"
	return segments, f"its {_plural(len(segments), 'slide is', 'slides are')} empty"


def _shapes(shapes):
	"""Every shape on a slide, those inside groups too."""
	for shape in shapes:
		if hasattr(shape, "shapes"):  # a group
			yield from _shapes(shape.shapes)
		else:
			yield shape


def _shape_text(shape) -> str:
	if shape.has_text_frame and shape.text_frame.text.strip():
		return shape.text_frame.text.strip()
	if getattr(shape, "has_table", False):
		return _markdown([[cell.text for cell in row.cells] for row in shape.table.rows])
	if getattr(shape, "has_chart", False):
		return _chart(shape.chart)
	return ""


def _shape_kind(shape) -> str | None:
	"""What a shape with no text is, for the message of a deck with nothing to read."""
	from pptx.enum.shapes import MSO_SHAPE_TYPE

	if getattr(shape, "has_chart", False):
		return "chart without text"
	if getattr(shape, "has_table", False):
		return "empty table"
	kind = getattr(shape, "shape_type", None)
	if kind == MSO_SHAPE_TYPE.PICTURE or (kind == MSO_SHAPE_TYPE.PLACEHOLDER and hasattr(shape, "image")):
		return "picture"
	if kind == MSO_SHAPE_TYPE.MEDIA:
		return "video or sound"
	return None


def _chart(chart) -> str:
	"""A chart as its title and a table: one row per category, one column per series."""
	try:
		title = chart.chart_title.text_frame.text.strip() if chart.has_title and chart.chart_title.has_text_frame else ""
		tables = []
		for plot in chart.plots:
			series = list(plot.series)
			categories = [c.label if hasattr(c, "label") else str(c) for c in plot.categories]
			length = max([len(categories), *(len(s.values) for s in series)])
			categories += [""] * (length - len(categories))
			rows = [[category, *(_number(s.values, i) for s in series)] for i, category in enumerate(categories)]
			tables.append(_markdown([["", *(s.name or "" for s in series)], *rows]))
	except (NotImplementedError, AttributeError, KeyError, ValueError, TypeError):  # a kind python-pptx cannot read
		return ""
	text = "\n".join(t for t in tables if t)
	return f"Chart: {title}\n{text}".strip() if title or text else ""


def _number(values, index: int) -> str:
	value = values[index] if index < len(values) else None
	if value is None:
		return ""
	return str(int(value)) if float(value).is_integer() else str(value)


def _markdown(rows: list[list[str]]) -> str:
	"""Rows as a Markdown table, the first row as its header; "" when every cell is blank."""
	rows = [r for r in rows if any(c.strip() for c in r)]
	if not rows:
		return ""
	width = max(len(r) for r in rows)

	def line(cells: list[str]) -> str:
		cells = [re.sub(r"\s+", " ", c).replace("|", "\\|").strip() for c in cells] + [""] * (width - len(cells))
		return "| " + " | ".join(cells) + " |"

	return "\n".join([line(rows[0]), "|" + " --- |" * width, *(line(r) for r in rows[1:])])
