"""Huf's own log rows (huf/ai/rows.py): one INSERT per batch, with only the columns some row gives a
value and those whose database default is not what None is written as, each value cast as
Frappe's insert casts it; a column left out reads back as if None had been written."""

from __future__ import annotations

import frappe

from huf.ai.rows import insert_rows


def test_a_batch_writes_the_given_columns_and_every_number_cast(site, monkeypatch):
	statements = []
	real_sql = frappe.db.sql

	def recorded(query, *args, **kwargs):
		statements.append(str(query))
		return real_sql(query, *args, **kwargs)

	monkeypatch.setattr(frappe.db, "sql", recorded)
	names = insert_rows(
		"Agent Tool Call",
		[
			{"tool": "rows_test", "status": "Success", "tool_args": {"a": 1}, "turn": "3", "is_mcp_tool": True},
			{"tool": "rows_test", "status": "Failed", "error_message": "boom"},
		],
	)
	monkeypatch.undo()
	try:
		(insert,) = statements
		head = insert.split(" values ")[0]
		for column in ("`tool`", "`status`", "`tool_args`", "`error_message`", "`turn`", "`is_mcp_tool`", "`owner`"):
			assert column in head, column
		for column in ("`approval_comment`", "`decided_by`", "`mcp_server`", "`tool_result`", "`duration_ms`"):
			assert column not in head, column  # nobody gave it, and its default is what None is written as
		rows = frappe.get_all(
			"Agent Tool Call",
			filters={"name": ["in", names]},
			fields=["name", "status", "tool_args", "error_message", "turn", "duration_ms", "is_mcp_tool", "approval_comment", "owner", "creation", "modified"],
		)
		first, second = sorted(rows, key=lambda row: names.index(row.name))
		assert (first.status, frappe.parse_json(first.tool_args), first.error_message, first.turn, first.is_mcp_tool) == ("Success", {"a": 1}, None, 3, 1)
		assert (second.status, second.tool_args, second.error_message, second.turn, second.is_mcp_tool) == ("Failed", None, "boom", 0, 0)
		assert first.duration_ms == second.duration_ms == 0 and second.approval_comment is None
		assert first.owner == second.owner == frappe.session.user and first.creation == first.modified
	finally:
		frappe.db.delete("Agent Tool Call", {"name": ["in", names]})
		frappe.db.commit()


def test_a_column_with_a_default_is_written_as_before(site):
	"""Agent Conversation's is_active defaults to 1 in the database: left out, it would read 1, so
	a row that does not give it is still written with it, as 0 (a Check's None), as it always was."""
	(name,) = insert_rows("Agent Conversation", [{"title": "rows test"}])
	try:
		assert frappe.db.get_value("Agent Conversation", name, ["title", "is_active"]) == ("rows test", 0)
	finally:
		frappe.db.delete("Agent Conversation", name)
		frappe.db.commit()
