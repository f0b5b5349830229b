"""Keyword search: SQLite FTS5 ranked by BM25.

The FTS table indexes the ``chunks`` table as external content, kept in step by triggers, so the
text is stored once. Diacritics are folded ("café" finds "cafe")."""

from __future__ import annotations

from huf.ai.engine.knowledge.backends.base import Backend
from huf.ai.engine.knowledge.backends.sqlite import SqliteStore
from huf.ai.engine.knowledge.fts_query import sanitize
from huf.ai.engine.knowledge.types import Chunk, Hit

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
		match = sanitize(query)
		if not match:
			return []
		# bm25() is lower for better matches; the text column weighs more than the title.
		rows = self.conn.execute(
			"SELECT rowid, bm25(chunks_fts, 1.0, 0.5) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?",
			(match, k),
		).fetchall()
		return [Hit(chunk, -score) for chunk, score in self.by_rowids([(r[0], r[1]) for r in rows])]
