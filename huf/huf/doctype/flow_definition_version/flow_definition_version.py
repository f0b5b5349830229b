# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class FlowDefinitionVersion(Document):
	pass
