# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import now_datetime

from huf.ai.triggers import identity, index
from huf.ai.triggers.doc_events import EVENTS

SLUG = re.compile(r"^[A-Za-z0-9_-]{3,80}$")
# Huf's own records: an agent started by its own runs would start itself again.
HUF_RECORDS = {"Agent Run", "Agent Message", "Agent Conversation", "Agent Tool Call", "Agent Trigger", "Agent Run Feedback", "Flow Run", "Flow Run Step"}
# The trigger types that may start a flow; a flow's webhook is its own (huf.ai.flow.api.flow_webhook).
FLOW_TRIGGER_TYPES = ("Schedule", "Doc Event")


class AgentTrigger(Document):
	def autoname(self):
		if not self.trigger_name:
			what = {"Doc Event": f"{self.reference_doctype} {self.doc_event}", "App Event": f"{self.app_name} {self.event_name}"}
			self.trigger_name = f"{self.agent or self.flow}: {what.get(self.trigger_type, self.trigger_type)}"
			if frappe.db.exists("Agent Trigger", self.trigger_name):
				self.trigger_name += f" {frappe.generate_hash(length=4)}"
		self.name = self.trigger_name

	def validate(self):
		self.validate_target()
		if self.trigger_type == "Doc Event":
			self.validate_doc_event()
		if self.trigger_type == "Schedule":
			self.validate_schedule()
		if self.trigger_type == "Webhook":
			self.validate_webhook()
		if self.trigger_type == "App Event" and not (self.app_name and self.event_name):
			frappe.throw(_("An App Event trigger needs the App Name and the Event Name the app fires."))
		if self.run_as != identity.SPECIFIC:
			self.run_as_user = None
		identity.check_choice(self)  # against whoever saves it, every time
		agent_disabled = self.agent and frappe.db.get_value("Agent", self.agent, "disabled")
		if not self.disabled and agent_disabled:
			frappe.throw(_("The agent {0} is disabled. Enable the agent first, or keep this trigger disabled.").format(frappe.bold(self.agent)))
		if not self.disabled:
			self.disabled_reason = None

	def validate_target(self):
		"""A trigger starts an agent or a flow: exactly one of the two."""
		if self.agent and self.flow:
			frappe.throw(_("A trigger starts either an agent or a flow, not both. Clear Agent or Flow."), title=_("Agent or Flow"))
		if not (self.agent or self.flow):
			frappe.throw(_("Pick the Agent or the Flow this trigger starts."), title=_("Agent or Flow"))
		if not self.flow:
			return
		if self.trigger_type not in FLOW_TRIGGER_TYPES:
			frappe.throw(
				_("A {0} trigger cannot start a flow; Schedule and Doc Event triggers can. To start a flow from another system, give the flow a Webhook trigger node and use its address.").format(
					_(self.trigger_type)
				),
				title=_("Agent or Flow"),
			)
		if not frappe.has_permission("Flow Definition", "read", doc=self.flow):
			frappe.throw(_("You may not read the flow {0}, so you cannot make a trigger start it.").format(frappe.bold(self.flow)), frappe.PermissionError)

	def validate_doc_event(self):
		if not self.reference_doctype:
			frappe.throw(_("Pick the Reference Doctype whose documents start this trigger."))
		if self.reference_doctype in HUF_RECORDS:
			frappe.throw(_("{0} records are written by Huf's own runs; a trigger on them would start itself again.").format(self.reference_doctype))
		if self.doc_event not in EVENTS:
			frappe.throw(_("Doc Event must be one of: {0}.").format(", ".join(EVENTS)))
		self.validate_file_attachments()
		if self.condition:
			try:
				compile(self.condition, "<condition>", "eval")
			except SyntaxError as error:
				frappe.throw(
					_("The condition is not a valid Python expression ({0}). Example: doc.grand_total > 1000").format(error.msg),
					title=_("Invalid Condition"),
				)

	def validate_schedule(self):
		from huf.ai.engine.schedule import ScheduleError, cron_next, first_after
		from huf.ai.triggers.schedules import schedule_of

		self.cron_expression = (self.cron_expression or "").strip() or None
		if self.cron_expression:
			self.scheduled_interval = None
		schedule = schedule_of(self)
		try:
			schedule.check()
		except ScheduleError as error:
			frappe.throw(str(error), title=_("Invalid Schedule"))
		changed = self.is_new() or any(self.has_value_changed(f) for f in ("scheduled_interval", "interval_count", "cron_expression", "next_execution"))
		if not changed:
			return
		now = now_datetime().replace(second=0, microsecond=0)
		if schedule.cron:
			self.next_execution = cron_next(schedule.cron, now)
		elif not self.next_execution or not self.has_value_changed("next_execution") and not self.is_new():
			self.next_execution, _n = first_after(schedule, now, now)  # one interval from now
		self.schedule_anchor = self.next_execution

	def validate_file_attachments(self):
		meta = frappe.get_meta(self.reference_doctype)
		for row in self.file_attachments or []:
			target = meta
			if row.source_type == "Child Table Field":
				table = meta.get_field(row.child_table or "")
				if not table or table.fieldtype not in ("Table", "Table MultiSelect"):
					frappe.throw(_("File Attachments row {0}: {1} has no table field {2}.").format(row.idx, self.reference_doctype, frappe.bold(row.child_table or "")))
				target = frappe.get_meta(table.options)
			field = target.get_field(row.field_name or "")
			if not field or field.fieldtype not in ("Attach", "Attach Image"):
				frappe.throw(_("File Attachments row {0}: {1} has no Attach field {2}.").format(row.idx, target.name, frappe.bold(row.field_name or "")))

	def validate_webhook(self):
		if not self.webhook_slug or not SLUG.match(self.webhook_slug):
			frappe.throw(_("Webhook Slug must be 3 to 80 letters, digits, - or _, e.g. new-orders."))
		taken = frappe.db.exists("Agent Trigger", {"webhook_slug": self.webhook_slug, "trigger_type": "Webhook", "name": ["!=", self.name or ""]})
		if taken:
			frappe.throw(_("The webhook slug {0} is used by {1}. Pick another.").format(frappe.bold(self.webhook_slug), taken))
		if not self.webhook_key:
			frappe.throw(_("Set a Webhook Key: a long random secret that the sending system uses too."))

	def on_update(self):
		index.changed()

	def on_trash(self):
		index.changed()
