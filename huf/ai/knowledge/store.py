"""Where a source's index lives and how to open it."""

from __future__ import annotations

import hashlib
import os
import re
import shutil

import frappe
from frappe import _

from huf.ai.engine.knowledge.backends.base import Backend
from huf.ai.engine.knowledge.backends.open import open_backend
from huf.ai.engine.knowledge.embed import make_embedder
from huf.ai.engine.knowledge.types import Embedder, StoreConfig
from huf.ai.engine.llm import normalize_model_name
from huf.ai.models import provider_spec

VECTOR_KINDS = ("sqlite_vec", "chroma")
FILE_SUFFIXES = (".sqlite3", ".sqlite3-wal", ".sqlite3-shm", ".chroma")  # what a generation keeps on disk


def folder(source_name: str) -> str:
	"""The source's folder under the site's private files: reachable by no URL, because Frappe
	serves a private file only through a File record and none is made for these."""
	slug = re.sub(r"[^A-Za-z0-9_-]+", "_", source_name)[:60]
	digest = hashlib.sha1(source_name.encode()).hexdigest()[:8]
	return frappe.get_site_path("private", "files", "knowledge", f"{slug}-{digest}")


def config_for(source, generation: str | None = None) -> StoreConfig:
	generation = generation or source.index_generation or "g0"
	base = os.path.join(folder(source.name), generation)
	kind = source.knowledge_type or "sqlite_fts"
	return StoreConfig(
		kind=kind,
		path=base + (".chroma" if kind == "chroma" else ".sqlite3"),
		collection=_collection(source.name, generation),
		dimension=int(source.vector_dimension or 0),
		chroma_mode=source.chroma_mode or "File",
		chroma_host=source.chroma_host or "localhost",
		chroma_port=int(source.chroma_port or 8000),
		chroma_ssl=bool(source.chroma_ssl),
	)


def _collection(source_name: str, generation: str) -> str:
	# Chroma names: 3-63 characters of [a-zA-Z0-9._-], starting and ending alphanumeric.
	site = re.sub(r"[^A-Za-z0-9]+", "-", frappe.local.site)[:20].strip("-")
	digest = hashlib.sha1(source_name.encode()).hexdigest()[:10]
	return f"huf-{site}-{digest}-{generation}"


def embedder_for(source) -> Embedder | None:
	"""The source's embedding function, with its provider's key decrypted for this process only."""
	if source.knowledge_type not in VECTOR_KINDS:
		return None
	if not source.embedding_provider or not source.embedding_model:
		frappe.throw(
			_("The knowledge source {0} searches by meaning and needs an Embedding Provider and an Embedding Model.").format(
				frappe.bold(source.name)
			)
		)
	spec = provider_spec(frappe.get_cached_doc("AI Provider", source.embedding_provider), source.embedding_model)
	model = normalize_model_name(spec.model, spec.provider, spec.api_base)
	if model.startswith("ollama_chat/"):  # chat models go through ollama_chat/, embeddings through ollama/
		model = "ollama/" + model.removeprefix("ollama_chat/")
	return make_embedder(
		model, api_key=spec.api_key, api_base=spec.api_base, allowed_hosts=spec.allowed_hosts, dimension=int(source.vector_dimension or 0)
	)


def open_index(source, generation: str | None = None) -> Backend:
	config = config_for(source, generation)
	if config.kind != "chroma" or config.chroma_mode == "File":
		os.makedirs(os.path.dirname(config.path), exist_ok=True)
	return open_backend(config, embedder_for(source))


def drop_generation(source, generation: str) -> None:
	"""Remove one generation of the index (its file, directory or Chroma collection)."""
	try:
		index = open_index(source, generation)
		index.drop()
		index.close()
	except Exception:
		frappe.log_error(title=f"Huf: could not remove an old index of {source.name}")
	base = os.path.join(folder(source.name), generation)
	for path in [base + suffix for suffix in FILE_SUFFIXES]:  # any kind's files: the kind may have changed since
		if os.path.isdir(path):
			shutil.rmtree(path, ignore_errors=True)
		elif os.path.isfile(path):
			os.remove(path)


def drop_orphans(source) -> None:
	"""Remove the generations that are not live (files, folders, or collections on a Chroma server):
	what a rebuild left when its worker died mid-way. Call it only while no job holds the source's
	lock."""
	live, base = source.index_generation or "g0", folder(source.name)
	if source.knowledge_type == "chroma" and source.chroma_mode == "Server":
		index = open_index(source)
		try:
			index.drop_others(_collection(source.name, ""))
		finally:
			index.close()
	entries = os.listdir(base) if os.path.isdir(base) else []
	on_disk = {entry.removesuffix(suffix) for entry in entries for suffix in FILE_SUFFIXES if entry.endswith(suffix)}
	for generation in sorted(on_disk - {live}):
		drop_generation(source, generation)


def drop_all(source) -> None:
	"""Everything the source keeps: its folder, and its collection on a Chroma server."""
	if source.knowledge_type == "chroma" and source.chroma_mode == "Server" and source.index_generation:
		drop_generation(source, source.index_generation)
	shutil.rmtree(folder(source.name), ignore_errors=True)
