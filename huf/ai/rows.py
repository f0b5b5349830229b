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
	type as Frappe's own insert does (Int, Check and Float cast, JSON dumped). Only the columns some
	row gives a value (not None) are written, with every column whose database default is not what
	None is written as (a field with a default): a column left out holds what None would have been."""
	if not rows:
		return []
	stamp, user = now_datetime(), frappe.session.user
	names, full = [], []
	for row in rows:
		name = row.get("name") or new_name()
		names.append(name)
		full.append({"owner": user, "modified_by": user, "creation": stamp, "modified": stamp, "docstatus": 0, "idx": 0, **row, "name": name})
	given = frozenset(column for row in full for column, value in row.items() if value is not None)
	head, placeholders, casts = _plan(doctype).shape(given)
	values = []
	for row in full:
		values += [row.get(column) if cast is None else cast(row.get(column)) for column, cast in casts]
	try:
		frappe.db.sql(f"{head} values {', '.join([placeholders] * len(rows))}", values)
	except Exception as error:
		if frappe.db.is_primary_key_violation(error) or frappe.db.is_unique_key_violation(error):
			raise frappe.DuplicateEntryError(doctype, names, error) from error
		raise
	return names


CASTS = {"Int": cint, "Check": lambda value: 1 if cint(value) else 0, "Float": flt, "Currency": flt, "Percent": flt}
MAX_SHAPES = 64  # column sets kept per DocType (each code path that inserts has one or two)


class _Plan:
	"""A DocType's columns (in table order) with each one's cast (None: as it is), and which of them
	may be left out of an INSERT when no row gives them a value: those whose database default is
	what None is written as (Frappe's schema.py: NULL for a field with no default, 0 for a number
	whose default is empty or 0). Worked out once per Meta object (a changed DocType has a new
	one), and each set of given columns once: its INSERT head, one row's placeholders, its casts."""

	def __init__(self, meta):
		self.meta = meta
		self.columns = []
		for column in meta.get_valid_columns():
			field = meta.get_field(column)
			# left out, it holds what None becomes: NULL, or 0 for a number whose default is 0 (schema.py)
			optional = field is None or not (flt(field.default) if field.fieldtype in CASTS else field.default)
			self.columns.append((column, _caster(field), optional))
		self.shapes: dict[frozenset, tuple[str, str, list]] = {}

	def shape(self, given: frozenset) -> tuple[str, str, list]:
		found = self.shapes.get(given)
		if found is None:
			if len(self.shapes) >= MAX_SHAPES:
				self.shapes.clear()
			casts = [(column, cast) for column, cast, optional in self.columns if column in given or not optional]
			head = f"insert into `tab{self.meta.name}` ({', '.join(f'`{column}`' for column, _ in casts)})"
			found = self.shapes[given] = (head, f"({', '.join(['%s'] * len(casts))})", casts)
		return found


_PLANS: dict[str, _Plan] = {}  # DocType -> its plan; rebuilt when its Meta is


def _plan(doctype: str) -> _Plan:
	meta = frappe.get_meta(doctype)
	plan = _PLANS.get(doctype)
	if plan is None or plan.meta is not meta:
		plan = _PLANS[doctype] = _Plan(meta)
	return plan


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
