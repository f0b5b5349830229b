# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe.model.document import Document


class AgentMessage(Document):
	"""One message of a conversation. Written by the run recorder (huf.ai.run.recorder), never from the Desk."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_run: DF.Link | None
		content: DF.LongText | None
		context_policy: DF.Literal["include_full", "include_summary", "include_reference", "exclude"]
		conversation: DF.Link
		kind: DF.Literal["Message", "Tool Call", "Tool Result", "Image", "Audio", "Status", "Error"]
		raw_payload: DF.JSON | None
		record_kind: DF.Literal["message", "tool_call", "tool_result", "retrieval_context", "summary", "status"]
		role: DF.Literal["user", "agent", "tool", "system"]
		sequence: DF.Int
		tool_args: DF.JSON | None
		tool_call: DF.Link | None
		tool_call_id: DF.Data | None
		tool_calls: DF.JSON | None
		tool_name: DF.Data | None
		tool_status: DF.Data | None
		user: DF.Link | None

	# end: auto-generated types

	pass


def on_doctype_update():
	# A conversation's next message number is never below its last message's (huf.ai.run.rows.next_sequence
	# reads MAX(sequence) beside the counter): on this index that is one index look-up.
	frappe.db.add_index("Agent Message", ["conversation", "sequence"])
