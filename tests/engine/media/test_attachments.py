"""Attached files read as text: plain text, real PDFs (through pypdf), refusals with a way out."""

from __future__ import annotations

import pytest

from huf.ai.engine.attachments import MAX_TEXT_CHARS, Attachment, AttachmentError, extract_text, with_attachments


def pdf(*lines: str) -> bytes:
	"""A minimal one-page PDF with ``lines`` of Helvetica text, with a correct cross-reference table."""
	text = " ".join(f"({line}) Tj T*" for line in lines)
	stream = f"BT /F1 12 Tf 14 TL 72 720 Td {text} ET".encode()
	objects = [
		b"<< /Type /Catalog /Pages 2 0 R >>",
		b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
		b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	]
	out = bytearray(b"%PDF-1.4\n")
	offsets = []
	for number, body in enumerate(objects, 1):
		offsets.append(len(out))
		out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
	xref = len(out)
	out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
	out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
	out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
	return bytes(out)


def test_a_pdfs_text_is_read_page_by_page():
	text = extract_text("Invoice-42.PDF", pdf("Invoice 42", "Total due: 1,250.00 EUR"))
	assert "Invoice 42" in text and "Total due: 1,250.00 EUR" in text


def test_text_files_are_decoded_and_long_ones_cut_with_a_note():
	assert extract_text("notes.csv", b"name,qty\nbolts,5\n") == "name,qty\nbolts,5"
	assert extract_text("odd.txt", b"caf\xe9 ok") == "caf\ufffd ok"  # bad bytes never stop the run
	long = extract_text("big.md", b"x" * (MAX_TEXT_CHARS + 10))
	assert long.startswith("x" * MAX_TEXT_CHARS) and "cut: only the first 50,000 characters of big.md" in long


@pytest.mark.parametrize(
	("name", "data", "says"),
	[
		("photo.png", b"\x89PNG....", "attach a PDF, an Office file or a text file"),
		("archive", b"PK..", "attach a PDF, an Office file or a text file"),
		("report.docx", b"not a zip", "not a readable Word file"),
		("broken.pdf", b"%PDF-1.4 not really", "not a readable PDF"),
		("empty.txt", b"  \n ", "has no text to read"),
	],
)
def test_what_cannot_be_read_is_refused_with_what_to_do(name, data, says):
	with pytest.raises(AttachmentError, match=says):
		extract_text(name, data)


def test_the_model_reads_the_message_then_each_file_delimited():
	message = with_attachments("Summarise these", [Attachment("a.txt", "alpha"), {"file_name": "b.pdf", "text": "beta"}])
	assert message == 'Summarise these\n\n<attached_file name="a.txt">\nalpha\n</attached_file>\n\n<attached_file name="b.pdf">\nbeta\n</attached_file>'
	assert with_attachments("just text", []) == "just text"


def test_word_and_powerpoint_files_are_read_with_each_slide_labelled():
	import io

	from docx import Document
	from pptx import Presentation
	from pptx.util import Inches

	word = Document()
	word.add_paragraph("Offer 42")
	word.add_paragraph("Valid until June")
	out = io.BytesIO()
	word.save(out)
	assert extract_text("offer.docx", out.getvalue()) == "Offer 42\n\nValid until June"
	deck = Presentation()
	for title in ("Plan", "Numbers"):
		deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = title
	deck.slides[1].shapes.add_textbox(Inches(1), Inches(2), Inches(4), Inches(1)).text_frame.text = "Up 12%"
	out = io.BytesIO()
	deck.save(out)
	assert extract_text("deck.pptx", out.getvalue()) == "[slide 1]\nPlan\n\n[slide 2]\nNumbers\nUp 12%"


def test_an_excel_workbook_written_by_openpyxl_is_read_sheet_by_sheet(tmp_path):
	from openpyxl import Workbook

	book = Workbook()
	book.active.append(["Item", "Qty"])
	book.active.append(["Bolts", 5])
	book.create_sheet("Notes").append(["checked by Ana"])
	path = tmp_path / "stock.xlsx"
	book.save(path)
	assert extract_text("stock.xlsx", path.read_bytes()) == (
		"[sheet Sheet]\n| Item | Qty |\n| --- | --- |\n| Bolts | 5 |\n\n[sheet Notes]\n| checked by Ana |\n| --- |"
	)


def test_images_go_to_the_model_as_parts_of_their_own_message():
	from huf.ai.engine.attachments import MAX_IMAGE_BYTES, check_image, is_image, user_content

	assert user_content("just words", []) == "just words"
	content = user_content("What is on this receipt?", [("receipt.PNG", b"\x89PNG-bytes")])
	assert content[0] == {"type": "text", "text": "What is on this receipt?"}
	assert content[1] == {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORy1ieXRlcw=="}}
	assert is_image("a.jpeg") and not is_image("a.pdf")
	with pytest.raises(AttachmentError, match="attach images of up to 5 MB"):
		check_image("huge.png", MAX_IMAGE_BYTES + 1)
	assert with_attachments("see image", [{"file": "F1", "file_name": "x.png", "file_url": "/x.png", "image": True}]) == "see image"
