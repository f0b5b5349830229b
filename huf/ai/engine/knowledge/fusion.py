"""Reciprocal rank fusion: merge ranked lists from different sources by rank, not by score.

BM25 scores and cosine similarities live on different scales, so adding or comparing them would
let one backend drown out the others. Each passage instead gets ``sum(1 / (k + rank))`` over the
lists it appears in (Cormack et al., 2009; k = 60)."""

from __future__ import annotations

from huf.ai.engine.knowledge.types import Hit


def rrf(ranked_lists: list[list[Hit]], *, k: int = 60, limit: int = 10) -> list[Hit]:
	scores: dict[tuple[str, str], float] = {}
	first: dict[tuple[str, str], Hit] = {}
	for hits in ranked_lists:
		for rank, hit in enumerate(hits, 1):
			key = (hit.source, hit.chunk.id)
			scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
			first.setdefault(key, hit)
	order = sorted(scores, key=lambda key: -scores[key])  # stable: ties keep the order first seen
	return [Hit(first[key].chunk, scores[key], first[key].source) for key in order[:limit]]
