# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class IntegrationCredential(Document):
	"""One credential of an Integration Settings: a key from its service's schema and an encrypted value."""
