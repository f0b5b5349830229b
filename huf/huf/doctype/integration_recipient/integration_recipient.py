# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class IntegrationRecipient(Document):
	"""A name agents use for a recipient, and the address, channel or user it stands for (and, for a
	webhook, optionally a webhook URL of its own, encrypted)."""
