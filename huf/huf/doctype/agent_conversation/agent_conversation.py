# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe.model.document import Document


class AgentConversation(Document):
	"""A conversation with an agent. Created by huf.ai.run.conversations; its counters are updated atomically
	in SQL (huf.ai.run.rows.next_sequence), never through this document."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		channel: DF.Data | None
		conversation_data: DF.JSON | None
		external_id: DF.Data | None
		is_active: DF.Check
		last_message_sequence: DF.Int
		last_run_sequence: DF.Int
		session_id: DF.Data | None
		summarized_until: DF.Int
		summary: DF.LongText | None
		title: DF.Data | None
		total_messages: DF.Int
		user: DF.Link | None

	# end: auto-generated types

	def on_trash(self):
		"""Deleting a conversation deletes its log (artifacts, feedback, messages, tool calls, runs) with it, so the
		Desk's delete works instead of stopping at the first linked message."""
		for artifact in frappe.get_all("Agent Context Artifact", filters={"conversation": self.name}, pluck="name"):
			frappe.delete_doc("Agent Context Artifact", artifact, ignore_permissions=True, force=True)  # with its file
		frappe.db.delete("Agent Run Feedback", {"conversation": self.name})
		frappe.db.delete("Agent Message", {"conversation": self.name})
		frappe.db.delete("Agent Tool Call", {"conversation": self.name})
		frappe.db.delete("Agent Run", {"conversation": self.name})
