"""What the two SQLite backends share: the connection and the ``chunks`` table.

Python's own sqlite3 may be built without extension loading (Debian's is), which sqlite-vec
needs; then pysqlite3 (a current SQLite, bundled) is used instead. WAL lets searches read while
the indexing job writes."""

from __future__ import annotations

import os
import sqlite3

from huf.ai.engine.knowledge.types import Chunk

SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
	rowid INTEGER PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	input_id TEXT NOT NULL,
	position INTEGER NOT NULL,
	text TEXT NOT NULL,
	locator TEXT NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS chunks_input ON chunks (input_id, position);
CREATE INDEX IF NOT EXISTS chunks_position ON chunks (position, input_id);
"""
COLUMNS = "c.id, c.input_id, c.position, c.text, c.locator, c.title"


def _module():
	if hasattr(sqlite3.Connection, "enable_load_extension"):
		return sqlite3
	import pysqlite3.dbapi2

	return pysqlite3.dbapi2


def connect(path: str):
	os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
	conn = _module().connect(path, timeout=30, check_same_thread=False, isolation_level=None)
	conn.execute("PRAGMA journal_mode=WAL")
	conn.execute("PRAGMA synchronous=NORMAL")
	conn.execute("PRAGMA busy_timeout=30000")
	conn.execute("PRAGMA mmap_size=268435456")
	return conn


def to_chunk(row) -> Chunk:
	return Chunk(id=row[0], input_id=row[1], position=row[2], text=row[3], locator=row[4], title=row[5])


class SqliteStore:
	"""The chunks table and what needs nothing but it; subclasses add their search index."""

	def __init__(self, path: str):
		self.path = path
		self.conn = connect(path)
		self.conn.executescript(SCHEMA)

	def _insert(self, chunks: list[Chunk]) -> list[int]:
		"""Insert (replacing same ids) inside the caller's transaction; returns the new rowids."""
		marks = ",".join("?" * len(chunks))
		self._delete_where(f"id IN ({marks})", [c.id for c in chunks])
		rowids = []
		for c in chunks:
			cur = self.conn.execute(
				"INSERT INTO chunks (id, input_id, position, text, locator, title) VALUES (?, ?, ?, ?, ?, ?)",
				(c.id, c.input_id, c.position, c.text, c.locator, c.title),
			)
			rowids.append(cur.lastrowid)
		return rowids

	def _delete_where(self, where: str, params: list) -> int:
		return self.conn.execute(f"DELETE FROM chunks WHERE {where}", params).rowcount

	def delete_input(self, input_id: str) -> int:
		with self.conn:
			self.conn.execute("BEGIN IMMEDIATE")
			return self._delete_where("input_id = ?", [input_id])

	def head(self, limit: int) -> list[Chunk]:
		rows = self.conn.execute(f"SELECT {COLUMNS} FROM chunks c ORDER BY c.position, c.input_id LIMIT ?", (limit,))
		return [to_chunk(r) for r in rows]

	def count(self) -> int:
		return self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]

	def by_rowids(self, scored: list[tuple[int, float]]) -> list[tuple[Chunk, float]]:
		if not scored:
			return []
		marks = ",".join("?" * len(scored))
		rows = {
			r[0]: r[1:]
			for r in self.conn.execute(
				f"SELECT c.rowid, {COLUMNS} FROM chunks c WHERE c.rowid IN ({marks})", [s[0] for s in scored]
			)
		}
		return [(to_chunk(rows[rowid]), score) for rowid, score in scored if rowid in rows]

	def drop(self) -> None:
		self.close()
		for suffix in ("", "-wal", "-shm"):
			if os.path.exists(self.path + suffix):
				os.remove(self.path + suffix)

	def close(self) -> None:
		if self.conn is not None:
			self.conn.close()
			self.conn = None
