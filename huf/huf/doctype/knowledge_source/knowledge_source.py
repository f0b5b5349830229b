# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.knowledge import indexer, store

# A change to any of these makes the stored index wrong: the source is rebuilt.
INDEX_FIELDS = (
	"knowledge_type",
	"chunk_size",
	"chunk_overlap",
	"embedding_provider",
	"embedding_model",
	"vector_dimension",
	"chroma_mode",
	"chroma_host",
	"chroma_port",
	"chroma_ssl",
)
EMBEDDING_FIELDS = ("knowledge_type", "embedding_provider", "embedding_model", "vector_dimension")


class KnowledgeSource(Document):
	def before_insert(self):
		self.index_generation = frappe.generate_hash(length=10)

	def validate(self):
		self.chunk_size = self.chunk_size or 512
		self.chunk_overlap = 50 if self.chunk_overlap is None else self.chunk_overlap
		if not 64 <= self.chunk_size <= 8000:
			frappe.throw(_("Chunk Size must be between 64 and 8000 characters; it is {0}.").format(self.chunk_size))
		if not 0 <= self.chunk_overlap < self.chunk_size:
			frappe.throw(_("Chunk Overlap must be at least 0 and smaller than the Chunk Size ({0}).").format(self.chunk_size))
		if self.knowledge_type in store.VECTOR_KINDS:
			self.validate_embedding()
		if self.knowledge_type == "chroma" and self.chroma_mode == "Server" and not (self.chroma_host and self.chroma_port):
			frappe.throw(_("A Chroma server needs its Chroma Host and Chroma Port."))

	def validate_embedding(self):
		missing = [
			label
			for field, label in (("embedding_provider", _("Embedding Provider")), ("embedding_model", _("Embedding Model")))
			if not self.get(field)
		]
		if missing or not (self.vector_dimension or 0) > 0:
			frappe.throw(
				_(
					"{0} searches by meaning, so it needs an Embedding Provider, an Embedding Model and a Vector Dimension above 0. "
					"Fill them in, or choose sqlite_fts to search by words without an embedding model."
				).format(self.knowledge_type),
				title=_("Embedding model needed"),
			)
		before = self.get_doc_before_save()
		if before and all(before.get(f) == self.get(f) for f in EMBEDDING_FIELDS):
			return
		indexer.check_embedding(self)

	def on_update(self):
		before = self.get_doc_before_save()
		if (
			before
			and any(before.get(f) != self.get(f) for f in INDEX_FIELDS)
			and frappe.db.exists("Knowledge Input", {"knowledge_source": self.name})
		):
			indexer.enqueue_rebuild(self.name)

	def on_trash(self):
		frappe.db.delete("Knowledge Input", {"knowledge_source": self.name})
		frappe.db.after_commit.add(lambda: store.drop_all(self))
