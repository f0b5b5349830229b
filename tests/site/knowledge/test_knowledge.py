"""Knowledge on a real site: sources indexed by real RQ workers, an agent answering with Mandatory
context and with the Optional search tool, permissions, bad inputs, duplicates, deletes and
rebuilds."""

from __future__ import annotations

import http.server
import io
import json
import os
import re
import threading

import frappe
import pytest
from frappe.utils import add_to_date, now_datetime
from frappe.utils.background_jobs import get_queue

from huf.ai.agent.chat import send_agent_chat_message
from huf.ai.engine.knowledge.types import Chunk
from huf.ai.knowledge import api, indexer, retriever, store
from tests.site import fixtures
from tests.site.conftest import as_user, drop_site_jobs, make_user, queued_jobs, wait_for
from tests.support.scripted_llm import text, tool_calls

RETURNS = (
	"Returns policy. Customers may return unused goods within 30 days of delivery for a full refund. "
	"Opened software cannot be returned. Refunds go back to the original payment method within 5 business days."
)
SHIPPING = "Shipping. Orders above 50 EUR ship free inside the EU. Express delivery costs 12 EUR and arrives the next day."


def source(name: str, **fields) -> str:
	if frappe.db.exists("Knowledge Source", name):
		for row in frappe.get_all("Agent Knowledge", {"knowledge_source": name}, ["parent"]):
			frappe.delete_doc("Agent", row.parent, force=True)
		frappe.delete_doc("Knowledge Source", name, force=True)
	doc = frappe.get_doc({"doctype": "Knowledge Source", "source_name": name, "description": f"{name} for tests", **fields})
	doc.insert()
	frappe.db.commit()
	return doc.name


def add_text(source_name: str, body: str, title: str | None = None) -> str:
	row = api.add_input(source_name, "Text", text=body, title=title)
	frappe.db.commit()
	return row["name"]


def add_file(source_name: str, file_name: str, content: bytes) -> str:
	file = frappe.get_doc({"doctype": "File", "file_name": file_name, "content": content, "is_private": 1}).insert()
	row = api.add_input(source_name, "File", file_url=file.file_url)
	frappe.db.commit()
	return row["name"]


def file_on_disk(file_name: str, size: int) -> str:
	"""A File whose content is written straight to disk (sparse when large), as a big upload would be."""
	path = frappe.get_site_path("private", "files", file_name)
	with open(path, "wb") as handle:
		if size:
			handle.seek(size - 1)
			handle.write(b"\0")
	file = frappe.get_doc({"doctype": "File", "file_name": file_name, "file_url": f"/private/files/{file_name}", "is_private": 1})
	before = frappe.local.conf.get("max_file_size")
	frappe.local.conf["max_file_size"] = max(size + 1, 25 * 1024 * 1024)  # a site that allows big uploads
	try:
		file.insert()
	finally:
		frappe.local.conf["max_file_size"] = before
	return file.file_url


def indexed(*inputs: str, timeout: float = 90) -> list:
	def done():
		rows = frappe.get_all(
			"Knowledge Input", {"name": ("in", inputs)}, ["name", "status", "error", "chunk_count", "duplicate_of"]
		)
		return rows if len(rows) == len(inputs) and all(r.status in ("Indexed", "Error") for r in rows) else None

	return {r.name: r for r in wait_for(done, timeout=timeout, interval=0.3, message="inputs indexed")}


def docx(*paragraphs: str) -> bytes:
	from docx import Document

	document = Document()
	for paragraph in paragraphs:
		document.add_paragraph(paragraph)
	out = io.BytesIO()
	document.save(out)
	return out.getvalue()


