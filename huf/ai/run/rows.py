"""Fast writes for the rows Huf itself logs (runs, messages, tool calls).

These rows are written many times per run, by the system, not by a person. They skip the document
lifecycle (no validate, no doc events): the wildcard doc-event hook of every installed app would
otherwise fire on each of them, and a run writes a dozen. The rows one step of a run writes go in
one INSERT (``insert_rows``). Everything else goes through normal documents.
"""

from __future__ import annotations

import json

import frappe
from frappe.utils import cint, flt, now_datetime


def new_name() -> str:
	"""A random row name, for rows that others must reference before they are inserted."""
	return frappe.generate_hash(length=12)


def insert_row(doctype: str, values: dict) -> str:
	"""Insert one row with a random name (unless ``values`` has one) and return the name."""
	return insert_rows(doctype, [values])[0]


def insert_rows(doctype: str, rows: list[dict]) -> list[str]:
	"""Insert rows of one DocType in one statement; returns their names. Values are cast per field
	type as Frappe's own insert does (Int, Check and Float cast, JSON dumped)."""
	if not rows:
		return []
	columns, casts, head, placeholders = _plan(doctype)
	stamp, user = now_datetime(), frappe.session.user
	names, values = [], []
	for row in rows:
		name = row.get("name") or new_name()
		names.append(name)
		standard = {"name": name, "owner": user, "modified_by": user, "creation": stamp, "modified": stamp, "docstatus": 0, "idx": 0}
		row = {**standard, **row, "name": name}
		values += [row.get(column) if cast is None else cast(row.get(column)) for column, cast in zip(columns, casts)]
	try:
		frappe.db.sql(f"{head} values {', '.join([placeholders] * len(rows))}", values)
	except Exception as error:
		if frappe.db.is_primary_key_violation(error) or frappe.db.is_unique_key_violation(error):
			raise frappe.DuplicateEntryError(doctype, names, error) from error
		raise
	return names


CASTS = {"Int": cint, "Check": lambda value: 1 if cint(value) else 0, "Float": flt, "Currency": flt, "Percent": flt}
_PLANS: dict[str, tuple] = {}  # DocType -> (its Meta, what insert_rows needs of it); rebuilt when the Meta is


def _plan(doctype: str) -> tuple[list[str], list, str, str]:
	"""A DocType's columns, each column's cast (None: as it is), the INSERT's head and one row's
	placeholders; worked out once per Meta object (a changed DocType has a new one)."""
	meta = frappe.get_meta(doctype)
	cached = _PLANS.get(doctype)
	if cached is None or cached[0] is not meta:
		columns = meta.get_valid_columns()
		casts = [_caster(meta.get_field(column)) for column in columns]
		head = f"insert into `tab{doctype}` ({', '.join(f'`{c}`' for c in columns)})"
		cached = _PLANS[doctype] = (meta, (columns, casts, head, f"({', '.join(['%s'] * len(columns))})"))
	return cached[1]


def _caster(field):
	"""``_cast`` for one field, or None where it leaves values as they are."""
	if field is None:
		return None
	if field.fieldtype in CASTS:
		return CASTS[field.fieldtype]
	if field.fieldtype == "JSON":
		return lambda value: json.dumps(value, separators=(",", ":")) if isinstance(value, dict | list) else value
	return None


def _cast(field, value):
	"""A value as BaseDocument.get_valid_dict stores it (the same casts, without building a document)."""
	if field is None:
		return value
	if field.fieldtype in CASTS:
		return CASTS[field.fieldtype](value)
	if field.fieldtype == "JSON" and isinstance(value, dict | list):
		return json.dumps(value, separators=(",", ":"))
	return value


def update_row(doctype: str, name: str, values: dict) -> None:
	"""One UPDATE by name (``modified`` too). For Huf's log rows, which no one caches as documents."""
	values = {**values, "modified": now_datetime()}
	frappe.db.sql(
		f"update `tab{doctype}` set {', '.join(f'`{field}` = %s' for field in values)} where name = %s",
		[*(column_value(value) for value in values.values()), name],
	)


def update_rows(doctype: str, rows: list[dict], columns: tuple[str, ...]) -> None:
	"""Set ``columns`` (and ``modified``) of rows that exist, each row to its own values, in one
	UPDATE (a CASE per column), cast as ``insert_rows`` casts: a column a row does not carry becomes
	empty (NULL, or 0 for numbers)."""
	if not rows:
		return
	meta = frappe.get_meta(doctype)
	names = [row["name"] for row in rows]
	cases, values = [], []
	for column in columns:
		field = meta.get_field(column)
		cases.append(f"`{column}` = case name {' '.join(['when %s then %s'] * len(rows))} end")
		for row in rows:
			values += [row["name"], column_value(_cast(field, row.get(column)))]
	frappe.db.sql(
		f"update `tab{doctype}` set {', '.join(cases)}, `modified` = %s where name in ({', '.join(['%s'] * len(names))})",
		[*values, now_datetime(), *names],
	)


def column_value(value):
	"""A value as a column takes it (dicts and lists as JSON)."""
	return json.dumps(value, default=str) if isinstance(value, dict | list) else value


def next_sequence(conversation: str, field: str, count: int = 1) -> int:
	"""Atomically take the next ``count`` numbers of a per-conversation counter (row lock, never
	MAX()+1); returns the first of them.

	Message numbers: a run's recorder takes its first with this and numbers its later messages itself
	(it holds the conversation's lock, the only writer of its messages), and the counter catches up
	when the run ends (``lifecycle``). A run whose worker died leaves the counter behind its last
	message, so the number taken here is never below the conversation's last message either."""
	if field == "last_message_sequence":
		last = "greatest(`last_message_sequence`, (select coalesce(max(sequence), 0) from `tabAgent Message` where conversation = %(c)s))"
		frappe.db.sql(
			f"update `tabAgent Conversation` set `last_message_sequence` = LAST_INSERT_ID({last} + {int(count)}),"
			f" `total_messages` = `total_messages` + {int(count)} where name = %(c)s",
			{"c": conversation},
		)
	else:
		frappe.db.sql(
			f"update `tabAgent Conversation` set `{field}` = LAST_INSERT_ID(`{field}` + {int(count)}) where name = %s", conversation
		)
	# MariaDB returns LAST_INSERT_ID(expr) with the UPDATE's result: no second round trip
	return int(frappe.db._cursor.lastrowid) - count + 1


def counted_messages(conversation: str, last: int, count: int) -> None:
	"""The conversation's message counter up to ``last`` and its total up by ``count`` (messages a run
	numbered itself), where no ending statement carries them (``lifecycle`` folds them into its own)."""
	if count:
		frappe.db.sql(
			"update `tabAgent Conversation` set `last_message_sequence` = greatest(`last_message_sequence`, %s),"
			" `total_messages` = `total_messages` + %s where name = %s",
			(last, count, conversation),
		)


def commit() -> None:
	"""``frappe.db.commit`` without its START TRANSACTION: Frappe's connection does not autocommit,
	so the next statement opens the next transaction by itself (one round trip less per commit).
	The commit hooks (after-commit status events, realtime) run as they do there."""
	db = frappe.db
	db.before_rollback.reset()
	db.after_rollback.reset()
	db.before_commit.run()
	db.sql("commit")
	db.after_commit.run()


def update_where(query: str, values: tuple) -> int:
	"""Run a conditional UPDATE (compare-and-swap) and return how many rows it changed."""
	frappe.db.sql(query, values)
	return frappe.db._cursor.rowcount
