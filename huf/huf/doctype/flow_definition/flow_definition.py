# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe.model.document import Document
from frappe.utils import now_datetime

from huf.ai.flow import definitions


class FlowDefinition(Document):
	"""A flow's graph (React Flow compatible JSON). Saving checks the whole graph; a save that changes
	it raises the version and keeps the new graph as a Flow Definition Version."""

	def validate(self):
		definition = definitions.check(self)
		before = self.get_doc_before_save()
		old = definitions.canonical(definitions.parsed(before.definition_json)) if before else None
		self.definition_json = definition  # with its id filled in
		self.schema_version = definition.get("schema_version") or 1
		self.graph_changed = old != definitions.canonical(definition)
		if self.graph_changed:
			self.version = (self.version or 0) + 1
			self.updated_by, self.updated_at = frappe.session.user, now_datetime()

	def on_update(self):
		if self.graph_changed:
			definitions.keep_version(self)
		self.db_set("version_note", None, update_modified=False)  # a note belongs to the version it was saved with

	def on_trash(self):
		frappe.db.delete("Flow Definition Version", {"flow_definition": self.name})
		frappe.db.delete("__Auth", {"doctype": "Flow Definition", "name": self.name})  # its webhook secrets