def test_an_agent_answers_with_mandatory_knowledge_from_an_indexed_source(site, llm, workers):
	workers.start(1)
	policies = source("Shop Policies")
	returns = add_text(policies, RETURNS, title="Returns policy")
	shipping = add_file(policies, "kb-shipping.docx", docx(SHIPPING))
	rows = indexed(returns, shipping)
	assert {r.status for r in rows.values()} == {"Indexed"} and all(r.chunk_count >= 1 for r in rows.values())
	wait_for(lambda: frappe.db.get_value("Knowledge Source", policies, "status") == "Ready", message="source Ready")
	state = frappe.db.get_value("Knowledge Source", policies, ["total_inputs", "indexed_inputs", "chunk_count"], as_dict=True)
	assert state.total_inputs == 2 and state.indexed_inputs == 2 and state.chunk_count >= 2

	agent = fixtures.agent(
		llm,
		name="Policy Agent",
		allow_chat=1,
		run_immediately=1,
		agent_knowledge=[{"knowledge_source": policies, "mode": "Mandatory", "token_budget": 400}],
	)
	llm.script(text("You can return unused goods within 30 days."))
	reply = send_agent_chat_message(agent, "Can I return an unused kettle after two weeks?", new_conversation=1)
	assert reply["status"] == "Success"
	system = llm.chat_requests[0]["body"]["messages"][0]
	assert system["role"] == "system" and system["content"].startswith("You are a test agent.")
	assert "## Relevant Knowledge\n\n### Shop Policies" in system["content"] and system["content"].rstrip().endswith("---")
	assert "within 30 days of delivery" in system["content"] and "(from Returns policy)" in system["content"]
	run = frappe.get_all("Agent Run", {"agent": agent}, ["knowledge_sources_used", "chunks_injected"])[0]
	assert json.loads(run.knowledge_sources_used) == {policies: run.chunks_injected} and run.chunks_injected >= 1
	# the user message stays what the person wrote: knowledge is not stored in the history
	assert llm.chat_requests[0]["body"]["messages"][-1]["content"] == "Can I return an unused kettle after two weeks?"


def test_the_token_budget_bounds_what_is_injected(site, llm, workers):
	workers.start(1)
	big = source("Big Manual", chunk_size=200, chunk_overlap=0)
	manual = add_text(big, " ".join(f"Section {i}: the pump model P{i} needs service every {i} months." for i in range(200)))
	indexed(manual)
	agent = fixtures.agent(
		llm,
		name="Budget Agent",
		allow_chat=1,
		run_immediately=1,
		max_knowledge_tokens=150,
		agent_knowledge=[{"knowledge_source": big, "mode": "Mandatory", "token_budget": 1000}],
	)
	llm.script(text("ok"))
	send_agent_chat_message(agent, "How often does pump P7 need service?", new_conversation=1)
	system = llm.chat_requests[0]["body"]["messages"][0]["content"]
	knowledge = system[system.index("## Relevant Knowledge") :]
	from litellm import token_counter

	assert token_counter(model="gpt-4o", text=knowledge) <= 160  # the budget, with a little tokenizer slack
	assert "P7 needs service every 7 months" in knowledge  # the best match is the one kept


def test_an_optional_source_is_searched_with_the_tool(site, llm, workers):
	workers.start(1)
	manuals = source("Device Manuals")
	indexed(
		add_text(manuals, "The X200 router resets when you hold the red button for ten seconds.", title="X200 manual"),
		add_text(manuals, SHIPPING, title="Shipping"),
	)
	agent = fixtures.agent(
		llm,
		name="Manual Agent",
		allow_chat=1,
		run_immediately=1,
		agent_knowledge=[{"knowledge_source": manuals, "mode": "Optional"}],
	)
	llm.script(
		tool_calls([("k1", "get_knowledge_sources", "{}")]),
		tool_calls([("k2", "knowledge_search", json.dumps({"query": "reset X200 router"}))]),
		text("Hold the red button for ten seconds."),
	)
	reply = send_agent_chat_message(agent, "How do I reset my X200?", new_conversation=1)
	assert reply["status"] == "Success"
	first = llm.chat_requests[0]["body"]
	assert {t["function"]["name"] for t in first["tools"]} >= {"knowledge_search", "get_knowledge_sources"}
	assert "Relevant Knowledge" not in first["messages"][0]["content"]  # Optional: nothing injected
	listed = json.loads(llm.chat_requests[1]["body"]["messages"][-1]["content"])
	assert [s["name"] for s in listed["sources"]] == [manuals] and listed["sources"][0]["searches_by"] == "words"
	found = json.loads(llm.chat_requests[2]["body"]["messages"][-1]["content"])
	assert found["results"][0]["title"] == "X200 manual" and "red button" in found["results"][0]["text"]
	assert found["results"][0]["source"] == manuals


