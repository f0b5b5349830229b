"""Enabled triggers by what starts them, kept in this process's memory.

The doc-event hook runs on every document event of the site, Huf's own writes included. With this
index a document nobody listens to costs a dictionary lookup: no SQL, and no Redis round trip per
event. A version key in Redis says when a trigger changed; it is read at most once per request or
job (``frappe.local`` starts empty for each), and the index is reloaded only when it moved."""

from __future__ import annotations

import frappe

VERSION_KEY = "huf:trigger_version"
FIELDS = ["name", "agent", "trigger_type", "reference_doctype", "doc_event", "condition", "app_name", "event_name"]

_index: dict = {"version": None, "doc": {}, "app": {}}


def current() -> dict:
	"""``{"doc": {(doctype, event): [trigger]}, "app": {(app, event): [trigger]}}``."""
	if not getattr(frappe.local, "huf_triggers_checked", False):
		frappe.local.huf_triggers_checked = True
		version = frappe.cache.get_value(VERSION_KEY)
		if version is None or version != _index["version"]:
			_load(version)
	return _index


def _load(version) -> None:
	try:
		rows = frappe.get_all(
			"Agent Trigger", filters={"disabled": 0, "trigger_type": ["in", ["Doc Event", "App Event"]]}, fields=FIELDS
		)
	except Exception as error:  # the table may not exist yet, while Huf itself is being installed
		if not frappe.db.is_table_missing(error):
			raise
		rows = []
	doc: dict = {}
	app: dict = {}
	for row in rows:
		if row.trigger_type == "Doc Event":
			doc.setdefault((row.reference_doctype, row.doc_event), []).append(row)
		else:
			app.setdefault((row.app_name, row.event_name), []).append(row)
	if version is None:  # first use on this bench: publish a version so other processes share it
		version = frappe.generate_hash(length=12)
		frappe.cache.set_value(VERSION_KEY, version)
	_index.update(version=version, doc=doc, app=app)


def changed() -> None:
	"""A trigger was saved or deleted: every process reloads at its next request or job; this one now."""
	frappe.cache.set_value(VERSION_KEY, frappe.generate_hash(length=12))
	_index["version"] = None
	frappe.local.huf_triggers_checked = False
