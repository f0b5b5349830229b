"""Each backend stores and searches real passages: FTS5 and sqlite-vec files, a Chroma store on
disk and a real Chroma server; vectors come from the scripted embedding server over HTTP."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import replace

import pytest

from huf.ai.engine.knowledge.backends.open import open_backend
from huf.ai.engine.knowledge.embed import make_embedder
from huf.ai.engine.knowledge.fts_query import sanitize
from huf.ai.engine.knowledge.fusion import rrf
from huf.ai.engine.knowledge.types import Chunk, Hit, KnowledgeError, StoreConfig
from tests.support.ports import free_port, wait_for_port

PASSAGES = {
	"refunds": ["Refunds are paid within 14 days of a return.", "A refund needs the original receipt."],
	"shipping": ["Orders ship from the Rotterdam warehouse.", "Express shipping arrives the next working day."],
	"cafe": ["The café opens at eight and serves crème brûlée."],
}


def chunks_of(input_id: str) -> list[Chunk]:
	return [
		Chunk(f"{input_id}:{i}", input_id, i, text, f"page {i + 1}", f"{input_id}.pdf")
		for i, text in enumerate(PASSAGES[input_id])
	]


def fill(backend) -> None:
	for input_id in PASSAGES:
		backend.add(chunks_of(input_id))


@pytest.fixture
def embedder(llm):
	"""64-d hashed word vectors from the scripted server: passages sharing words with the query
	come first."""
	before, llm.embedding_dim = llm.embedding_dim, 64
	yield make_embedder("openai/scripted-embed", api_key="sk-test-secret", api_base=llm.base_url, dimension=64)
	llm.embedding_dim = before


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
	"""A real Chroma server (the `chroma run` that ships with chromadb) on a free port."""
	chroma = shutil.which("chroma") or os.path.join(os.path.dirname(os.sys.executable), "chroma")
	port = free_port()
	proc = subprocess.Popen(
		[chroma, "run", "--path", str(tmp_path_factory.mktemp("chroma-server")), "--port", str(port), "--host", "127.0.0.1"],
		stdout=subprocess.DEVNULL,
		stderr=subprocess.DEVNULL,
	)
	if not wait_for_port(port, 60):
		proc.kill()
		pytest.fail("the Chroma server did not start within 60 s")
	yield port
	proc.terminate()
	proc.wait(timeout=30)


def configs(tmp_path, llm, port=None) -> dict[str, StoreConfig]:
	dim = llm.embedding_dim
	out = {
		"sqlite_fts": StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")),
		"sqlite_vec": StoreConfig("sqlite_vec", str(tmp_path / "vec.sqlite3"), dimension=dim),
		"chroma_file": StoreConfig(
			"chroma", str(tmp_path / "store.chroma"), collection=f"huf-test-{tmp_path.name[-20:]}", dimension=dim
		),
	}
	if port:
		out["chroma_server"] = StoreConfig(
			"chroma",
			"",
			collection=f"huf-srv-{tmp_path.name[-20:]}",
			dimension=dim,
			chroma_mode="Server",
			chroma_host="127.0.0.1",
			chroma_port=port,
		)
	return out


@pytest.mark.parametrize("kind", ["sqlite_fts", "sqlite_vec", "chroma_file", "chroma_server"])
def test_each_backend_stores_searches_and_deletes(kind, tmp_path, llm, embedder, chroma_server):
	config = configs(tmp_path, llm, chroma_server)[kind]
	backend = open_backend(config, embedder)
	try:
		fill(backend)
		assert backend.count() == 5
		hits = backend.search("refunds are paid within days", k=3)
		assert hits[0].chunk.id == "refunds:0"
		assert hits[0].chunk.locator == "page 1" and hits[0].chunk.title == "refunds.pdf"
		assert hits == sorted(hits, key=lambda h: -h.score)
		assert [c.id for c in backend.head(4)] == ["cafe:0", "refunds:0", "shipping:0", "refunds:1"]

		backend.add(chunks_of("refunds"))  # the same ids again replace, never duplicate
		assert backend.count() == 5
		assert backend.delete_input("refunds") == 2
		assert backend.count() == 3
		assert all(h.chunk.input_id != "refunds" for h in backend.search("refund paid days", k=5))
		backend.close()
		reopened = open_backend(config, embedder)  # what was stored survives a new process
		assert reopened.count() == 3
		reopened.drop()
	finally:
		backend.close()


def test_fts_folds_diacritics_and_ranks_rare_words_first(tmp_path):
	backend = open_backend(StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")))
	fill(backend)
	assert [h.chunk.id for h in backend.search("cafe creme brulee", k=1)] == ["cafe:0"]
	assert backend.search("Rotterdam", k=5)[0].chunk.id == "shipping:0"
	assert backend.search("", k=5) == [] and backend.search("?!", k=5) == []
	backend.drop()
	assert not os.path.exists(tmp_path / "fts.sqlite3")


HOSTILE = [
	'"unbalanced quote',
	"refund NEAR(shipping, 2)",
	"text: refund",
	"title:refunds.pdf",
	"refund AND OR NOT",
	"^refund*",
	"(refund",
	"refund) OR 1=1; DROP TABLE chunks; --",
	"'; SELECT * FROM chunks --",
	"\uff52\uff45\uff46\uff55\uff4e\uff44 退款 Rückerstattung"  # full-width letters, Chinese, German,
	"\x00\u202e\ufeff",
	"NEAR",
	"*",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_fts_query_language_cannot_be_injected(query, tmp_path):
	backend = open_backend(StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")))
	fill(backend)
	backend.search(query, k=5)  # never an FTS5 syntax error
	assert backend.count() == 5
	match = sanitize(query)
	assert all(term.startswith('"') and term.endswith('"') for term in match.split(" OR ") if match)
	assert ":" not in match.replace('" OR "', "") and "(" not in match and "*" not in match


def test_fts_words_in_any_script_are_searched(tmp_path):
	backend = open_backend(StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")))
	backend.add([Chunk("a:0", "a", 0, "Rückerstattung innerhalb von 14 Tagen"), Chunk("b:0", "b", 0, "退款 政策")])
	assert backend.search("rückerstattung?", k=1)[0].chunk.id == "a:0"
	assert sanitize('he said "NEAR" title:x') == '"he" OR "said" OR "near" OR "title" OR "x"'


def test_vector_backends_embed_in_batches_and_never_send_the_key_back(tmp_path, llm):
	embed = make_embedder(
		"openai/scripted-embed", api_key="sk-test-secret", api_base=llm.base_url, dimension=llm.embedding_dim, batch_size=2
	)
	backend = open_backend(StoreConfig("sqlite_vec", str(tmp_path / "vec.sqlite3"), dimension=llm.embedding_dim), embed)
	fill(backend)
	sizes = [len(r["body"]["input"]) for r in llm.requests if r["path"].endswith("/embeddings")]
	assert sizes == [2, 2, 1]
	assert llm.requests[0]["headers"]["authorization"] == "Bearer sk-test-secret"
	llm.embedding_failure = (
		401,
		{"error": {"message": "Incorrect API key provided: sk-test-secret", "type": "invalid_request_error"}},
	)
	with pytest.raises(KnowledgeError) as error:
		backend.search("refund", k=1)
	assert "sk-test-secret" not in str(error.value) and "scripted-embed" in str(error.value)
	link = error.value  # nor in any exception it leads back to (a logged traceback would print them)
	while link is not None:
		assert "sk-test-secret" not in str(link), type(link).__name__
		link = link.__cause__ or link.__context__
	backend.close()


def test_an_embedding_api_base_given_the_sites_allow_list_is_checked_as_it_is_connected_to(llm):
	"""engine/pinned.py: with the allow-list, embeddings connect through safe_http too."""
	allowed = make_embedder("openai/scripted-embed", api_key="sk-test-secret", api_base=llm.base_url, allowed_hosts=frozenset({"127.0.0.1"}))
	assert len(allowed(["hello", "world"])) == 2
	sent = len(llm.requests)
	refused = make_embedder("openai/scripted-embed", api_key="sk-test-secret", api_base=llm.base_url, allowed_hosts=frozenset())
	with pytest.raises(KnowledgeError, match="points to 127.0.0.1, a private address") as error:
		refused(["hello"])
	assert len(llm.requests) == sent and "sk-test-secret" not in str(error.value)


def test_a_wrong_vector_dimension_says_which_to_set(tmp_path, llm):
	embed = make_embedder("openai/scripted-embed", api_base=llm.base_url, api_key="x", dimension=384)
	with pytest.raises(
		KnowledgeError,
		match=f"returned {llm.embedding_dim} numbers per text, but the source says 384. Set Vector Dimension to {llm.embedding_dim}",
	):
		embed(["hello"])


def test_a_vector_index_refuses_another_dimension(tmp_path, embedder):
	path = str(tmp_path / "vec.sqlite3")
	open_backend(StoreConfig("sqlite_vec", path, dimension=64), embedder).close()
	with pytest.raises(KnowledgeError, match="rebuild the index"):
		open_backend(StoreConfig("sqlite_vec", path, dimension=16), embedder)


def test_vector_kinds_need_an_embedder_and_an_unreachable_chroma_server_is_explained(tmp_path):
	with pytest.raises(KnowledgeError, match="embedding model"):
		open_backend(StoreConfig("sqlite_vec", str(tmp_path / "v.sqlite3"), dimension=8))
	config = StoreConfig(
		"chroma", "", collection="huf-x", dimension=8, chroma_mode="Server", chroma_host="127.0.0.1", chroma_port=free_port()
	)
	with pytest.raises(KnowledgeError, match=r"Chroma server at 127\.0\.0\.1:\d+"):
		open_backend(config, lambda texts: [[0.0] * 8 for _ in texts])


def hit(source: str, chunk_id: str) -> Hit:
	return Hit(Chunk(chunk_id, chunk_id.split(":")[0], 0, chunk_id), 0.0, source)


def test_rrf_merges_by_rank_not_by_score():
	bm25 = [Hit(hit("A", "x:0").chunk, 42.0, "A"), Hit(hit("A", "y:0").chunk, 40.0, "A")]
	cosine = [Hit(hit("B", "z:0").chunk, 0.9, "B"), Hit(hit("B", "w:0").chunk, 0.1, "B")]
	merged = rrf([bm25, cosine], limit=4)
	assert [(h.source, h.chunk.id) for h in merged] == [("A", "x:0"), ("B", "z:0"), ("A", "y:0"), ("B", "w:0")]
	assert merged[0].score == pytest.approx(1 / 61)


def test_rrf_adds_up_a_passage_found_twice_and_keeps_sources_apart():
	first = [hit("A", "x:0"), hit("A", "y:0")]
	second = [hit("A", "y:0"), hit("A", "x:1")]
	other_source_same_id = [hit("B", "x:0")]
	merged = rrf([first, second, other_source_same_id], limit=10)
	assert merged[0].chunk.id == "y:0" and merged[0].score == pytest.approx(1 / 62 + 1 / 61)
	assert [(h.source, h.chunk.id) for h in merged].count(("B", "x:0")) == 1
	assert len(merged) == 4
	assert len(rrf([first, second], limit=1)) == 1


def test_words_in_most_passages_are_left_out_while_rarer_ones_remain():
	from huf.ai.engine.knowledge.fts_query import FALLBACK_CAP, plan

	doc_freq = {"pump": 40, "model": 90_000, "service": 3_000}
	assert plan(["pump", "model", "service"], doc_freq, 100_000) == ('"pump"', ["model", "service"], None)
	assert plan(["model", "service"], doc_freq, 100_000) == ('"model" OR "service"', [], FALLBACK_CAP)
	assert plan(["model", "service"], doc_freq, 10_000_000) == ('"service"', ["model"], None)  # 0.5% of 10M is 50,000
	assert plan(["unknown"], doc_freq, 100_000) == ("", [], None)


def test_a_search_of_only_common_words_still_ranks_passages(tmp_path):
	backend = open_backend(StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")))
	texts = ["common words everywhere"] * 3000
	texts[10] = "rare pump notes"  # the rare word alone
	texts[20] = "rare pump notes with common words"  # the rare word and the common ones
	backend.add([Chunk(f"a:{i}", "a", i, text) for i, text in enumerate(texts)])
	assert [h.chunk.id for h in backend.search("common words pump", k=2)] == ["a:20", "a:10"]
	assert len(backend.search("common words", k=3)) == 3  # only common words: still answered
	backend.close()


@pytest.mark.parametrize("kind", ["sqlite_fts", "sqlite_vec", "chroma_file"])
def test_real_files_are_extracted_chunked_indexed_and_found_with_their_page(kind, tmp_path, llm, embedder):
	from pathlib import Path

	from huf.ai.engine.knowledge.chunking import chunk_document
	from huf.ai.engine.knowledge.extract import extract
	from tests.engine.knowledge.test_knowledge_extract import pdf_pages

	fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "knowledge"
	files = {
		"manual.pdf": pdf_pages("Pumps need oil every month.", "Valves are replaced every year."),
		"handbook.html": (fixtures / "handbook.html").read_bytes(),
		"declaration.md": (fixtures / "declaration.md").read_bytes(),
	}
	backend = open_backend(configs(tmp_path, llm)[kind], embedder)
	try:
		for name, data in files.items():
			backend.add(chunk_document(extract(name, data), name, chunk_size=200, chunk_overlap=20))
		hit = backend.search("valves are replaced every year", k=1)[0]
		assert (hit.chunk.input_id, hit.chunk.locator) == ("manual.pdf", "page 2")
		assert backend.search("paid annual leave days employee", k=1)[0].chunk.title == "Staff Handbook: Leave"
		assert backend.delete_input("declaration.md") >= 2
	finally:
		backend.drop()


def test_a_chroma_server_index_drops_the_other_generations_of_its_source_only(tmp_path, llm, embedder, chroma_server):
	config = configs(tmp_path, llm, chroma_server)["chroma_server"]
	prefix = config.collection + "-"
	others = [open_backend(replace(config, collection=prefix + g), embedder) for g in ("old1", "half2")]
	unrelated = open_backend(replace(config, collection=config.collection + "x-g1"), embedder)
	live = open_backend(replace(config, collection=prefix + "live"), embedder)
	try:
		fill(live)
		assert live.drop_others(prefix) == [prefix + "half2", prefix + "old1"]
		names = {c.name for c in live.client.list_collections()}
		assert prefix + "live" in names and config.collection + "x-g1" in names
		assert not {prefix + "old1", prefix + "half2"} & names
		assert live.count() == 5 and live.drop_others(prefix) == []
	finally:
		for backend in (*others, live, unrelated):
			backend.close()
		unrelated.drop()
		live.drop()


def test_a_question_of_only_common_words_ranks_the_passage_holding_most_of_them_first(tmp_path):
	backend = open_backend(StoreConfig("sqlite_fts", str(tmp_path / "fts.sqlite3")))
	texts = [("total due", "invoice notes", "customer notes")[i % 3] for i in range(3000)]
	texts[2500] = "the customer invoice and its total"  # all the words, far into the index
	texts[950] = "customer invoice"  # two of them, among the first passages holding any
	backend.add([Chunk(f"a:{i}", "a", i, text) for i, text in enumerate(texts)])
	hits = backend.search("customer invoice total", k=3)  # each word is in a third of the passages
	assert [h.chunk.id for h in hits[:2]] == ["a:2500", "a:950"]
	assert hits[0].score > hits[1].score > hits[2].score > 0
	assert [h.chunk.id for h in backend.search("invoice customer total", k=1)] == ["a:2500"]  # no window read
	backend.close()
