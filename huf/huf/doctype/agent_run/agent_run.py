# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe.model.document import Document


class AgentRun(Document):
	"""One execution of an agent: status, prompt, answer, tokens and cost. Written by huf.ai.run.lifecycle, never from the Desk."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		attachments: DF.JSON | None
		cached_tokens: DF.Int
		channel: DF.Data | None
		conversation: DF.Link | None
		depth: DF.Int
		duration_seconds: DF.Float
		ended_at: DF.Datetime | None
		error_kind: DF.Data | None
		error_message: DF.SmallText | None
		input_tokens: DF.Int
		interrupted_at: DF.Datetime | None
		job_id: DF.Data | None
		model: DF.Link | None
		model_used: DF.Data | None
		output_tokens: DF.Int
		parent_run: DF.Link | None
		prompt: DF.LongText | None
		provider: DF.Link | None
		response: DF.LongText | None
		resumed_count: DF.Int
		run_kind: DF.Literal["chat", "trigger", "sub-agent", "title", "agent", "tool", "orchestrator", "assistant"]
		sequence: DF.Int
		started_at: DF.Datetime | None
		status: DF.Literal["Queued", "Started", "Awaiting Approval", "Needs Attention", "Success", "Failed", "Cancelled"]
		total_cost: DF.Float
		total_tokens: DF.Int
		trigger: DF.Data | None
		triggered_by: DF.Link | None
		turns: DF.Int
		user: DF.Link | None

	# end: auto-generated types

	pass


def on_doctype_update():
	# A drainer claims a conversation's first Queued run in one UPDATE ... ORDER BY sequence LIMIT 1
	# (huf.ai.run.lifecycle.start_next): on this index it reads only the Queued runs, not the finished ones.
	frappe.db.add_index("Agent Run", ["conversation", "status", "sequence"])
