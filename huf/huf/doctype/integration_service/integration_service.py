# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

import json

import frappe
from frappe import _
from frappe.model.document import Document

TYPES = ("password", "text")


class IntegrationService(Document):
	"""A kind of integration (huf/ai/integrations/catalog.py seeds the built-in ones). Its
	``required_credentials`` is the schema its Integration Settings' credentials follow."""

	def validate(self):
		try:
			schema = json.loads(self.required_credentials or "[]")
		except ValueError:
			frappe.throw(_("Required Credentials must be a JSON list, e.g. [{0}].").format('{"key": "api_key", "label": "API key", "type": "password", "required": 1}'))
		if not isinstance(schema, list) or not all(isinstance(item, dict) and item.get("key") for item in schema):
			frappe.throw(_("Required Credentials must be a list of objects, each with a key."))
		for item in schema:
			if item.get("type", "password") not in TYPES:
				frappe.throw(_("The credential {0} has the type {1}; use password or text.").format(item["key"], item.get("type")))
