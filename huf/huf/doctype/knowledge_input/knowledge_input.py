# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import hashlib
from urllib.parse import urlparse

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.knowledge import indexer

CONTENT_FIELDS = {"File": "file", "Text": "text", "URL": "url"}


class KnowledgeInput(Document):
	def validate(self):
		field = CONTENT_FIELDS[self.input_type]
		if not (self.get(field) or "").strip():
			frappe.throw(_("A {0} input needs its {1}.").format(_(self.input_type), self.meta.get_label(field)))
		for other in set(CONTENT_FIELDS.values()) - {field}:
			self.set(other, None)
		if self.input_type == "URL":
			parsed = urlparse(self.url.strip())
			if parsed.scheme not in ("http", "https") or not parsed.netloc:
				frappe.throw(_("{0} is not a web address; enter one that starts with https://.").format(frappe.bold(self.url)))
			self.url = self.url.strip()
		self.title = (self.title or "").strip() or self.default_title()
		if self.content_changed():
			self.status, self.error, self.duplicate_of = "Pending", None, None
			if self.input_type == "Text":
				self.source_hash = hashlib.sha256(self.text.encode()).hexdigest()

	def default_title(self) -> str:
		if self.input_type == "File":
			return self.file.rsplit("/", 1)[-1]
		if self.input_type == "URL":
			return self.url
		words = " ".join(self.text.split()[:8])
		return words[:60] or _("Pasted text")

	def content_changed(self) -> bool:
		before = self.get_doc_before_save()
		return not before or before.get(CONTENT_FIELDS[self.input_type]) != self.get(CONTENT_FIELDS[self.input_type])

	def on_update(self):
		if self.status == "Pending":
			indexer.enqueue(self.knowledge_source)

	def on_trash(self):
		indexer.remove_input(self.knowledge_source, self.name)
