"""Keyword search: SQLite FTS5 ranked by BM25.

The FTS table indexes the ``chunks`` table as external content, kept in step by triggers, so the
text is stored once. Diacritics are folded ("café" finds "cafe")."""

from __future__ import annotations

from huf.ai.engine.knowledge.backends.base import Backend
from huf.ai.engine.knowledge.backends.sqlite import SqliteStore
from huf.ai.engine.knowledge.fts_query import all_of, any_of, common_limit, common_weight, plan, terms, words_of
from huf.ai.engine.knowledge.types import Chunk, Hit

RERANK = 20  # candidates found by the rare words, ranked again by all words

FTS_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
	text, title, content='chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
	INSERT INTO chunks_fts (rowid, text, title) VALUES (new.rowid, new.text, new.title);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
	INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.rowid, old.text, old.title);
END;
CREATE TRIGGER IF NOT EXISTS chunks_au AFTER UPDATE ON chunks BEGIN
	INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.rowid, old.text, old.title);
	INSERT INTO chunks_fts (rowid, text, title) VALUES (new.rowid, new.text, new.title);
END;
"""


class FtsBackend(SqliteStore, Backend):
	def __init__(self, path: str):
		super().__init__(path)
		self.conn.executescript(FTS_SCHEMA)

	def add(self, chunks: list[Chunk]) -> None:
		if not chunks:
			return
		with self.conn:
			self.conn.execute("BEGIN IMMEDIATE")
			self._insert(chunks)

	def search(self, query: str, k: int = 5) -> list[Hit]:
		words = terms(query)
		if not words:
			return []
		total = self.count()
		# In how many passages each word occurs, counted only up to where it stops being rare (an
		# exact count of a common word would read its whole posting list).
		enough = common_limit(total) + 1
		doc_freq = {
			w: self.conn.execute(
				"SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)", (f'"{w}"', enough)
			).fetchone()[0]
			for w in words
		}
		find, common, cap = plan(words, doc_freq, total)
		if not find:
			return []
		if cap:
			return self._by_word_count([w for w in words if doc_freq[w]], cap, k, common_weight(total))
		# bm25() is lower for better matches; the text column weighs more than the title.
		rows = self.conn.execute(
			"SELECT rowid, bm25(chunks_fts, 1.0, 0.5) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?",
			(find, max(k, RERANK) if common else k),
		).fetchall()
		hits = [Hit(chunk, -score) for chunk, score in self.by_rowids([(r[0], r[1]) for r in rows])]
		if common:
			weight = common_weight(total)
			hits = [Hit(h.chunk, h.score + weight * len(words_of(h.chunk.text).intersection(common))) for h in hits]
			hits.sort(key=lambda h: -h.score)
		return hits[:k]

	def _by_word_count(self, words: list[str], cap: int, k: int, weight: float) -> list[Hit]:
		"""Only common words: passages holding all of them (anywhere in the index) first; if there are
		fewer than ``k``, then the first ``cap`` passages holding any, ranked by how many of the words
		each holds (ties in document order). Not BM25: to weigh each word it reads the word's whole
		posting list first, and common words all weigh about the same anyway. Each word's list is
		read only up to the last candidate, so no more than about ``cap`` entries."""
		every = self.conn.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?", (all_of(words), k))
		counts = {rowid: len(words) for (rowid,) in every}
		if len(counts) < k:
			window = [
				r[0]
				for r in self.conn.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?", (any_of(words), cap))
			]
			found = dict.fromkeys((r for r in window if r not in counts), 0)
			for word in words if found else []:
				for (rowid,) in self.conn.execute(
					"SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid <= ?", (f'"{word}"', window[-1])
				):
					if rowid in found:
						found[rowid] += 1
			counts.update(found)
		best = sorted(counts, key=lambda r: (-counts[r], r))[:k]
		return [Hit(chunk, weight * held) for chunk, held in self.by_rowids([(r, counts[r]) for r in best])]
