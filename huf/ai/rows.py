"""Fast writes for the rows Huf itself logs (runs, messages, tool calls).

These rows are written many times per run, by the system, not by a person. They skip the document
lifecycle (no validate, no doc events): the wildcard doc-event hook of every installed app would
otherwise fire on each of them, and a run writes a dozen. Everything else goes through normal documents.
"""

from __future__ import annotations

import frappe
from frappe.utils import now_datetime


def insert_row(doctype: str, values: dict) -> str:
	"""Insert one row with a random name and return the name."""
	doc = frappe.get_doc({"doctype": doctype, **values})
	doc.name = frappe.generate_hash(length=12)
	doc.owner = doc.modified_by = frappe.session.user
	doc.creation = doc.modified = now_datetime()
	doc.db_insert()
	return doc.name


def update_row(doctype: str, name: str, values: dict) -> None:
	frappe.db.set_value(doctype, name, values, update_modified=True)


def next_sequence(conversation: str, field: str) -> int:
	"""Atomically take the next number of a per-conversation counter (row lock, never MAX()+1)."""
	extra = ", `total_messages` = `total_messages` + 1" if field == "last_message_sequence" else ""
	frappe.db.sql(
		f"update `tabAgent Conversation` set `{field}` = LAST_INSERT_ID(`{field}` + 1){extra} where name = %s",
		conversation,
	)
	# MariaDB returns LAST_INSERT_ID(expr) with the UPDATE's result: no second round trip
	return int(frappe.db._cursor.lastrowid)


def update_where(query: str, values: tuple) -> int:
	"""Run a conditional UPDATE (compare-and-swap) and return how many rows it changed."""
	frappe.db.sql(query, values)
	return frappe.db._cursor.rowcount
