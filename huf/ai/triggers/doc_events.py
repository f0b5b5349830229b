"""The wildcard doc-event hook. It runs on every document event of the site, so it imports only
Frappe and the in-memory index: the agent stack loads only when a trigger matches."""

from __future__ import annotations

import frappe

from huf.ai.triggers import index

# The document events Frappe 15 fires after the change they name (Document.run_method and delete_doc).
EVENTS = ("after_insert", "on_update", "on_submit", "on_cancel", "on_update_after_submit", "on_change", "on_trash", "after_delete", "after_rename")


def on_doc_event(doc, method: str | None = None, *_event_args) -> None:
	"""``_event_args``: what some events pass on (after_rename: old name, new name, merge)."""
	triggers = index.current()["doc"].get((doc.doctype, method))
	if triggers and not (frappe.flags.in_install or frappe.flags.in_migrate or frappe.flags.in_patch):
		from huf.ai.triggers.fire import doc_event_matched

		doc_event_matched(doc, method, triggers)
