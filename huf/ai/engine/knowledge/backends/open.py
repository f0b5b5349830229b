"""``open_backend``: the backend a ``StoreConfig`` names, opened. Each backend imports its heavy
library (chromadb, sqlite-vec) only when it is opened."""

from __future__ import annotations

from huf.ai.engine.knowledge.backends.base import Backend
from huf.ai.engine.knowledge.backends.chroma import ChromaBackend
from huf.ai.engine.knowledge.backends.sqlite_fts import FtsBackend
from huf.ai.engine.knowledge.backends.sqlite_vec import VecBackend
from huf.ai.engine.knowledge.types import Embedder, KnowledgeError, StoreConfig

KINDS = ("sqlite_fts", "sqlite_vec", "chroma")


def open_backend(config: StoreConfig, embed: Embedder | None = None) -> Backend:
	if config.kind == "sqlite_fts":
		return FtsBackend(config.path)
	if config.kind not in KINDS:
		raise KnowledgeError(f"Unknown knowledge type {config.kind!r}; choose one of {', '.join(KINDS)}.")
	if embed is None or config.dimension <= 0:
		raise KnowledgeError("Searching by meaning needs an embedding model and its vector dimension.")
	if config.kind == "sqlite_vec":
		return VecBackend(config.path, embed, config.dimension)
	return ChromaBackend(config, embed)
