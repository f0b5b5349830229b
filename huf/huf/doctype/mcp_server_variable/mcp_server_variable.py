# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class MCPServerVariable(Document):
	"""An environment variable of a stdio MCP server's program; ``variable_value`` is a Password field."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		variable_name: DF.Data
		variable_value: DF.Password | None

	# end: auto-generated types

	pass
