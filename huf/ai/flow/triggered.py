"""Flows started by something other than a person pressing Run: Agent Triggers whose target is a
flow (Schedule and Doc Event, through huf/ai/triggers/fire.py) and a flow's own webhook
(huf/ai/flow/webhook.py). One way in for both: the flow must be Active, and the run acts as a real
user who may read the flow, never as Administrator or Guest.

A flow's ``trigger.schedule`` and ``trigger.doc-event`` nodes mark where such a run begins; what
starts it is an Agent Trigger with that flow as its target, so schedules and document events have
one machinery (the in-memory doc-event index, the dedupe, the Run As choice) for agents and flows."""

from __future__ import annotations

import json

import frappe
from frappe import _

# Agent Trigger context kinds (huf/ai/triggers/fire.py) as Flow Run trigger types.
TRIGGER_TYPES = {"doc_event": "Doc Event", "schedule": "Schedule"}


def start_triggered(flow: str, payload: dict, user: str, trigger_type: str) -> str:
	"""Start ``flow`` for a trigger as ``user``; the Flow Run's name, or a clear error saying why not."""
	status = frappe.db.get_value("Flow Definition", flow, "status")
	if status is None:
		frappe.throw(_("The flow {0} does not exist any more. Pick another flow for this trigger.").format(frappe.bold(flow)), frappe.DoesNotExistError)
	if status != "Active":
		frappe.throw(_("The flow {0} is {1}: only Active flows are started by triggers. Set the flow to Active to let it start.").format(frappe.bold(flow), _(status)))
	if user in ("Administrator", "Guest"):
		frappe.throw(
			_("Flows never run as {0}: they act with a person's permissions. A trigger's flow runs as its Run As (pick a Specific User); a flow's webhook runs as the person who created the flow.").format(user)
		)
	if not frappe.has_permission("Flow Definition", "read", doc=flow, user=user):
		frappe.throw(_("{0} may not read the flow {1}, so the flow cannot run as them.").format(user, frappe.bold(flow)), frappe.PermissionError)
	from huf.ai.flow.runs import start_run

	return start_run(flow, payload, user=user, trigger_type=trigger_type)


def trigger_payload(context: dict) -> dict:
	"""What a flow started by an Agent Trigger finds at ``context["trigger"]``: the event as the agent
	prompt describes it, with the document as an object (kept as text when it was cut short)."""
	payload = {key: value for key, value in context.items() if key != "kind"}
	if isinstance(payload.get("document"), str):
		try:
			payload["document"] = json.loads(payload["document"])
		except ValueError:
			pass
	return payload
