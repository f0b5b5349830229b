"""Meaning search in Chroma: File mode keeps a persistent store in a folder of the site's private
files; Server mode talks to a Chroma server (host, port, SSL from the source). Huf computes the
embeddings itself, so Chroma never downloads a model; its telemetry is off."""

from __future__ import annotations

from huf.ai.engine.knowledge.backends.base import Backend
from huf.ai.engine.knowledge.types import Chunk, Embedder, Hit, KnowledgeError, StoreConfig


class ChromaBackend(Backend):
	def __init__(self, config: StoreConfig, embed: Embedder):
		import chromadb
		from chromadb.config import Settings

		self.embed = embed
		self.name = config.collection
		settings = Settings(anonymized_telemetry=False)
		try:
			if config.chroma_mode == "Server":
				self.client = chromadb.HttpClient(
					host=config.chroma_host, port=config.chroma_port, ssl=config.chroma_ssl, settings=settings
				)
			else:
				self.client = chromadb.PersistentClient(path=config.path, settings=settings)
			self.collection = self.client.get_or_create_collection(
				self.name, embedding_function=None, metadata={"hnsw:space": "cosine"}
			)
		except Exception as error:
			where = (
				f"the Chroma server at {config.chroma_host}:{config.chroma_port}"
				if config.chroma_mode == "Server"
				else "the Chroma store"
			)
			raise KnowledgeError(
				f"Could not open {where} ({type(error).__name__}: {error}). Check that it is running and reachable."
			) from None

	def add(self, chunks: list[Chunk]) -> None:
		if not chunks:
			return
		self.collection.upsert(
			ids=[c.id for c in chunks],
			embeddings=self.embed([c.text for c in chunks]),
			documents=[c.text for c in chunks],
			metadatas=[{"input_id": c.input_id, "position": c.position, "locator": c.locator, "title": c.title} for c in chunks],
		)

	def delete_input(self, input_id: str) -> int:
		found = self.collection.get(where={"input_id": input_id}, include=[])["ids"]
		if found:
			self.collection.delete(ids=found)
		return len(found)

	def search(self, query: str, k: int = 5) -> list[Hit]:
		if not (query or "").strip() or not self.collection.count():
			return []
		result = self.collection.query(
			query_embeddings=self.embed([query]), n_results=k, include=["documents", "metadatas", "distances"]
		)
		rows = zip(result["ids"][0], result["documents"][0], result["metadatas"][0], result["distances"][0], strict=True)
		return [Hit(_chunk(id_, text, meta), 1.0 - distance) for id_, text, meta, distance in rows]

	def head(self, limit: int) -> list[Chunk]:
		found = self.collection.get(where={"position": {"$lt": limit}}, include=["documents", "metadatas"])
		chunks = [_chunk(*row) for row in zip(found["ids"], found["documents"], found["metadatas"], strict=True)]
		return sorted(chunks, key=lambda c: (c.position, c.input_id))[:limit]

	def count(self) -> int:
		return self.collection.count()

	def drop(self) -> None:
		try:
			self.client.delete_collection(self.name)
		finally:
			self.close()

	def drop_others(self, prefix: str) -> list[str]:
		"""Delete every other collection whose name starts with ``prefix`` (on a server: the older or
		half-built generations of this source); returns their names."""
		names = [c if isinstance(c, str) else c.name for c in self.client.list_collections()]
		stale = sorted(n for n in names if n.startswith(prefix) and n != self.name)
		for name in stale:
			self.client.delete_collection(name)
		return stale

	def close(self) -> None:
		close = getattr(self.client, "close", None)
		if close is not None:
			try:
				close()
			except Exception:
				pass


def _chunk(id_: str, text: str, meta: dict) -> Chunk:
	return Chunk(
		id=id_,
		input_id=str(meta.get("input_id", "")),
		position=int(meta.get("position", 0)),
		text=text or "",
		locator=str(meta.get("locator", "")),
		title=str(meta.get("title", "")),
	)
