"""Huf's own log rows (huf/ai/rows.py): one INSERT per batch, with only the columns some row gives
and the columns whose database default is not NULL, each value cast as Frappe's insert casts it."""

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
		for column in ("`tool`", "`status`", "`tool_args`", "`error_message`", "`turn`", "`duration_ms`", "`is_mcp_tool`", "`owner`"):
			assert column in head, column
		for column in ("`approval_comment`", "`decided_by`", "`mcp_server`", "`tool_result`"):
			assert column not in head, column  # nobody gave it, and it is NULL by default
		rows = frappe.get_all(
			"Agent Tool Call",
			filters={"name": ["in", names]},
			fields=["name", "status", "tool_args", "error_message", "turn", "duration_ms", "is_mcp_tool", "approval_comment", "owner", "creation", "modified"],
		)
		first, second = sorted(rows, key=lambda row: names.index(row.name))
		assert (first.status, frappe.parse_json(first.tool_args), first.error_message, first.turn, first.is_mcp_tool) == ("Success", {"a": 1}, None, 3, 1)
		assert (second.status, second.tool_args, second.error_message, second.turn, second.is_mcp_tool) == ("Failed", None, "boom", 0, 0)
		assert second.duration_ms == 0 and second.approval_comment is None
		assert first.owner == second.owner == frappe.session.user and first.creation == first.modified
	finally:
		frappe.db.delete("Agent Tool Call", {"name": ["in", names]})
		frappe.db.commit()