def test_people_without_read_access_get_no_knowledge(site, llm, workers):
	workers.start(1)
	secret = source("Salary Bands")
	indexed(add_text(secret, "Band C pays 70,000 to 85,000 EUR a year."))
	agent = fixtures.agent(
		llm,
		name="Bands Agent",
		allow_chat=1,
		run_immediately=1,
		agent_knowledge=[{"knowledge_source": secret, "mode": "Mandatory"}, {"knowledge_source": secret, "mode": "Optional"}],
	)
	# a Huf User whom an administrator limited to another source (User Permission on Knowledge Source)
	outsider = make_user("no-knowledge@huf.test", ["Huf User"])
	frappe.db.delete("User Permission", {"user": outsider})
	other = source("Public FAQ")
	frappe.get_doc(
		{
			"doctype": "User Permission",
			"user": outsider,
			"allow": "Knowledge Source",
			"for_value": other,
			"apply_to_all_doctypes": 0,
			"applicable_for": "Knowledge Source",
		}
	).insert()
	frappe.db.commit()
	llm.script(tool_calls([("s1", "knowledge_search", json.dumps({"query": "band C pay"}))]), text("I can't see that."))
	with as_user(outsider):
		assert send_agent_chat_message(agent, "What does band C pay?", new_conversation=1)["status"] == "Success"
		with pytest.raises(frappe.PermissionError):
			api.test_search(secret, "band")
		with pytest.raises(frappe.PermissionError):
			api.add_input(secret, "Text", text="more")
	messages = llm.chat_requests[0]["body"]["messages"]
	assert "70,000" not in json.dumps(messages)
	refused = llm.chat_requests[1]["body"]["messages"][-1]["content"]
	assert "may not read" in refused and "70,000" not in refused
	reader = make_user("reads-knowledge@huf.test", ["Huf User"])
	with as_user(reader):
		assert "70,000" in api.test_search(secret, "band C")["results"][0]["text"]
		with pytest.raises(frappe.PermissionError):
			api.add_input(secret, "Text", text="more")  # Huf User reads; only managers add


class _Redirector(http.server.BaseHTTPRequestHandler):
	def log_message(self, *args):
		pass

	def do_GET(self):
		if self.path == "/page":
			body = b"<html><head><title>Warranty</title><script>var x=1</script></head><body><main><h1>Warranty</h1>"
			body += b"<p>Every device has a two year warranty.</p></main><footer>cookie banner</footer></body></html>"
			self.send_response(200)
			self.send_header("Content-Type", "text/html; charset=utf-8")
			self.send_header("Content-Length", str(len(body)))
			self.end_headers()
			self.wfile.write(body)
			return
		self.send_response(302)
		self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
		self.send_header("Content-Length", "0")
		self.end_headers()


@pytest.fixture
def web_pages():
	server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Redirector)
	threading.Thread(target=server.serve_forever, daemon=True).start()
	host = f"127.0.0.1:{server.server_address[1]}"
	before = fixtures.allowed_hosts(host)
	yield f"http://{host}"
	fixtures.set_allowed_hosts(before)
	server.shutdown()


