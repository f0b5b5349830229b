"""Search across Knowledge Sources, only those the caller may read, merged by rank."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.knowledge.fusion import rrf
from huf.ai.engine.knowledge.types import Hit, KnowledgeError
from huf.ai.knowledge import store

MAX_RESULTS = 20
_open: dict[tuple, object] = {}  # (site, source, generation, modified) -> an open backend, per process


def readable(sources: list[str], user: str | None = None) -> list[str]:
	"""The sources among ``sources`` that exist and ``user`` may read."""
	return [
		s
		for s in dict.fromkeys(sources)
		if frappe.db.exists("Knowledge Source", s) and frappe.has_permission("Knowledge Source", "read", doc=s, user=user)
	]


def search(sources: list[str], query: str, limit: int = 5) -> list[Hit]:
	"""The best ``limit`` passages for ``query`` across ``sources`` (already permission-checked).

	Each backend ranks with its own score (BM25, cosine); scores of different backends cannot be
	compared, so the lists are merged by reciprocal rank fusion. A source whose index fails is left
	out with a warning in the Error Log rather than failing the whole search."""
	limit = max(1, min(int(limit or 5), MAX_RESULTS))
	if not (query or "").strip():
		return []
	lists = []
	for name in sources:
		hits = search_one(name, query, limit)
		lists.append([Hit(h.chunk, h.score, name) for h in hits])
	return rrf(lists, limit=limit) if len(lists) > 1 else (lists[0] if lists else [])


def search_one(source_name: str, query: str, limit: int) -> list[Hit]:
	source = frappe.get_doc("Knowledge Source", source_name)
	try:
		return backend(source).search(query, k=limit)
	except KnowledgeError as error:
		frappe.throw(_("Searching {0} failed: {1}").format(frappe.bold(source_name), error))


def head(source_name: str, limit: int) -> list:
	"""The source's first passages in input order (what a Mandatory source gives when the prompt
	shares no words with it)."""
	return backend(frappe.get_doc("Knowledge Source", source_name)).head(limit)


def backend(source):
	key = (frappe.local.site, source.name, source.index_generation, str(source.modified))
	if key not in _open:
		for old in [k for k in _open if k[:2] == key[:2]]:
			_open.pop(old).close()
		_open[key] = store.open_index(source)
	return _open[key]


def as_result(hit: Hit) -> dict:
	"""One passage as the tools, the form's Test Search and the web app show it."""
	chunk = hit.chunk
	return {
		"source": hit.source,
		"input": chunk.input_id,
		"title": chunk.title,
		"where": chunk.locator,
		"text": chunk.text,
		"score": round(hit.score, 4),
	}
