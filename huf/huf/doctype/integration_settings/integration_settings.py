# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from urllib.parse import urlsplit

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import validate_email_address


class IntegrationSettings(Document):
	"""One configured integration: credentials as its service's schema says (encrypted), named
	recipients, and at most one default per service (huf/ai/integrations/settings.py reads them)."""

	def validate(self):
		from huf.ai.integrations.catalog import EMAIL, NOTIFICATION, schema_of

		if not frappe.db.exists("Integration Service", self.service):
			frappe.throw(_("There is no integration service {0}.").format(frappe.bold(self.service)))
		self._check_credentials(schema_of(self.service))
		names = set()
		for row in self.recipients:
			name = (row.recipient_name or "").strip()
			row.recipient_name, row.recipient_id = name, (row.recipient_id or "").strip()
			if name.lower() in names:
				frappe.throw(_("Two recipients are named {0}; each name must be different.").format(frappe.bold(name)))
			names.add(name.lower())
			if self.service == EMAIL and not validate_email_address(row.recipient_id):
				frappe.throw(_("The recipient {0} needs an email address.").format(frappe.bold(name)))
			if self.service == NOTIFICATION and not frappe.db.exists("User", {"name": row.recipient_id, "enabled": 1}):
				frappe.throw(_("The recipient {0} needs an active user of this site.").format(frappe.bold(name)))
			self._check_url(row.webhook_url, _("The webhook URL of the recipient {0}").format(frappe.bold(name)))

	def _check_credentials(self, schema: list[dict]):
		known = {item["key"]: item for item in schema}
		seen = set()
		for row in self.credentials:
			if row.key not in known:
				takes = ", ".join(known) or _("none")
				frappe.throw(_("The service {0} takes no credential {1}. It takes: {2}.").format(self.service, frappe.bold(row.key), takes))
			if row.key in seen:
				frappe.throw(_("The credential {0} is given twice.").format(frappe.bold(row.key)))
			seen.add(row.key)
			if row.key == "webhook_url":
				self._check_url(row.value, _("The webhook URL"))
		for key, item in known.items():
			if item.get("required") and not any(row.key == key and row.value for row in self.credentials):
				frappe.throw(_("{0} is needed for {1}.").format(frappe.bold(item.get("label") or key), self.service))

	def _check_url(self, value: str | None, subject: str):
		"""A newly typed webhook URL: a web address whose host Huf may reach (the send checks again)."""
		if not value or self.is_dummy_password(value):
			return
		from huf.ai.outbound import check_address

		if urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).hostname:
			frappe.throw(_("{0} must start with https:// (or http://).").format(subject))
		check_address(value, subject, _("messages"))

	def on_update(self):
		if self.is_default:
			others = {"service": self.service, "is_default": 1, "name": ("!=", self.name)}
			for name in frappe.get_all("Integration Settings", filters=others, pluck="name"):
				frappe.db.set_value("Integration Settings", name, "is_default", 0)
