"""The one interface every backend keeps (``open.py`` picks the backend for a source)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from huf.ai.engine.knowledge.types import Chunk, Hit


class Backend(ABC):
	"""One source's index. Writers call ``add`` and ``delete_input``; readers ``search`` and
	``head``. Scores are the backend's own (higher is better) and only comparable within it."""

	@abstractmethod
	def add(self, chunks: list[Chunk]) -> None:
		"""Store passages; a passage whose id is already stored replaces it."""

	@abstractmethod
	def delete_input(self, input_id: str) -> int:
		"""Remove every passage of one input; returns how many were removed."""

	@abstractmethod
	def search(self, query: str, k: int = 5) -> list[Hit]:
		"""The best ``k`` passages for ``query``, best first."""

	@abstractmethod
	def head(self, limit: int) -> list[Chunk]:
		"""The opening passages: every input's first passage (inputs by id), then every second one, and so on."""

	@abstractmethod
	def count(self) -> int:
		"""How many passages are stored."""

	@abstractmethod
	def drop(self) -> None:
		"""Delete the whole index (its tables or collection); the backend is closed afterwards."""

	@abstractmethod
	def close(self) -> None:
		"""Release connections; safe to call twice."""

