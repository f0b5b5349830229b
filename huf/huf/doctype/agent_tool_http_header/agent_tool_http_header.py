# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class AgentToolHTTPHeader(Document):
	"""A header sent by a GET/POST tool. ``value`` is a Password field: read it with ``row.get_password("value")``."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		key: DF.Data
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		value: DF.Password | None

	# end: auto-generated types

	pass


# The reference spells the class this way; Frappe looks it up by the DocType name without spaces.
AgentToolHttpHeader = AgentToolHTTPHeader
