# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe.model.document import Document


class FlowRun(Document):
	def onload(self):
		"""The form shows Approve / Reject only to the people this run waits for, and Retry step / Skip
		step / End run only to who may decide for a run that Needs Attention."""
		from huf.ai.flow.approvals import is_approver
		from huf.ai.flow.attention import may_decide
		from huf.ai.flow.definitions import parsed

		waiting = parsed(self.waiting) if isinstance(self.waiting, str) else self.waiting
		self.set_onload("can_decide", self.status == "Waiting Approval" and bool(is_approver(waiting, frappe.session.user)))
		self.set_onload("can_resolve", self.status == "Needs Attention" and bool(may_decide(self, waiting, frappe.session.user)))