def test_bad_inputs_end_in_error_with_a_reason_and_the_source_stays_usable(site, llm, workers, web_pages):
	from pypdf import PdfWriter

	workers.start(1)
	mixed = source("Mixed Bag")
	writer = PdfWriter()
	writer.add_blank_page(200, 200)
	writer.encrypt("secret")
	locked = io.BytesIO()
	writer.write(locked)
	good = add_text(mixed, RETURNS, title="Returns policy")
	page = api.add_input(mixed, "URL", url=f"{web_pages}/page")["name"]
	bad = {
		"encrypted": add_file(mixed, "kb-locked.pdf", locked.getvalue()),
		"corrupt": add_file(mixed, "kb-broken.pdf", b"%PDF-1.4 this is not a pdf"),
		"empty": api.add_input(mixed, "File", file_url=file_on_disk("empty.txt", 0))["name"],
		"huge": api.add_input(mixed, "File", file_url=file_on_disk("huge.txt", 200 * 1024 * 1024))["name"],
		"unknown": add_file(mixed, "kb-setup.exe", b"MZ\x90\x00 binary"),
		"redirect": api.add_input(mixed, "URL", url=f"{web_pages}/leak")["name"],
	}
	frappe.db.commit()
	rows = indexed(good, page, *bad.values())
	assert rows[good].status == "Indexed" and rows[page].status == "Indexed"
	errors = {kind: rows[name].error or "" for kind, name in bad.items()}
	assert all(rows[name].status == "Error" for name in bad.values()), errors
	assert "password" in errors["encrypted"]
	assert re.search(r"kb-broken\w*\.pdf is not a readable PDF", errors["corrupt"])  # a rerun's upload gets a suffix
	assert "empty" in errors["empty"]
	assert re.search(r"huge\w*\.txt is 200\.0 MB; files of up to 100 MB can be read", errors["huge"])
	assert re.search(r"kb-setup\w*\.exe is not a kind of file Huf can read\. Readable kinds: .*pdf", errors["unknown"])
	assert "169.254.169.254" in errors["redirect"] and "private" in errors["redirect"]
	wait_for(lambda: frappe.db.get_value("Knowledge Source", mixed, "status") == "Ready", message="source Ready")
	assert "6 of 8 inputs" in frappe.db.get_value("Knowledge Source", mixed, "last_error")
	assert api.test_search(mixed, "refund payment method")["results"][0]["title"] == "Returns policy"
	warranty = api.test_search(mixed, "warranty")["results"][0]
	assert warranty["title"] == "Warranty" and "two year warranty" in warranty["text"] and "cookie" not in warranty["text"]


def test_form_values_and_chart_data_are_found_and_a_word_file_of_empty_tables_is_refused(site, llm, workers):
	from docx import Document
	from pptx import Presentation
	from pptx.chart.data import CategoryChartData
	from pptx.enum.chart import XL_CHART_TYPE
	from pptx.util import Inches

	from tests.engine.knowledge.test_knowledge_extract import deck_bytes, filled_form

	workers.start(1)
	kb = source("Office Files")
	deck = Presentation()
	data = CategoryChartData()
	data.categories = ["Lisbon", "Porto"]
	data.add_series("Warehouse staff", (42, 17))
	slide = deck.slides.add_slide(deck.slide_layouts[6])
	slide.shapes.add_chart(XL_CHART_TYPE.BAR_CLUSTERED, 0, 0, Inches(6), Inches(4), data)
	word = Document()
	word.add_table(rows=2, cols=3)
	tables = io.BytesIO()
	word.save(tables)
	form = add_file(kb, "kb-application.pdf", filled_form())
	chart = add_file(kb, "kb-staffing.pptx", deck_bytes(deck))
	empty = add_file(kb, "kb-tables.docx", tables.getvalue())
	rows = indexed(form, chart, empty)
	assert rows[form].status == rows[chart].status == "Indexed"
	assert rows[empty].status == "Error"
	assert re.search(r"kb-tables\w*\.docx has no text to read: it holds only 1 empty table\.", rows[empty].error)
	assert api.test_search(kb, "Ada Lovelace")["results"][0]["input"] == form
	found = api.test_search(kb, "warehouse staff Porto")["results"][0]
	assert found["input"] == chart and "| Porto | 17 |" in found["text"]


