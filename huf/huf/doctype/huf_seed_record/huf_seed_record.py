# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class HufSeedRecord(Document):
	"""Written only by huf/ai/seeding.py: one per record an app's huf/ folder shipped."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		app: DF.Data
		app_hash: DF.Data | None
		record_hash: DF.Data | None
		reference_doctype: DF.Link
		reference_name: DF.DynamicLink | None
		seed_file: DF.Data | None
		seed_key: DF.Data
		seeded_fields: DF.JSON | None

	# end: auto-generated types
