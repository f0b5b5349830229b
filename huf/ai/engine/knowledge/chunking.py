"""Cut a document into passages with LlamaIndex's SentenceSplitter: sentences kept whole where
they fit, neighbours overlapping a little so a fact split across a boundary is still found.

Sizes count characters (the splitter's tokenizer is ``list``), so no tokenizer download is ever
needed. Each page, slide or sheet is split on its own, so every passage keeps where it came from."""

from __future__ import annotations

from huf.ai.engine.knowledge.types import Chunk, Document, KnowledgeError

MIN_CHUNK_SIZE = 50


def chunk_document(doc: Document, input_id: str, *, chunk_size: int = 512, chunk_overlap: int = 50) -> list[Chunk]:
	if chunk_size < MIN_CHUNK_SIZE:
		raise KnowledgeError(f"Chunk Size is {chunk_size}; set it to at least {MIN_CHUNK_SIZE} characters.")
	if not 0 <= chunk_overlap < chunk_size:
		raise KnowledgeError(f"Chunk Overlap must be from 0 to less than Chunk Size ({chunk_size}); it is {chunk_overlap}.")
	from llama_index.core.node_parser import SentenceSplitter

	splitter = SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, tokenizer=list)
	chunks: list[Chunk] = []
	for segment in doc.segments:
		for text in splitter.split_text(segment.text):
			if text.strip():
				position = len(chunks)
				chunks.append(Chunk(f"{input_id}:{position}", input_id, position, text.strip(), segment.locator, doc.title))
	return chunks
