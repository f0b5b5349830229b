"""Counting the SQL statements of a run: Huf's own apart from its tools' (a tool's statements are the
tool's business; Huf's are what its batching keeps low)."""

from __future__ import annotations

from contextlib import contextmanager

from pymysql.connections import Connection
from pymysql.constants import COMMAND


@contextmanager
def counted_statements(monkeypatch):
	"""Counts the statements sent to the database while the block runs: ``{"huf": n, "tools": m,
	"commits": k}`` (k of them COMMITs).
	Counted as sent, so a commit sent ahead of a model call (``rows.commit``) counts too."""
	from huf.ai.engine import loop

	counts = {"huf": 0, "tools": 0, "commits": 0}
	in_tool = [False]
	real_send, real_exec = Connection._execute_command, loop.execute_tool_call

	def counted_send(conn, command, sql):
		if command == COMMAND.COM_QUERY:
			counts["tools" if in_tool[0] else "huf"] += 1
			counts["commits"] += sql in (b"commit", "commit")
		return real_send(conn, command, sql)

	def marked_exec(*args, **kwargs):
		in_tool[0] = True
		try:
			return real_exec(*args, **kwargs)
		finally:
			in_tool[0] = False

	monkeypatch.setattr(Connection, "_execute_command", counted_send)
	monkeypatch.setattr(loop, "execute_tool_call", marked_exec)
	try:
		yield counts
	finally:
		monkeypatch.undo()
