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
		message = frappe.db.get_value("Agent Message", self.agent_message, ["conversation", "role"], as_dict=True)
		if not message:
			frappe.throw(_("Agent Message {0} was not found.").format(frappe.bold(self.agent_message)), frappe.DoesNotExistError)
		if message.role != "agent":
			frappe.throw(_("Only the agent's replies can be rated."))
		user = frappe.session.user
		if "System Manager" not in frappe.get_roles(user):
			owner = frappe.db.get_value("Agent Conversation", message.conversation, "user")
			if owner != user:
				frappe.throw(_("You can only rate replies in your own conversations."), frappe.PermissionError)
		self.conversation = message.conversation
