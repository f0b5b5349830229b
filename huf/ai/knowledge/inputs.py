"""An input's content as an engine Document, with the hash of what was read."""

from __future__ import annotations

import hashlib
import os

import frappe
from frappe import _

from huf.ai.engine.knowledge.extract import check, extract
from huf.ai.engine.knowledge.types import Document, ExtractError, Segment
from huf.ai.engine.knowledge.urls import fetch_document
from huf.ai.outbound import allowed_hosts

MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_URL_BYTES = 20 * 1024 * 1024
URL_TIMEOUT = 20.0


def read(row) -> tuple[Document, str]:
	"""``row`` has input_type, title and file/text/url. Raises ExtractError with a readable reason."""
	if row.input_type == "Text":
		return Document(row.title, "txt", [Segment(row.text)]), hashlib.sha256(row.text.encode()).hexdigest()
	if row.input_type == "URL":
		return _url(row)
	return _file(row)


def _file(row) -> tuple[Document, str]:
	file = _file_doc(row.file)
	path = file.get_full_path()
	name = file.file_name or os.path.basename(path)
	if not os.path.exists(path):
		raise ExtractError(_("{0} is missing from the site's files; upload it again.").format(name))
	check(name, os.path.getsize(path), MAX_FILE_BYTES)  # kind and size before reading a byte
	with open(path, "rb") as handle:
		data = handle.read()
	document = extract(name, data, max_bytes=MAX_FILE_BYTES)
	return Document(row.title or document.title, document.kind, document.segments), hashlib.sha256(data).hexdigest()


def _file_doc(file_url: str):
	"""The File behind an Attach value; the newest when several records share the address."""
	name = frappe.db.get_value("File", {"file_url": file_url}, "name", order_by="creation desc")
	if not name:
		raise ExtractError(_("{0} is not a file on this site; attach it again.").format(file_url))
	return frappe.get_doc("File", name)


def _url(row) -> tuple[Document, str]:
	document, body = fetch_document(row.url, max_bytes=MAX_URL_BYTES, timeout=URL_TIMEOUT, allow=allowed_hosts())
	title = row.title if row.title and row.title != row.url else document.title
	return Document(title or row.url, document.kind, document.segments), hashlib.sha256(body).hexdigest()

