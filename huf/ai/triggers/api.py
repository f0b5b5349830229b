"""Run a trigger by hand: the Manual trigger type, and a "Run now" for any trigger."""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils import get_datetime, now_datetime

from huf.ai.triggers.fire import history_key, prompt_for
from huf.capabilities import needs


def _manager_doc(trigger: str):
	doc = frappe.get_doc("Agent Trigger", trigger)
	doc.check_permission("write")
	return doc


@frappe.whitelist(methods=["POST"])
@needs("trigger.write")
def run_trigger_now(trigger: str, prompt: str | None = None) -> dict:
	"""Queue a run of the trigger's agent as the caller (who must be able to edit triggers), whatever
	the trigger's Run As; returns ``{run, conversation, status}``."""
	doc = _manager_doc(trigger)
	if doc.disabled:
		frappe.throw(_("The trigger {0} is disabled. Enable it to run it.").format(frappe.bold(doc.name)))
	if doc.flow:
		frappe.throw(_("The trigger {0} starts the flow {1}: start it by hand with Run now on the flow.").format(frappe.bold(doc.name), frappe.bold(doc.flow)))
	from huf.ai.run.runs import queue_run

	text = prompt_for({"kind": "manual", "trigger": doc.name, "prompt": (prompt or "").strip()})
	user = frappe.session.user
	return queue_run(doc.agent, text, channel_id="trigger", external_id=history_key(doc.name, doc.agent, user), trigger=doc.name, triggered_by=user)


@frappe.whitelist()
@needs("trigger.write")
def get_trigger_overview(trigger: str) -> dict:
	"""What the trigger form shows: the next due times of a schedule, a webhook's address, and the
	trigger's latest runs."""
	doc = _manager_doc(trigger)
	overview: dict = {"next_runs": [], "webhook_url": None, "recent_runs": recent_runs(doc.name)}
	if doc.trigger_type == "Schedule" and doc.next_execution and not doc.disabled:
		from huf.ai.engine.schedule import cron_next, first_after
		from huf.ai.triggers.schedules import schedule_of

		schedule, due = schedule_of(doc), get_datetime(doc.next_execution)
		for _ in range(5):
			overview["next_runs"].append(str(due))
			due = cron_next(schedule.cron, due) if schedule.cron else first_after(schedule, get_datetime(doc.schedule_anchor or doc.next_execution), due)[0]
	if doc.trigger_type == "Webhook" and doc.webhook_slug:
		overview["webhook_url"] = frappe.utils.get_url(f"/api/method/huf.ai.triggers.webhooks.receive?slug={doc.webhook_slug}")
	return overview


def recent_runs(trigger: str, limit: int = 10) -> list[dict]:
	"""The trigger's runs, newest first: its conversations carry the trigger's name (per person: name:user)."""
	return frappe.db.sql(
		"""select r.name, r.status, r.user, r.creation, r.total_tokens, r.total_cost, r.error_message
		from `tabAgent Run` r join `tabAgent Conversation` c on c.name = r.conversation
		where c.channel = 'trigger' and (c.external_id = %(trigger)s or c.external_id like %(per_user)s)
		order by r.creation desc limit %(limit)s""",
		{"trigger": trigger, "per_user": trigger.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ":%", "limit": limit},
		as_dict=True,
	)


@frappe.whitelist(methods=["POST"])
@needs("trigger.write")
def send_test_delivery(trigger: str) -> dict:
	"""Sign a sample body with the webhook's key and take it the way a real delivery is taken, except
	that the run acts as the caller (who must be able to edit the trigger), not as its Run As."""
	from huf.ai.triggers.webhooks import queue_delivery

	doc = _manager_doc(trigger)
	if doc.trigger_type != "Webhook":
		frappe.throw(_("Only Webhook triggers take test deliveries."))
	body = json.dumps({"test": True, "sent_by": frappe.session.user, "at": str(now_datetime())}).encode()
	row = frappe._dict(name=doc.name, agent=doc.agent)
	answer = queue_delivery(row, doc.webhook_slug, body, run_as=frappe.session.user)
	return json.loads(answer.get_data())
