"""Chunking with LlamaIndex's SentenceSplitter: sizes in characters, overlap, and every passage
keeping its input, position and page."""

from __future__ import annotations

import itertools

import pytest

from huf.ai.engine.knowledge.chunking import chunk_document
from huf.ai.engine.knowledge.types import Document, KnowledgeError, Segment

SENTENCES = " ".join(f"Sentence number {i} talks about pump model P{i}." for i in range(60))


def test_passages_keep_their_page_and_run_in_order_across_pages():
	document = Document(
		"manual.pdf", "pdf", [Segment(SENTENCES, "page 1"), Segment("", "page 2"), Segment("Last words.", "page 3")]
	)
	chunks = chunk_document(document, "in1", chunk_size=300, chunk_overlap=40)
	assert [c.position for c in chunks] == list(range(len(chunks)))
	assert [c.id for c in chunks] == [f"in1:{i}" for i in range(len(chunks))]
	assert {c.locator for c in chunks[:-1]} == {"page 1"} and chunks[-1].locator == "page 3"
	assert chunks[-1].text == "Last words." and all(c.title == "manual.pdf" and c.input_id == "in1" for c in chunks)
	assert len(chunks) > 3 and all(len(c.text) <= 300 for c in chunks)


def test_neighbouring_passages_overlap_and_whole_sentences_are_kept():
	chunks = chunk_document(Document("t", "txt", [Segment(SENTENCES)]), "x", chunk_size=300, chunk_overlap=60)
	for before, after in itertools.pairwise(chunks):
		assert after.text[:20] in before.text  # the next passage starts inside the previous one
	assert all(c.text.endswith(".") for c in chunks)
	joined = " ".join(c.text for c in chunks)
	assert all(f"pump model P{i}." in joined for i in range(60))


def test_a_short_document_is_one_passage_and_no_overlap_means_none():
	assert [c.text for c in chunk_document(Document("t", "txt", [Segment("Just this.")]), "x")] == ["Just this."]
	chunks = chunk_document(Document("t", "txt", [Segment(SENTENCES)]), "x", chunk_size=300, chunk_overlap=0)
	assert sum(len(c.text) for c in chunks) <= len(SENTENCES)


@pytest.mark.parametrize(
	("size", "overlap", "says"), [(20, 0, "at least 50"), (100, 100, "less than Chunk Size"), (100, -1, "from 0")]
)
def test_impossible_sizes_are_refused(size, overlap, says):
	with pytest.raises(KnowledgeError, match=says):
		chunk_document(Document("t", "txt", [Segment(SENTENCES)]), "x", chunk_size=size, chunk_overlap=overlap)
