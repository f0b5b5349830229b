"""Run a trigger by hand: the Manual trigger type, and a "Run now" for any trigger."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.triggers.fire import prompt_for


@frappe.whitelist(methods=["POST"])
def run_trigger_now(trigger: str, prompt: str | None = None) -> dict:
	"""Queue a run of the trigger's agent as the caller (who must be able to edit triggers); returns
	``{run, conversation, status}``."""
	doc = frappe.get_doc("Agent Trigger", trigger)
	doc.check_permission("write")
	if doc.disabled:
		frappe.throw(_("The trigger {0} is disabled. Enable it to run it.").format(frappe.bold(doc.name)))
	from huf.ai.runs import queue_run

	persist_per_user = frappe.db.get_value("Agent", doc.agent, "persist_user_history")
	text = prompt_for({"kind": "manual", "trigger": doc.name, "prompt": (prompt or "").strip()})
	user = frappe.session.user
	return queue_run(doc.agent, text, channel_id="trigger", external_id=f"{doc.name}:{user}" if persist_per_user else doc.name)
