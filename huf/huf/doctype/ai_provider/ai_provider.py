# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from urllib.parse import urlparse

import frappe
from frappe import _
from frappe.model.document import Document


class AIProvider(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		api_base: DF.Data | None
		api_key: DF.Password | None
		description: DF.SmallText | None
		provider_name: DF.Data

	# end: auto-generated types

	def validate(self):
		self.provider_name = (self.provider_name or "").strip()
		self.api_base = normalize_url(self.api_base, _("API Base"))


def normalize_url(value: str | None, label: str) -> str | None:
	"""``value`` without surrounding spaces and trailing slashes; an error a Desk user can act on when
	it is not an http(s) URL. Empty stays empty."""
	value = (value or "").strip()
	if not value:
		return None
	parsed = urlparse(value)
	if parsed.scheme not in ("http", "https") or not parsed.netloc or " " in value:
		frappe.throw(
			_("{0} must be a full URL that starts with http:// or https://, e.g. http://localhost:11434. {1} is not.").format(
				label, frappe.bold(value)
			),
			title=_("Invalid URL"),
		)
	try:
		parsed.port  # noqa: B018 - raises ValueError for a port that is not a number
	except ValueError:
		frappe.throw(_("The port in {0} is not a number.").format(frappe.bold(value)), title=_("Invalid URL"))
	return value.rstrip("/")
