"""Turn what a person or a model typed into a safe FTS5 query.

FTS5 reads its MATCH argument as a little language: quotes, ``NEAR``, ``AND``/``OR``/``NOT``,
``column:`` filters, ``^`` and ``*``. Text is never passed through as that language: it is cut
into words (letters and digits in any script), each word quoted as a plain term, and the terms
joined with OR so BM25 ranks passages by how many rare words they share with the question."""

from __future__ import annotations

import re

MAX_TERMS = 24
STOPWORDS = frozenset(
	"a an and are as at be by for from has have how i in is it its of on or that the this to was what when where which who why will with you your".split()
)


def terms(text: str) -> list[str]:
	words = [w.lower() for w in re.findall(r"\w+", text or "")]
	kept = [w for w in words if w not in STOPWORDS] or words
	return list(dict.fromkeys(kept))[:MAX_TERMS]


def sanitize(text: str) -> str:
	"""The FTS5 query for ``text``, or "" when it has no words to search for."""
	return " OR ".join(f'"{w}"' for w in terms(text))
