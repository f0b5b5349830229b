"""Turn what a person or a model typed into a safe FTS5 query.

FTS5 reads its MATCH argument as a little language: quotes, ``NEAR``, ``AND``/``OR``/``NOT``,
``column:`` filters, ``^`` and ``*``. Text is never passed through as that language: it is cut
into words (letters and digits in any script), each word quoted as a plain term, and the terms
joined with OR so BM25 ranks passages by how many rare words they share with the question.

``plan`` then leaves out of the search words found in more than COMMON_SHARE of the passages
while rarer ones remain: reading their long posting lists is what makes a search slow on a large
index, and BM25 gives them little weight. The passages the rare words find are ranked again with
the common words counted at their highest possible weight, so a passage with both still wins. A
question made only of such words gets the passages that contain all of them first, then the
first FALLBACK_CAP passages that contain any, ranked by how many of its words each contains."""

from __future__ import annotations

import math
import re
import unicodedata

MAX_TERMS = 24
COMMON_SHARE = 0.005
COMMON_FLOOR = 500  # a word in fewer passages than this is never "common"
FALLBACK_CAP = 1000
STOPWORDS = frozenset(
	"a an and are as at be by for from has have how i in is it its of on or that the this to was what when where which who why will with you your".split()
)


def fold(word: str) -> str:
	"""A word as the index's tokenizer (unicode61, remove_diacritics 2) stores it: lower case,
	without accents, full-width letters as ordinary ones."""
	decomposed = unicodedata.normalize("NFKD", word.lower())
	return "".join(c for c in decomposed if not unicodedata.combining(c))


def terms(text: str) -> list[str]:
	words = [fold(w) for w in re.findall(r"[^\W_]+", text or "")]
	kept = [w for w in words if w not in STOPWORDS] or words
	return list(dict.fromkeys(kept))[:MAX_TERMS]


def sanitize(text: str) -> str:
	"""The FTS5 query for ``text``, or "" when it has no words to search for."""
	return " OR ".join(f'"{w}"' for w in terms(text))


def common_limit(total: int) -> int:
	"""A word in more passages than this is common."""
	return max(int(total * COMMON_SHARE), COMMON_FLOOR)


def plan(words: list[str], doc_freq: dict[str, int], total: int) -> tuple[str, list[str], int | None]:
	"""For ``words`` (with in how many of ``total`` passages each occurs): the MATCH expression that
	finds and ranks candidates, the common words left out of it (the caller adds their weight to
	the candidates that contain them), and how many matches to rank at most (None: all)."""
	present = [w for w in words if doc_freq.get(w)]
	if not present:
		return "", [], None
	rare = [w for w in present if doc_freq[w] <= common_limit(total)]
	if not rare:
		return any_of(present), [], FALLBACK_CAP
	return any_of(rare), [w for w in present if w not in rare], None


def common_weight(total: int) -> float:
	"""The most BM25 gives one occurrence of a common word: its IDF at the commonness limit."""
	limit = common_limit(total)
	return math.log((total - limit + 0.5) / (limit + 0.5) + 1)


def words_of(text: str) -> set[str]:
	return {fold(w) for w in re.findall(r"[^\W_]+", text)}


def any_of(words: list[str]) -> str:
	return " OR ".join(f'"{w}"' for w in words)


def all_of(words: list[str]) -> str:
	return " AND ".join(f'"{w}"' for w in words)
