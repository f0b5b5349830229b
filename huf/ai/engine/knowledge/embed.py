"""Embeddings through LiteLLM: any provider it knows, including a local OpenAI-compatible server
(Ollama, LM Studio, llama.cpp, vLLM) that works offline. The key is passed per call and never
appears in an error message."""

from __future__ import annotations

from huf.ai.engine import pinned
from huf.ai.engine.knowledge.types import Embedder, KnowledgeError
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm_errors import checked_failure, scrub


def make_embedder(
	model: str,
	*,
	api_key: str | None = None,
	api_base: str | None = None,
	allowed_hosts: frozenset[str] | None = None,
	dimension: int = 0,
	batch_size: int = 64,
	timeout: float = 60,
) -> Embedder:
	client = pinned.client_for(model, api_base, api_key, allowed_hosts, timeout)  # checked as it connects
	extra = {"client": client} if client is not None else {}

	def embed(texts: list[str]) -> list[list[float]]:
		vectors: list[list[float]] = []
		for start in range(0, len(texts), batch_size):
			vectors += _batch(texts[start : start + batch_size])
		return vectors

	def _batch(texts: list[str]) -> list[list[float]]:
		failure = None
		try:
			response = load_litellm().embedding(model=model, input=texts, api_key=api_key, api_base=api_base, timeout=timeout, **extra)
		except Exception as error:  # noqa: BLE001 - said in words, with the key scrubbed out
			said = checked_failure(error) or error  # an address refused as it was connected to says so
			failure = KnowledgeError(f"The embedding model {model} failed: {scrub(str(said), api_key)[:400]}")
		if failure is not None:  # raised out here, so not even __context__ leads back to the key
			raise failure
		rows = sorted(response.data, key=lambda row: row["index"])
		vectors = [list(row["embedding"]) for row in rows]
		if len(vectors) != len(texts):
			raise KnowledgeError(f"The embedding model {model} returned {len(vectors)} vectors for {len(texts)} texts.")
		size = len(vectors[0]) if vectors else 0
		if dimension and size != dimension:
			raise KnowledgeError(
				f"The embedding model {model} returned {size} numbers per text, but the source says {dimension}. Set Vector Dimension to {size}."
			)
		return vectors

	return embed
