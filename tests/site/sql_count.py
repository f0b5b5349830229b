"""Counting the SQL statements of a run: Huf's own apart from its tools' (a tool's statements are the
tool's business; Huf's are what its batching keeps low)."""

from __future__ import annotations

from contextlib import contextmanager

import frappe


@contextmanager
def counted_statements(monkeypatch):
	"""Counts ``frappe.db.sql`` calls while the block runs: ``{"huf": n, "tools": m}``."""
	from huf.ai.engine import loop

	counts = {"huf": 0, "tools": 0}
	in_tool = [False]
	real_sql, real_exec = frappe.db.sql, loop.execute_tool_call

	def counted_sql(*args, **kwargs):
		counts["tools" if in_tool[0] else "huf"] += 1
		return real_sql(*args, **kwargs)

	def marked_exec(*args, **kwargs):
		in_tool[0] = True
		try:
			return real_exec(*args, **kwargs)
		finally:
			in_tool[0] = False

	monkeypatch.setattr(frappe.db, "sql", counted_sql)
	monkeypatch.setattr(loop, "execute_tool_call", marked_exec)
	try:
		yield counts
	finally:
		monkeypatch.undo()