def test_identical_content_is_indexed_once_and_deletes_remove_everything(site, llm, workers, web):
	workers.start(1)
	kb = source("Dedupe Source")
	first = add_text(kb, SHIPPING)
	again = api.add_input(kb, "Text", text=SHIPPING)
	assert again["already_there"] and again["name"] == first
	one = add_file(kb, "kb-policy-a.txt", RETURNS.encode())
	two = add_file(kb, "kb-policy-b.txt", RETURNS.encode())  # same bytes, other name
	rows = indexed(first, one, two)
	assert rows[one].chunk_count >= 1 and rows[two].chunk_count == 0 and rows[two].duplicate_of == one
	assert frappe.db.count("Knowledge Input", {"knowledge_source": kb}) == 3

	doc = frappe.get_doc("Knowledge Source", kb)
	path = store.config_for(doc).path
	assert (
		os.path.exists(path) and path.startswith(os.path.abspath(frappe.get_site_path("private", "files")) + os.sep)
	) or path.startswith(frappe.get_site_path("private", "files"))
	relative = path.split("/private/files/", 1)[1]
	assert web.get(f"/private/files/{relative}", web.site_header()).status_code in (403, 404)

	before = frappe.db.get_value("Knowledge Source", kb, "chunk_count")
	frappe.delete_doc("Knowledge Input", first)
	frappe.db.commit()
	wait_for(
		lambda: all(r["input"] != first for r in api.test_search(kb, "express delivery EU")["results"]),
		message="the deleted input's passages gone",
	)
	wait_for(lambda: frappe.db.get_value("Knowledge Source", kb, "chunk_count") < before, message="counts refreshed")
	frappe.delete_doc("Knowledge Source", kb)
	frappe.db.commit()
	assert not os.path.exists(store.folder(kb)) and not frappe.db.exists("Knowledge Input", {"knowledge_source": kb})


def index_jobs(source_name: str) -> list:
	"""The index jobs of a source RQ knows of (queued, running, finished, failed), oldest first."""
	from rq.job import Job
	from rq.registry import FailedJobRegistry, FinishedJobRegistry, StartedJobRegistry

	queue = get_queue("long")
	ids = set(queue.get_job_ids())
	for registry in (StartedJobRegistry, FinishedJobRegistry, FailedJobRegistry):
		ids |= set(registry(queue=queue).get_job_ids())
	jobs = [
		job
		for job in Job.fetch_many(list(ids), connection=queue.connection)
		if job
		and job.kwargs.get("method") == "huf.ai.knowledge.indexer.index_source"
		and job.kwargs.get("site") == frappe.local.site
		and job.kwargs["kwargs"].get("source") == source_name
	]
	return sorted(jobs, key=lambda job: job.enqueued_at)


def queued_sources() -> list[str]:
	"""The sources of the index jobs waiting in the queue, in the order the worker takes them."""
	return [j.kwargs["kwargs"]["source"] for j in queued_jobs("long", "huf.ai.knowledge.indexer.index_source")]


def test_many_inputs_added_at_once_queue_one_job_and_the_next_source_is_not_behind_them(site, llm, workers):
	kb = source("Bulk Source")
	other = source("Next Source")
	many = [add_text(kb, f"Bulk note {i}: shelf {i} holds part number P-{i:04d}.") for i in range(20)]  # 20 requests
	nxt = add_text(other, "The loading bay closes at six.")
	assert queued_sources() == [kb, other]  # one job for the twenty inputs, and the next source's right behind it
	workers.start(1)
	rows = indexed(*many, nxt)
	assert {r.status for r in rows.values()} == {"Indexed"}
	# inputs added while the job runs, or after it, are read by at most one more job
	later = [add_text(kb, f"Late note {i}: bin {i} is empty.") for i in range(5)]
	assert {r.status for r in indexed(*later).values()} == {"Indexed"}
	wait_for(lambda: not queued_sources(), message="the queue drained")
	# a job also hands the worker back every 10 s, so a slow machine needs a few more; one per request was 25
	assert len(index_jobs(kb)) <= 6, [j.id for j in index_jobs(kb)]
	wait_for(lambda: frappe.db.get_value("Knowledge Source", kb, ["status", "indexed_inputs"]) == ("Ready", 25), message="totals")
	assert api.test_search(kb, "part number P-0017")["results"][0]["input"] == many[17]


