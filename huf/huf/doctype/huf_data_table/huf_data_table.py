# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class HufDataTable(Document):
	"""The registry row of a data table; its rows live in the custom DocType ``doctype_name``
	("HF <table name>"). Created, changed and deleted only together with that DocType, by
	huf/ai/data_tables/api.py (a row deleted in Desk takes its DocType and rows with it)."""

	def on_trash(self):
		import frappe

		if self.doctype_name and frappe.db.exists("DocType", self.doctype_name) and not frappe.flags.huf_data_table_deleting:
			frappe.delete_doc("DocType", self.doctype_name, force=True, ignore_permissions=True)
