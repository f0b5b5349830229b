"""Knowledge backends: indexing throughput and search latency, per backend.

1. Indexing: 2,000 pages of generated text are chunked (512 characters, overlap 50) and stored;
   chunks/s counts storing only. For the vector backends the passages are embedded through LiteLLM
   by the scripted OpenAI-compatible server (384-d) and that time is reported on its own line.
2. Search: p50/p95 of one query against 10k and 100k stored passages. Vectors for these corpora
   come from a local generator (embedding 100k passages over HTTP would measure the scripted
   server); the query's vector is computed before the clock starts, and one query embedding over
   HTTP is measured separately. The vectors cluster by topic, as real embeddings do. For the vector
   backends it also prints how often a query close to one stored passage finds it in the top 5,
   and recall@5 against exact search.

    python benchmarks/knowledge_backends.py [--pages 2000] [--sizes 10000,100000] [--queries 200]
        [--backends sqlite_fts,sqlite_vec,chroma]   (--pages 0: search only)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from huf.ai.engine.knowledge.backends.open import open_backend
from huf.ai.engine.knowledge.chunking import chunk_document
from huf.ai.engine.knowledge.embed import make_embedder
from huf.ai.engine.knowledge.types import Chunk, Document, Segment, StoreConfig
from tests.support.scripted_llm import ScriptedLLM

DIM = 384
BATCH = 64
rng = random.Random(7)
VOCAB = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10))) for _ in range(20_000)]
WEIGHTS = [1 / (i + 1) for i in range(len(VOCAB))]  # Zipf-like: a few words are everywhere


def words(n: int) -> list[str]:
	return rng.choices(VOCAB, weights=WEIGHTS, k=n)


def sentence() -> str:
	return " ".join(words(rng.randint(6, 18))).capitalize() + "."


def page() -> str:
	return " ".join(sentence() for _ in range(22))  # about 1,800 characters, a printed page


def config(kind: str, folder: str, name: str) -> StoreConfig:
	suffix = ".chroma" if kind == "chroma" else ".sqlite3"
	return StoreConfig(kind, os.path.join(folder, name + suffix), collection=f"bench-{name}", dimension=DIM)


class Timed:
	"""An embedder that adds up the time spent embedding."""

	def __init__(self, embed):
		self.embed, self.seconds = embed, 0.0

	def __call__(self, texts):
		start = time.perf_counter()
		try:
			return self.embed(texts)
		finally:
			self.seconds += time.perf_counter() - start


def unit(rows: np.ndarray) -> np.ndarray:
	return rows / np.linalg.norm(rows, axis=1, keepdims=True)


VECTORS = np.random.default_rng(5)  # one stream, so no two batches get the same vectors
TOPICS = unit(VECTORS.standard_normal((2000, DIM)).astype(np.float32))


def random_vectors(texts: list[str]) -> list[list[float]]:
	"""Vectors shaped like real embeddings, which cluster by topic: each is one of 2,000 topic
	directions plus noise (cosine about 0.8 to its topic, 0.64 to a passage on the same topic, 0 to
	others). Uniformly random vectors have no near neighbours to find and mislead about recall."""
	topics = TOPICS[VECTORS.integers(0, len(TOPICS), len(texts))]
	noise = unit(VECTORS.standard_normal((len(texts), DIM)).astype(np.float32))
	return unit(0.8 * topics + 0.6 * noise).tolist()


def indexing(kind: str, folder: str, chunks: list[Chunk], server: ScriptedLLM) -> None:
	embed = Timed(make_embedder("openai/bench-embed", api_key="sk-bench", api_base=server.base_url, dimension=DIM))
	backend = open_backend(config(kind, folder, "index"), embed)
	start = time.perf_counter()
	for i in range(0, len(chunks), BATCH):
		backend.add(chunks[i : i + BATCH])
	total = time.perf_counter() - start
	store = total - embed.seconds
	line = f"{kind:11} indexing {len(chunks):>6} chunks: {len(chunks) / store:8.0f} chunks/s stored"
	if kind != "sqlite_fts":
		line += f"; embedding {embed.seconds:.1f} s over HTTP ({len(chunks) / embed.seconds:.0f} chunks/s)"
	print(line, flush=True)
	backend.drop()


def corpus(n: int) -> list[Chunk]:
	return [
		Chunk(f"in{i // 50}:{i % 50}", f"in{i // 50}", i % 50, " ".join(words(80)), f"page {i % 50 + 1}", "bench")
		for i in range(n)
	]


def searching(kind: str, folder: str, chunks: list[Chunk], queries: list[str]) -> None:
	vectors = {q: random_vectors([q])[0] for q in queries}
	stored: list[list[float]] = []  # every passage's vector, in the order of ``chunks``

	def embed(texts: list[str]) -> list[list[float]]:
		if texts[0] in vectors:
			return [vectors[t] for t in texts]
		batch = random_vectors(texts)
		stored.extend(batch)
		return batch

	backend = open_backend(config(kind, folder, f"search{len(chunks)}"), embed)
	for i in range(0, len(chunks), 1000):
		backend.add(chunks[i : i + 1000])
	backend.search(queries[0], k=5)  # warm: the first query opens pages and indexes
	times = []
	for query in queries:
		start = time.perf_counter()
		backend.search(query, k=5)
		times.append((time.perf_counter() - start) * 1000)
	times.sort()
	p95 = times[int(len(times) * 0.95) - 1]
	print(f"{kind:11} search at {len(chunks):>6} chunks: p50 {statistics.median(times):6.2f} ms, p95 {p95:6.2f} ms", flush=True)
	if stored:
		recall(kind, backend, chunks, np.array(stored, dtype=np.float32), queries, vectors)
	backend.drop()


def recall(kind: str, backend, chunks: list[Chunk], matrix: np.ndarray, queries: list[str], vectors: dict) -> None:
	"""How often a query close to one stored passage (cosine 0.7, 0.5, 0.35: as a question is to the
	passage that answers it) gets that passage in its top 5; and recall@5 against exact cosine search
	for the timed queries."""
	rng = np.random.default_rng(11)
	found = {}
	for cosine in (0.7, 0.5, 0.35):
		targets = rng.integers(0, len(matrix), len(queries))
		noise = rng.standard_normal((len(queries), matrix.shape[1])).astype(np.float32)
		noise = unit(noise - (noise * matrix[targets]).sum(axis=1, keepdims=True) * matrix[targets])  # orthogonal to the target
		near = cosine * matrix[targets] + np.sqrt(1 - cosine**2) * noise
		hits = 0
		for i, (target, vector) in enumerate(zip(targets, near, strict=True)):
			vectors[name := f"near {cosine} {i}"] = vector.tolist()
			hits += chunks[target].id in {h.chunk.id for h in backend.search(name, k=5)}
		found[f"cosine {cosine}"] = hits / len(queries)
	shares = []
	for name in queries:
		exact = {chunks[j].id for j in np.argsort(-(matrix @ np.array(vectors[name], dtype=np.float32)))[:5]}
		shares.append(len(exact & {h.chunk.id for h in backend.search(name, k=5)}) / 5)
	print(
		f"{kind:11} at {len(chunks):>6} chunks: the passage a query is about is in the top 5 for "
		+ ", ".join(f"{k}: {v:.1%}" for k, v in found.items())
		+ f"; recall@5 of the timed queries {statistics.mean(shares):.3f}",
		flush=True,
	)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--pages", type=int, default=2000)
	parser.add_argument("--sizes", default="10000,100000")
	parser.add_argument("--queries", type=int, default=200)
	parser.add_argument("--backends", default="sqlite_fts,sqlite_vec,chroma")
	args = parser.parse_args()
	kinds = args.backends.split(",")
	chunks = []
	if args.pages:  # --pages 0 measures search only
		document = Document("bench.pdf", "pdf", [Segment(page(), f"page {i + 1}") for i in range(args.pages)])
		start = time.perf_counter()
		chunks = chunk_document(document, "bench", chunk_size=512, chunk_overlap=50)
		print(f"chunking {args.pages} pages: {len(chunks)} chunks in {time.perf_counter() - start:.1f} s", flush=True)
	queries = [" ".join(words(rng.randint(3, 6))) for _ in range(args.queries)]
	with ScriptedLLM(embedding_dim=DIM) as server, tempfile.TemporaryDirectory() as folder:
		one = make_embedder("openai/bench-embed", api_key="sk-bench", api_base=server.base_url, dimension=DIM)
		one(["warm up"])
		times = []
		for query in queries[:50]:
			t = time.perf_counter()
			one([query])
			times.append((time.perf_counter() - t) * 1000)
		print(f"one query embedding over HTTP (scripted server, LiteLLM): median {statistics.median(times):.1f} ms", flush=True)
		for kind in kinds if chunks else []:
			indexing(kind, folder, chunks, server)
		for size in [int(s) for s in args.sizes.split(",")]:
			stored = corpus(size)
			for kind in kinds:
				searching(kind, folder, stored, queries)


if __name__ == "__main__":
	main()