@pytest.fixture
def short_slices():
	"""Index jobs hand the worker back after every input (workers read site_config.json)."""
	from frappe.installer import update_site_config

	update_site_config("huf_knowledge_slice_seconds", 0)
	yield
	update_site_config("huf_knowledge_slice_seconds", "None")  # removed


def test_a_long_indexing_hands_the_worker_to_the_next_source_between_inputs(site, llm, workers, short_slices):
	kb = source("Long Source")
	other = source("Waiting Source")
	many = [add_text(kb, f"Long note {i}: aisle {i} stores item {i}.") for i in range(12)]
	nxt = add_text(other, "Returns are handled at gate two.")
	workers.start(1)
	wait_for(lambda: frappe.db.get_value("Knowledge Input", nxt, "status") == "Indexed", timeout=60, message="next source")
	done = frappe.db.count("Knowledge Input", {"knowledge_source": kb, "status": "Indexed"})
	assert done <= 2, done  # it did not wait for all twelve: the long job yielded after its first input
	assert {r.status for r in indexed(*many).values()} == {"Indexed"}


def test_a_second_upload_while_one_indexes_waits_its_turn(site, llm, workers):
	workers.start(2)
	kb = source("Busy Source", chunk_size=128, chunk_overlap=0)
	long_text = " ".join(f"Paragraph {i} explains topic {i} in plain words." for i in range(3000))
	first = add_text(kb, long_text)
	second = add_text(kb, "The warehouse opens at 7 in the morning.")
	rows = indexed(first, second, timeout=180)
	assert rows[first].status == rows[second].status == "Indexed" and rows[first].chunk_count > 500
	assert api.test_search(kb, "warehouse opens")["results"][0]["input"] == second


def test_a_worker_that_died_holding_the_lock_delays_indexing_but_loses_nothing(site, llm, workers):
	workers.start(1)
	kb = source("Crashed Source")
	stale = add_text(kb, "Left half done by a worker that was killed.")
	wait_for(lambda: frappe.db.get_value("Knowledge Input", stale, "status") == "Indexed", timeout=60, message="first input")
	frappe.db.set_value("Knowledge Input", stale, "status", "Indexing", update_modified=False)  # as a killed job leaves it
	frappe.db.commit()
	held = frappe.cache.lock(frappe.cache.make_key(f"knowledge_index_{kb}"), timeout=3)
	# the first job may still be finishing (its input reads Indexed before it lets go of the lock)
	wait_for(lambda: held.acquire(blocking=False), timeout=30, message="the first job to let go of the lock")  # then never released, like a dead worker's: it expires
	fresh = add_text(kb, "Added while the dead worker's lock was still there.")
	rows = indexed(stale, fresh, timeout=60)
	assert rows[stale].status == rows[fresh].status == "Indexed"
	# the source's totals are written just after its last input reads Indexed
	wait_for(
		lambda: frappe.db.get_value("Knowledge Source", kb, ["status", "indexed_inputs"]) == ("Ready", 2),
		timeout=30,
		message="the source to read Ready with both inputs",
	)


