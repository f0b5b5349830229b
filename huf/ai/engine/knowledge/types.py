"""The plain values knowledge passes around."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class KnowledgeError(ValueError):
	"""Something a Desk user can fix; the message says what was wrong and what to do."""


class ExtractError(KnowledgeError):
	"""A document that cannot be read (encrypted, corrupt, empty, too large, unknown kind)."""


@dataclass(frozen=True)
class Segment:
	"""A piece of a document and where it sits: "page 3", "slide 2", "sheet Sales", or "" for
	a document without pages."""

	text: str
	locator: str = ""


@dataclass(frozen=True)
class Document:
	title: str
	kind: str  # the extension it was read as: pdf, docx, xlsx, pptx, html, txt, md, ...
	segments: list[Segment] = field(default_factory=list)

	@property
	def text(self) -> str:
		return "\n\n".join(s.text for s in self.segments if s.text)


@dataclass(frozen=True)
class Chunk:
	"""One indexed piece of an input. ``id`` is ``f"{input_id}:{position}"``."""

	id: str
	input_id: str
	position: int  # order within its input, from 0
	text: str
	locator: str = ""  # page/slide/sheet, so an answer can cite it
	title: str = ""  # the input's title: file name, URL, or "Pasted text"


@dataclass(frozen=True)
class Hit:
	chunk: Chunk
	score: float  # the backend's own score, higher is better; only comparable within one backend
	source: str = ""  # the Knowledge Source it came from (set by the caller)


# texts -> one vector per text, in order
Embedder = Callable[[list[str]], list[list[float]]]


@dataclass(frozen=True)
class StoreConfig:
	"""Where and how one source's index lives."""

	kind: str  # "sqlite_fts" | "sqlite_vec" | "chroma"
	path: str  # the SQLite file, or the directory of a Chroma File-mode store
	collection: str = "huf"  # Chroma collection name
	dimension: int = 0  # vector backends
	chroma_mode: str = "File"  # "File" | "Server"
	chroma_host: str = "localhost"
	chroma_port: int = 8000
	chroma_ssl: bool = False
