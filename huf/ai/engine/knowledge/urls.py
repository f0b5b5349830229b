"""A web address as a document: fetched through the SSRF-safe client (``engine/safe_http.py``), read by its content type."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from huf.ai.engine.knowledge.extract import READABLE, extension, extract, extract_html
from huf.ai.engine.knowledge.types import Document, ExtractError
from huf.ai.engine.safe_http import SafeHTTPError, request

KINDS_BY_TYPE = {
	"application/pdf": "pdf",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
	"application/json": "json",
	"application/xml": "xml",
	"text/xml": "xml",
	"text/csv": "csv",
	"text/markdown": "md",
}


def fetch_document(url: str, *, max_bytes: int, timeout: float, allow: frozenset[str] = frozenset()) -> tuple[Document, bytes]:
	"""The page or file at ``url`` and the bytes it was read from (to hash). ExtractError says why not."""
	try:
		response = request("GET", url, max_bytes=max_bytes, timeout=timeout, allow=allow)
	except SafeHTTPError as error:
		raise ExtractError(str(error)) from None
	if not 200 <= response.status < 300:
		raise ExtractError(f"{url} answered with HTTP {response.status}; check the address.")
	body, kind = response.body, response.content_type
	if not body:
		raise ExtractError(f"{url} answered with an empty page.")
	if kind in ("text/html", "application/xhtml+xml"):
		charset = response.headers.get("content-type", "").partition("charset=")[2].strip() or None
		return extract_html(body.decode(charset, errors="replace") if charset else body, url), body
	name = unquote(urlsplit(response.url).path.rsplit("/", 1)[-1]) or "page"
	by_type = KINDS_BY_TYPE.get(kind)
	if by_type or extension(name) in READABLE:
		file_name = name if extension(name) == by_type or not by_type else f"{name}.{by_type}"
		document = extract(file_name, body, max_bytes=max_bytes)
		return Document(url, document.kind, document.segments), body
	if kind.startswith("text/"):
		return Document(url, "txt", extract(f"{name}.txt", body, max_bytes=max_bytes).segments), body
	raise ExtractError(
		f"{url} is {kind or 'of an unknown type'}, which Huf cannot read; link to a web page, a PDF or an Office file."
	)