def test_rebuild_swaps_in_a_new_index(site, llm, workers):
	workers.start(1)
	kb = source("Rebuilt Source")
	indexed(add_text(kb, RETURNS))
	doc = frappe.get_doc("Knowledge Source", kb)
	old_generation, old_path = doc.index_generation, store.config_for(doc).path
	api.rebuild_index(kb)
	frappe.db.commit()
	wait_for(
		lambda: (
			frappe.db.get_value("Knowledge Source", kb, ["status", "index_generation"]) != ("Rebuilding", old_generation)
			and frappe.db.get_value("Knowledge Source", kb, "status") == "Ready"
		),
		timeout=60,
		message="rebuilt",
	)
	doc.reload()
	assert doc.index_generation != old_generation and not os.path.exists(old_path)
	assert "30 days" in api.test_search(kb, "return within days")["results"][0]["text"]
	# a changed chunk size rebuilds by itself
	doc.chunk_size = 80
	doc.save()
	frappe.db.commit()
	wait_for(
		lambda: (
			frappe.db.get_value("Knowledge Source", kb, "index_generation") != doc.index_generation
			and frappe.db.get_value("Knowledge Source", kb, "status") == "Ready"
		),
		timeout=60,
		message="rebuilt on change",
	)
	assert frappe.db.get_value("Knowledge Source", kb, "chunk_count") > 1


@pytest.mark.parametrize("kind", ["sqlite_vec", "chroma"])
def test_a_vector_source_needs_a_working_embedding_model(kind, site, llm, workers):
	provider = fixtures.provider(llm)
	frappe.db.commit()  # saved before the source, as a person would
	name = f"Meaning Source {kind}"
	with pytest.raises(frappe.ValidationError, match="needs an Embedding Provider"):
		source(name, knowledge_type=kind)
	with pytest.raises(frappe.ValidationError, match="Vector Dimension"):
		source(
			name,
			knowledge_type=kind,
			embedding_provider=provider,
			embedding_model="embed-test",
			vector_dimension=llm.embedding_dim + 1,
		)
	frappe.db.rollback()
	workers.start(1)
	kb = source(
		name, knowledge_type=kind, embedding_provider=provider, embedding_model="embed-test", vector_dimension=llm.embedding_dim
	)
	indexed(add_text(kb, RETURNS, title="Returns"), add_text(kb, SHIPPING, title="Shipping"))
	assert api.test_search(kb, "express shipping EU orders")["results"][0]["title"] == "Shipping"
	assert any(r["path"].endswith("/embeddings") and r["body"]["model"] == "embed-test" for r in llm.requests)

	# Searching a keyword source and this one together merges the two rankings by rank.
	words = source("Keyword Source")
	indexed(add_text(words, "Gift cards never expire and can be used in every shop.", title="Gift cards"))
	hits = retriever.search([kb, words], "express shipping EU orders gift cards", 4)
	assert {h.source for h in hits} == {kb, words} and [h.chunk.title for h in hits[:2]] in (
		["Shipping", "Gift cards"],
		["Gift cards", "Shipping"],
	)


def test_the_sweep_restarts_forgotten_inputs_and_clears_a_busy_status_nobody_holds(site, llm, workers):
	kb = source("Forgotten Source")
	lost = add_text(kb, "Queued by a job that was lost with its worker.")
	drop_site_jobs(site, ("long",))  # the job is lost, as when Redis restarts without persistence
	frappe.db.set_value("Knowledge Input", lost, "modified", add_to_date(now_datetime(), minutes=-10), update_modified=False)
	frappe.db.set_value("Knowledge Source", kb, "status", "Rebuilding", update_modified=False)
	frappe.db.commit()
	indexer.sweep()  # before any worker runs: the status is put right at once
	assert frappe.db.get_value("Knowledge Source", kb, "status") == "Indexing"  # an input still waits
	frappe.db.commit()
	workers.start(1)
	assert indexed(lost)[lost].status == "Indexed"
	wait_for(lambda: frappe.db.get_value("Knowledge Source", kb, "status") == "Ready", message="Ready")


