# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class AgentToolCall(Document):
	"""One tool call a model made during a run: arguments, result, status and timing. Written by the recorder."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent_run: DF.Link | None
		call_id: DF.Data | None
		conversation: DF.Link | None
		duration_ms: DF.Float
		error_message: DF.SmallText | None
		is_mcp_tool: DF.Check
		mcp_server: DF.Link | None
		mcp_tool: DF.Data | None
		status: DF.Literal["Started", "Awaiting Approval", "Approved", "Rejected", "Interrupted", "Skipped", "Success", "Failed"]
		tool: DF.Data | None
		tool_args: DF.JSON | None
		tool_result: DF.JSON | None
		turn: DF.Int

	# end: auto-generated types

	pass
