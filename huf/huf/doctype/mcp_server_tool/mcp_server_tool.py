# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class MCPServerTool(Document):
	"""One tool of an MCP server, as of its last sync: the server's read-only and idempotent hints, and
	an administrator's choices (Enabled, Requires Approval, If a run stops during a call)."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		description: DF.SmallText | None
		effect: DF.Literal["Automatic", "Safe to repeat", "Ask before repeating"]
		enabled: DF.Check
		idempotent_hint: DF.Check
		namespaced_name: DF.Data | None
		parameters: DF.Code | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		read_only_hint: DF.Check
		requires_approval: DF.Check
		tool_name: DF.Data

	# end: auto-generated types

	pass
