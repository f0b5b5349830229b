# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document


class AgentRunFeedback(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_message: DF.Link
		comments: DF.SmallText | None
		conversation: DF.Link | None
		feedback: DF.Literal["Thumbs Up", "Thumbs Down"]
		model: DF.Link | None
		provider: DF.Link | None

	# end: auto-generated types

	def validate(self):
		message = frappe.db.get_value(
			"Agent Message", self.agent_message, ["conversation", "role", "agent", "agent_run"], as_dict=True
		)
		if not message:
			frappe.throw(_("Agent Message {0} was not found.").format(frappe.bold(self.agent_message)), frappe.DoesNotExistError)
		if message.role != "agent":
			frappe.throw(_("Only the agent's replies can be rated."))
		if frappe.db.get_value("Agent Conversation", message.conversation, "user") != self.owner:
			frappe.throw(_("You can only rate replies in your own conversations."), frappe.PermissionError)
		if frappe.db.exists("Agent Run Feedback", {"agent_message": self.agent_message, "owner": self.owner, "name": ["!=", self.name]}):
			frappe.throw(_("You already rated this reply. Change that rating instead of adding another."), frappe.DuplicateEntryError)
		# who answered: the provider and model the run actually used, else the agent's current ones
		run = frappe.db.get_value("Agent Run", message.agent_run, ["provider", "model"], as_dict=True) if message.agent_run else None
		agent = frappe.db.get_value("Agent", message.agent, ["provider", "model"], as_dict=True) or frappe._dict()
		self.conversation = message.conversation
		self.agent = message.agent
		self.provider = (run and run.provider) or agent.provider
		self.model = (run and run.model) or agent.model
