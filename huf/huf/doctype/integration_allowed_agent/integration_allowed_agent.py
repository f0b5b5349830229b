# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class IntegrationAllowedAgent(Document):
	"""An agent that may send through the Integration Settings it belongs to (none listed: every agent)."""
