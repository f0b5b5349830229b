"""``huf.fire_app_event``: other apps' Python code starts the agents listening for their event."""

from __future__ import annotations

from functools import partial

import frappe

from huf.ai.triggers import index


def fire(app_name: str, event_name: str, payload=None) -> int:
	"""Start every enabled App Event trigger for (app_name, event_name) once the caller's transaction
	commits, as the current user; returns how many triggers listen."""
	triggers = index.current()["app"].get((app_name, event_name)) or []
	if triggers:
		from huf.ai.triggers.fire import enqueue_once

		context = {"kind": "app_event", "app": app_name, "event": event_name, "payload": payload}
		for trigger in triggers:
			frappe.db.after_commit.add(partial(enqueue_once, trigger.name, None, frappe.session.user, context))
	return len(triggers)
