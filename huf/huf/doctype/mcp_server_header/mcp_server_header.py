# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class MCPServerHeader(Document):
	"""A header sent with every request to an MCP server; ``header_value`` is a Password field."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		header_name: DF.Data
		header_value: DF.Password | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data

	# end: auto-generated types

	pass
