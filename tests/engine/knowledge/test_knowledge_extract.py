"""Extraction of real documents: each built here with the library that writes that kind, plus the
small public files under tests/fixtures/knowledge, and every refusal with a reason."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from huf.ai.engine.knowledge.extract import READABLE, extract, extract_html
from huf.ai.engine.knowledge.types import ExtractError
from tests.engine.media.test_attachments import pdf

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "knowledge"


def pdf_pages(*pages: str, password: str | None = None) -> bytes:
	"""A PDF of one page per text, joined with pypdf."""
	from pypdf import PdfReader, PdfWriter

	writer = PdfWriter()
	for text in pages:
		writer.add_page(PdfReader(io.BytesIO(pdf(text))).pages[0])
	if password:
		writer.encrypt(password)
	out = io.BytesIO()
	writer.write(out)
	return out.getvalue()


def test_a_pdf_is_read_page_by_page_and_pages_can_be_chosen():
	data = pdf_pages("Chapter one: pumps", "Chapter two: valves", "Chapter three: seals")
	document = extract("manual.pdf", data)
	assert [(s.locator, s.text) for s in document.segments] == [
		("page 1", "Chapter one: pumps"),
		("page 2", "Chapter two: valves"),
		("page 3", "Chapter three: seals"),
	]
	assert [s.locator for s in extract("manual.pdf", data, pages=[2, 0, 9]).segments] == ["page 3", "page 1"]
	with pytest.raises(ExtractError, match=r"manual\.pdf has 3 pages; none of the pages asked for"):
		extract("manual.pdf", data, pages=[7])


def test_encrypted_and_corrupt_pdfs_are_refused_with_the_reason():
	with pytest.raises(ExtractError, match=r"secret\.pdf is password-protected; upload a copy without a password"):
		extract("secret.pdf", pdf_pages("classified", password="s3cret"))
	assert extract("open.pdf", pdf_pages("readable", password="")).text == "readable"  # an empty user password is no lock
	with pytest.raises(ExtractError, match=r"broken\.pdf is not a readable PDF"):
		extract("broken.pdf", pdf_pages("x")[:200])


def test_a_word_file_keeps_paragraphs_and_tables():
	from docx import Document as Word

	word = Word()
	word.add_paragraph("Price list 2026")
	table = word.add_table(rows=2, cols=2)
	for row, cells in zip(table.rows, [("Item", "Price"), ("Pump | large", "1,200 EUR")], strict=True):
		for cell, value in zip(row.cells, cells, strict=True):
			cell.text = value
	out = io.BytesIO()
	word.save(out)
	document = extract("prices.docx", out.getvalue())
	assert document.kind == "docx"
	assert document.text == "Price list 2026\n\n| Item | Price |\n| --- | --- |\n| Pump \\| large | 1,200 EUR |"


def test_a_workbook_is_read_sheet_by_sheet_as_tables():
	from openpyxl import Workbook

	book = Workbook()
	book.active.title = "Stock"
	book.active.append(["Item", "Qty"])
	book.active.append([None, None])
	book.active.append(["Bolts", 5])
	book.create_sheet("Prices").append(["Bolts", 0.25])
	out = io.BytesIO()
	book.save(out)
	segments = extract("stock.xlsx", out.getvalue()).segments
	assert [s.locator for s in segments] == ["sheet Stock", "sheet Prices"]
	assert segments[0].text == "| Item | Qty |\n| --- | --- |\n| Bolts | 5 |"
	assert segments[1].text == "| Bolts | 0.25 |\n| --- | --- |"


def test_a_deck_is_read_slide_by_slide_with_its_notes():
	from pptx import Presentation

	deck = Presentation()
	first = deck.slides.add_slide(deck.slide_layouts[1])
	first.shapes.title.text = "Quarterly results"
	first.placeholders[1].text = "Revenue up 12%"
	first.notes_slide.notes_text_frame.text = "Mention the new warehouse."
	deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Questions"
	out = io.BytesIO()
	deck.save(out)
	segments = extract("q3.pptx", out.getvalue()).segments
	assert [(s.locator, s.text) for s in segments] == [
		("slide 1", "Quarterly results\nRevenue up 12%\nNotes: Mention the new warehouse."),
		("slide 2", "Questions"),
	]


def filled_form() -> bytes:
	"""A one-page PDF form as a form filler leaves it: the page prints the labels, the values sit
	in the fields (a text field, ticked and unticked boxes, a radio group whose value is on the
	field above its two buttons, and a field left blank)."""
	from pypdf import PdfReader, PdfWriter
	from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

	writer = PdfWriter()
	page = writer.add_page(PdfReader(io.BytesIO(pdf("Membership application", "Applicant name:"))).pages[0])

	def obj(**entries) -> DictionaryObject:
		return DictionaryObject({NameObject(f"/{k}"): v for k, v in entries.items()})

	def widget(**entries):
		rect = ArrayObject([FloatObject(x) for x in (200, 700, 400, 720)])
		return writer._add_object(obj(Type=NameObject("/Annot"), Subtype=NameObject("/Widget"), Rect=rect, **entries))

	name = widget(
		FT=NameObject("/Tx"),
		T=TextStringObject("name"),
		TU=TextStringObject("Applicant name"),
		V=TextStringObject("Ada Lovelace"),
	)
	member = widget(FT=NameObject("/Btn"), T=TextStringObject("Member"), V=NameObject("/Yes"))
	newsletter = widget(FT=NameObject("/Btn"), T=TextStringObject("Newsletter"), V=NameObject("/Off"))
	blank = widget(FT=NameObject("/Tx"), T=TextStringObject("Notes"), V=TextStringObject(""))
	delivery = writer._add_object(obj(FT=NameObject("/Btn"), T=TextStringObject("Delivery"), V=NameObject("/Express")))
	buttons = [widget(Parent=delivery, AS=NameObject(state)) for state in ("/Express", "/Off")]
	delivery.get_object()[NameObject("/Kids")] = ArrayObject(buttons)
	page[NameObject("/Annots")] = ArrayObject([name, member, newsletter, blank, *buttons])
	writer._root_object[NameObject("/AcroForm")] = obj(Fields=ArrayObject([name, member, newsletter, blank, delivery]))
	out = io.BytesIO()
	writer.write(out)
	return out.getvalue()


def test_a_filled_pdf_form_is_read_with_its_values():
	document = extract("application.pdf", filled_form())
	assert [(s.locator, s.text) for s in document.segments] == [
		(
			"page 1",
			"Membership application\nApplicant name:\nApplicant name: Ada Lovelace\nMember: Yes\nDelivery: Express",
		)
	]


def annotations_held_indirectly(target: str) -> bytes:
	"""A page whose /Annots entry is a reference to another object, as many real PDFs write it:
	``list`` points to an array holding a filled text field; ``name`` to a name (not an array)."""
	from pypdf import PdfReader, PdfWriter
	from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

	writer = PdfWriter()
	page = writer.add_page(PdfReader(io.BytesIO(pdf("Order form", "Customer:"))).pages[0])
	field = writer._add_object(
		DictionaryObject(
			{
				NameObject("/Type"): NameObject("/Annot"),
				NameObject("/Subtype"): NameObject("/Widget"),
				NameObject("/Rect"): ArrayObject([FloatObject(x) for x in (200, 700, 400, 720)]),
				NameObject("/FT"): NameObject("/Tx"),
				NameObject("/T"): TextStringObject("Customer"),
				NameObject("/V"): TextStringObject("Grace Hopper"),
			}
		)
	)
	held = ArrayObject([field]) if target == "list" else NameObject("/NotAnArray")
	page[NameObject("/Annots")] = writer._add_object(held)
	if target == "list":
		writer._root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): ArrayObject([field])})
	out = io.BytesIO()
	writer.write(out)
	return out.getvalue()


@pytest.mark.parametrize(
	"target, text",
	[
		("list", "Order form\nCustomer:\nCustomer: Grace Hopper"),
		("name", "Order form\nCustomer:"),  # an annotation list that is no list loses no text
	],
)
def test_a_pages_annotation_list_held_as_a_reference_is_followed(target, text):
	from pypdf import PdfReader
	from pypdf.generic import IndirectObject

	data = annotations_held_indirectly(target)
	assert isinstance(PdfReader(io.BytesIO(data)).pages[0].get("/Annots"), IndirectObject)  # what the test is about
	document = extract("order.pdf", data)
	assert [(s.locator, s.text) for s in document.segments] == [("page 1", text)]


def deck_bytes(deck) -> bytes:
	out = io.BytesIO()
	deck.save(out)
	return out.getvalue()


def test_a_decks_charts_are_read_title_categories_and_series():
	from pptx import Presentation
	from pptx.chart.data import CategoryChartData
	from pptx.enum.chart import XL_CHART_TYPE
	from pptx.util import Inches

	deck = Presentation()
	data = CategoryChartData()
	data.categories = ["Q1", "Q2", "Q3"]
	data.add_series("Revenue", (10, 12.5, 15))
	data.add_series("Cost", (7, 8, None))
	slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank: the chart is all there is
	chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, 0, 0, Inches(6), Inches(4), data).chart
	chart.has_title = True
	chart.chart_title.text_frame.text = "Sales 2026"
	group = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_group_shape()
	group.shapes.add_textbox(0, 0, Inches(2), Inches(1)).text_frame.text = "Grouped caption"
	segments = extract("sales.pptx", deck_bytes(deck)).segments
	assert [(s.locator, s.text) for s in segments] == [
		(
			"slide 1",
			"Chart: Sales 2026\n|  | Revenue | Cost |\n| --- | --- | --- |\n| Q1 | 10 | 7 |\n| Q2 | 12.5 | 8 |\n| Q3 | 15 |  |",
		),
		("slide 2", "Grouped caption"),
	]


def test_a_deck_with_nothing_to_read_says_what_it_holds():
	from pptx import Presentation
	from pptx.chart.data import CategoryChartData
	from pptx.enum.chart import XL_CHART_TYPE
	from pptx.util import Inches

	deck = Presentation()
	first = deck.slides.add_slide(deck.slide_layouts[6])
	first.shapes.add_picture(io.BytesIO(png()), 0, 0)
	first.shapes.add_picture(io.BytesIO(png()), Inches(2), 0)
	data = CategoryChartData()
	data.categories = ["North", "South"]
	data.add_series("Share", (0.6, 0.4))
	second = deck.slides.add_slide(deck.slide_layouts[6])
	chart = second.shapes.add_chart(XL_CHART_TYPE.PIE, 0, 0, Inches(4), Inches(4), data).chart
	for series in chart._chartSpace.xpath(".//c:ser"):  # no title and no data cached in the deck: nothing to read
		series.getparent().remove(series)
	second.shapes.add_table(2, 2, 0, Inches(4), Inches(4), Inches(1))
	with pytest.raises(ExtractError) as refused:
		extract("figures.pptx", deck_bytes(deck))
	assert str(refused.value) == (
		"figures.pptx has no text to read: its 2 slides hold only 2 pictures, 1 chart without text and 1 empty table."
	)
	empty = Presentation()
	empty.slides.add_slide(empty.slide_layouts[6])
	with pytest.raises(ExtractError, match=r"^empty\.pptx has no text to read: its 1 slide is empty\.$"):
		extract("empty.pptx", deck_bytes(empty))


def png() -> bytes:
	from PIL import Image

	out = io.BytesIO()
	Image.new("RGB", (4, 4), "red").save(out, "PNG")
	return out.getvalue()


def test_a_word_file_of_only_empty_tables_has_no_text():
	from docx import Document as Word

	word = Word()
	word.add_table(rows=3, cols=2)
	word.add_paragraph("   ")
	word.add_table(rows=1, cols=4)
	out = io.BytesIO()
	word.save(out)
	with pytest.raises(ExtractError) as refused:
		extract("tables.docx", out.getvalue())
	assert str(refused.value) == "tables.docx has no text to read: it holds only 2 empty tables."
	out = io.BytesIO()
	Word().save(out)
	with pytest.raises(ExtractError, match=r"^blank\.docx has no text to read: the document is empty\.$"):
		extract("blank.docx", out.getvalue())


def test_a_scanned_pdf_is_told_apart_from_an_empty_file():
	from pypdf import PdfWriter

	writer = PdfWriter()
	writer.add_blank_page(200, 200)
	writer.add_blank_page(200, 200)
	out = io.BytesIO()
	writer.write(out)
	with pytest.raises(ExtractError, match=r"^scan\.pdf has no text to read: its 2 pages have no text layer, as scanned pages"):
		extract("scan.pdf", out.getvalue())
	with pytest.raises(ExtractError, match=r"^scan\.pdf has no text to read: the 1 page asked for has no text layer"):
		extract("scan.pdf", out.getvalue(), pages=[1])


def test_a_web_page_gives_its_main_text_without_scripts_styles_or_navigation():
	document = extract("handbook.html", (FIXTURES / "handbook.html").read_bytes())
	assert document.title == "Staff Handbook: Leave"
	assert "25 days of paid annual leave" in document.text and "carried over" in document.text
	for left_out in (
		"UA-SHOULD-NOT-BE-INDEXED",
		"font-family",
		"Menu item",
		"About us",
		"Cookie",
		"parental",
		"also not indexed",
	):
		assert left_out not in document.text
	assert extract_html("<p>No main here</p><script>x()</script>", "Fallback").text == "No main here"
	assert extract_html("<p>No main here</p>", "Fallback").title == "Fallback"


def test_text_kinds_are_decoded():
	assert "self-evident" in extract("declaration.md", (FIXTURES / "declaration.md").read_bytes()).text
	assert extract("elements.csv", (FIXTURES / "elements.csv").read_bytes()).text.splitlines()[3] == "3,Li,Lithium,6.94"
	assert extract("bom.txt", b"\xef\xbb\xbfhello \xff").text == "hello \ufffd"
	assert extract("data.json", b'{"a": 1}').kind == "json"


@pytest.mark.parametrize(
	("name", "data", "max_bytes", "says"),
	[
		("empty.pdf", b"", 1024, "empty.pdf is empty (0 bytes)"),
		("huge.pdf", b"x" * 3 * 1024 * 1024, 2 * 1024 * 1024, "huge.pdf is 3.0 MB; files of up to 2 MB can be read"),
		("tool.exe", b"MZ", 1024, "tool.exe is not a kind of file Huf can read. Readable kinds: csv, docx,"),
		("report.xlsx", b"not a zip", 1024, "report.xlsx is not a readable Excel file"),
		("blank.txt", b"  \n\t ", 1024, "blank.txt has no text to read: it holds only blank space."),
	],
)
def test_what_cannot_be_read_says_why(name, data, max_bytes, says):
	with pytest.raises(ExtractError, match=re.escape(says)):
		extract(name, data, max_bytes=max_bytes)


def test_readable_kinds_cover_the_documents_the_issue_names():
	assert {"pdf", "docx", "xlsx", "pptx", "html", "txt", "md", "csv", "json", "xml", "log"} <= set(READABLE)