def test_the_sweep_removes_the_half_built_index_of_a_rebuild_whose_worker_died(site, llm, workers):
	workers.start(1)
	kb = source("Crashed Rebuild Source")
	indexed(add_text(kb, RETURNS))
	doc = frappe.get_doc("Knowledge Source", kb)
	live = store.config_for(doc).path
	half_built = store.open_index(doc, "deadbeef00")  # a rebuild's new generation, as its worker left it
	half_built.add([Chunk(id="x:0", input_id="x", position=0, text="Half of a rebuild that never finished.")])
	half_built.close()
	orphan = store.config_for(doc, "deadbeef00").path
	assert os.path.exists(orphan)
	frappe.db.set_value("Knowledge Source", kb, "status", "Rebuilding", update_modified=False)
	frappe.db.commit()
	live_job = indexer._lock(kb)
	assert live_job.acquire(blocking=False)  # while a rebuild holds the lock, its new file is not touched
	indexer.sweep()
	assert os.path.exists(orphan) and frappe.db.get_value("Knowledge Source", kb, "status") == "Rebuilding"
	live_job.release()  # the worker died: its lock expires

	indexer.sweep()

	assert not [f for f in os.listdir(store.folder(kb)) if f.startswith("deadbeef00")]
	assert os.path.exists(live) and frappe.db.get_value("Knowledge Source", kb, "status") == "Ready"
	assert "30 days" in api.test_search(kb, "return within days")["results"][0]["text"]


def test_a_chroma_server_that_is_down_does_not_stop_the_sweep_tidying_other_sources(site, llm, workers):
	import socket

	with socket.socket() as probe:  # a port nothing listens on
		probe.bind(("127.0.0.1", 0))
		closed = probe.getsockname()[1]
	down = source("Server Down Source")
	frappe.db.set_value(  # as a rebuild left it, with its server gone since
		"Knowledge Source",
		down,
		{
			"knowledge_type": "chroma",
			"chroma_mode": "Server",
			"chroma_host": "127.0.0.1",
			"chroma_port": closed,
			"embedding_provider": fixtures.provider(llm),
			"embedding_model": "embed-test",
			"vector_dimension": llm.embedding_dim,
			"status": "Rebuilding",
		},
		update_modified=False,
	)
	stuck = source("Stuck Keyword Source")
	frappe.db.set_value("Knowledge Source", stuck, "status", "Rebuilding", update_modified=False)
	frappe.db.commit()

	indexer.sweep()

	frappe.db.commit()
	assert frappe.db.get_value("Knowledge Source", stuck, "status") == "Ready"
	assert frappe.db.get_value("Knowledge Source", down, "status") == "Rebuilding"  # retried next minute
	assert frappe.db.exists("Error Log", {"method": f"Huf: could not tidy up the knowledge source {down}"})


def test_changing_the_kind_rebuilds_and_leaves_no_file_of_the_old_kind(site, llm, workers):
	workers.start(1)
	kb = source("Kind Change Source")
	indexed(add_text(kb, RETURNS))
	doc = frappe.get_doc("Knowledge Source", kb)
	old_generation, old_path = doc.index_generation, store.config_for(doc).path  # the keyword index, a .sqlite3 file
	doc.update({"knowledge_type": "chroma", "embedding_provider": fixtures.provider(llm), "embedding_model": "embed-test"})
	doc.vector_dimension = llm.embedding_dim
	doc.save()
	frappe.db.commit()
	wait_for(
		lambda: (
			frappe.db.get_value("Knowledge Source", kb, "index_generation") != old_generation
			and frappe.db.get_value("Knowledge Source", kb, "status") == "Ready"
		),
		timeout=90,
		message="rebuilt as chroma",
	)
	assert not os.path.exists(old_path)
	assert os.listdir(store.folder(kb)) == [os.path.basename(store.config_for(frappe.get_doc("Knowledge Source", kb)).path)]
	assert "30 days" in api.test_search(kb, "return within days")["results"][0]["text"]
