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
	assert extract_text("notes.csv", "name,qty\nbolts,5\n".encode()) == "name,qty\nbolts,5"
	assert extract_text("odd.txt", b"caf\xe9 ok") == "caf\ufffd ok"  # bad bytes never stop the run
	long = extract_text("big.md", b"x" * (MAX_TEXT_CHARS + 10))
	assert long.startswith("x" * MAX_TEXT_CHARS) and "cut: only the first 50,000 characters of big.md" in long


@pytest.mark.parametrize(
	("name", "data", "says"),
	[
		("photo.png", b"\x89PNG....", "attach a PDF, an Office file or a text file"),
		("archive", b"PK..", "attach a PDF, an Office file or a text file"),
		("report.docx", b"not a zip", "not a readable docx file"),
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


def office(parts: dict[str, str]) -> bytes:
	"""An Office file: a zip of XML parts, as Word and PowerPoint write them (the parts read here)."""
	import io
	import zipfile

	buffer = io.BytesIO()
	with zipfile.ZipFile(buffer, "w") as archive:
		for name, xml in parts.items():
			archive.writestr(name, xml)
	return buffer.getvalue()


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'


def test_word_and_powerpoint_text_is_read_paragraph_by_paragraph():
	docx = office({"word/document.xml": f'<w:document {W}><w:body><w:p><w:r><w:t>Offer </w:t></w:r><w:r><w:t>42</w:t></w:r></w:p><w:p><w:r><w:t>Valid until June</w:t></w:r></w:p></w:body></w:document>'})
	assert extract_text("offer.docx", docx) == "Offer 42\nValid until June"
	slide = lambda text: f"<p:sld {A}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>{text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>"  # noqa: E731
	pptx = office({"ppt/slides/slide2.xml": slide("Numbers"), "ppt/slides/slide10.xml": slide("Thanks"), "ppt/slides/slide1.xml": slide("Plan")})
	assert extract_text("deck.pptx", pptx) == "Slide 1:\nPlan\n\nSlide 2:\nNumbers\n\nSlide 3:\nThanks"


def test_an_excel_workbook_written_by_openpyxl_is_read_sheet_by_sheet(tmp_path):
	from openpyxl import Workbook

	book = Workbook()
	book.active.append(["Item", "Qty"])
	book.active.append(["Bolts", 5])
	book.create_sheet("Notes").append(["checked by Ana"])
	path = tmp_path / "stock.xlsx"
	book.save(path)
	assert extract_text("stock.xlsx", path.read_bytes()) == "Sheet 1:\nItem\tQty\nBolts\t5\n\nSheet 2:\nchecked by Ana"


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
