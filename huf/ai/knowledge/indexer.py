"""Background indexing: one job at a time per source (a Redis lock), inputs read, chunked and
stored one by one, progress published as it goes.

Jobs are coalesced: a source has at most one index job waiting (queued, or waiting for the lock),
marked by a Redis key set with SET NX when it is enqueued and deleted by the job once it holds the
lock, before it reads what is pending. Inputs added while that key is there need no job of their
own: the waiting job reads them. Inputs added after it is gone set it again and queue the next job,
so nothing is left pending without a job. A job indexes for at most ``SLICE_SECONDS`` and then
hands the worker back, its follow-up queued behind what other sources queued meanwhile.

The lock lives two minutes and is renewed before every batch, so a worker that dies frees
the source soon; its half-done input is picked up again (an input still "Indexing" while nobody
holds the lock is stale), and a sweep every minute restarts sources with inputs left waiting. A rebuild writes a new generation of the index beside the current one and switches to it in
one update, so searches keep using the old index until the new one is complete."""

from __future__ import annotations

import time
from functools import partial

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.engine.knowledge.chunking import chunk_document
from huf.ai.engine.knowledge.types import KnowledgeError
from huf.ai.knowledge import inputs, store

LOCK_SECONDS = 120  # renewed before every batch, so a dead worker frees the source soon
WAIT_SECONDS = 60 * 60  # how long a job waits for another job on the same source
STALE_SECONDS = 5 * 60
PROGRESS_EVENT = "knowledge_index_progress"
BATCH = 64  # passages stored (and embedded) per step
SLICE_SECONDS = 10  # then a job hands the worker back; site config huf_knowledge_slice_seconds changes it
QUEUED_SECONDS = 2 * WAIT_SECONDS  # the longest a waiting job's mark stays, should its job be lost


def enqueue(source: str) -> None:
	"""Index the source's pending inputs once this transaction commits, unless a job that will
	read them already waits (see the module's docstring)."""
	frappe.db.after_commit.add(partial(_enqueue_once, source))


def _enqueue_once(source: str) -> None:
	from frappe.utils.background_jobs import is_job_enqueued

	key = _queued_key(source)
	waiting = frappe.safe_decode(frappe.cache.get(key))
	if waiting and is_job_enqueued(waiting):
		return  # it reads this input once it holds the lock
	job_id = f"huf-knowledge-index::{source}::{frappe.generate_hash(length=10)}"
	# No mark: set it unless another request just did. A mark whose job is gone (lost with the
	# queue, or killed while waiting): replace it.
	if not frappe.cache.set(key, job_id, nx=not waiting, ex=QUEUED_SECONDS):
		return
	try:
		frappe.enqueue("huf.ai.knowledge.indexer.index_source", queue="long", source=source, job_id=job_id)
	except Exception:
		frappe.cache.delete(key)  # no job waits after all: the next input added queues one
		raise


def _queued_key(source: str) -> str:
	return frappe.cache.make_key(f"knowledge_index_queued_{source}")


def enqueue_rebuild(source: str) -> None:
	frappe.db.set_value("Knowledge Source", source, "status", "Rebuilding", update_modified=False)
	frappe.enqueue("huf.ai.knowledge.indexer.rebuild_source", queue="long", source=source, enqueue_after_commit=True)


def _lock(source: str):
	return frappe.cache.lock(frappe.cache.make_key(f"knowledge_index_{source}"), timeout=LOCK_SECONDS)


# --- indexing what is pending ------------------------------------------------------------------


def index_source(source: str) -> None:
	lock = _lock(source)
	acquired = lock.acquire(blocking=True, blocking_timeout=WAIT_SECONDS)
	frappe.cache.delete(_queued_key(source))  # inputs added from now on queue a job of their own
	if not acquired:
		frappe.throw(_("The index of {0} stayed busy for an hour; the sweep retries it.").format(source))
	until = time.monotonic() + float(frappe.conf.get("huf_knowledge_slice_seconds", SLICE_SECONDS))
	try:
		while pending := _pending(source, stale_too=True, limit=1):
			lock.reacquire()
			index_input(source, pending[0], lock)
			if time.monotonic() >= until:
				break
	finally:
		lock.release()
		frappe.db.commit()
	if _pending(source, stale_too=True):  # its slice is over: the rest waits behind other sources' jobs
		enqueue(source)
		frappe.db.commit()


def _pending(source: str, stale_too: bool = False, limit: int | None = None) -> list[str]:
	"""Inputs waiting to be indexed, oldest first; with ``stale_too`` also those "Indexing" (while
	holding the lock, those are what a dead worker left)."""
	frappe.db.commit()  # a fresh snapshot: inputs committed since are seen
	if not frappe.db.exists("Knowledge Source", source):
		return []
	statuses = ["Pending", "Indexing"] if stale_too else ["Pending"]
	return frappe.get_all(
		"Knowledge Input",
		{"knowledge_source": source, "status": ("in", statuses)},
		pluck="name",
		order_by="creation asc",
		limit=limit,
	)


def sweep() -> None:
	"""Every minute: restart sources whose inputs have waited longer than STALE_SECONDS (their job
	was lost, or its worker died), and give a source that shows busy with nobody working on it its
	true status again, removing any half-built index a dead rebuild left behind."""
	for name in frappe.get_all("Knowledge Source", {"status": ("in", ["Indexing", "Rebuilding"])}, pluck="name"):
		lock = _lock(name)
		if not lock.acquire(blocking=False):  # held: a job is working on it
			continue
		try:  # holding the lock, so no rebuild can start writing a generation while this deletes
			source = frappe.get_doc("Knowledge Source", name)
			store.drop_orphans(source)  # a rebuild whose worker died left its half-built index
			_finish(source)
		except Exception:  # e.g. its Chroma server is down: the status stays, and the next sweep retries
			frappe.log_error(title=f"Huf: could not tidy up the knowledge source {name}")
		finally:
			lock.release()
	cutoff = frappe.utils.add_to_date(now_datetime(), seconds=-STALE_SECONDS)
	for source in frappe.get_all(
		"Knowledge Input",
		{"status": ("in", ["Pending", "Indexing"]), "modified": ("<", cutoff)},
		pluck="knowledge_source",
		distinct=True,
	):
		if not _lock(source).locked():  # a live job renews its lock; this one's holder is gone
			frappe.enqueue(
				"huf.ai.knowledge.indexer.index_source",
				queue="long",
				source=source,
				job_id=f"huf-knowledge-sweep::{frappe.local.site}::{source}",
				deduplicate=True,
			)


def index_input(source_name: str, input_name: str, lock) -> None:
	source = frappe.get_doc("Knowledge Source", source_name)
	row = frappe.get_doc("Knowledge Input", input_name)
	_set_input(input_name, status="Indexing", error=None)
	_set_source(source, "Indexing")
	try:
		document, digest = inputs.read(row)
		twin = _same_content(source_name, input_name, digest)
		if twin:
			_set_input(
				input_name, status="Indexed", source_hash=digest, duplicate_of=twin, chunk_count=0, indexed_at=now_datetime()
			)
		else:
			count = _store(source, input_name, document, lock)
			_set_input(
				input_name, status="Indexed", source_hash=digest, duplicate_of=None, chunk_count=count, indexed_at=now_datetime()
			)
	except KnowledgeError as error:
		_set_input(input_name, status="Error", error=str(error))
	except Exception as error:
		log = frappe.log_error(title=f"Huf: indexing {input_name} failed")
		_set_input(
			input_name,
			status="Error",
			error=_("Indexing failed ({0}: {1}). The details are in Error Log {2}.").format(
				type(error).__name__, str(error)[:300], log.name
			),
		)
	_finish(source)


def _store(source, input_name: str, document, lock) -> int:
	chunks = chunk_document(document, input_name, chunk_size=source.chunk_size or 512, chunk_overlap=source.chunk_overlap or 0)
	index = store.open_index(source)
	try:
		index.delete_input(input_name)
		for start in range(0, len(chunks), BATCH):
			lock.reacquire()
			index.add(chunks[start : start + BATCH])
			publish(
				source.name, chunks_done=start + len(chunks[start : start + BATCH]), chunks_total=len(chunks), input=input_name
			)
	finally:
		index.close()
	return len(chunks)


def _same_content(source: str, input_name: str, digest: str) -> str | None:
	return frappe.db.get_value(
		"Knowledge Input",
		{
			"knowledge_source": source,
			"source_hash": digest,
			"status": "Indexed",
			"name": ("!=", input_name),
			"duplicate_of": ("is", "not set"),
		},
		"name",
	)


def _set_input(name: str, **values) -> None:
	frappe.db.set_value("Knowledge Input", name, values, update_modified=False)
	frappe.db.commit()


def _set_source(source, status: str, **values) -> None:
	frappe.db.set_value("Knowledge Source", source.name, {"status": status, **values}, update_modified=False)
	frappe.db.commit()
	publish(source.name)


def _finish(source) -> None:
	counts = counts_of(source.name)
	failed = frappe.get_all(
		"Knowledge Input",
		{"knowledge_source": source.name, "status": "Error"},
		["title", "error"],
		limit=1,
		order_by="modified desc",
	)
	last_error = (
		_("{0} of {1} inputs could not be indexed. {2}: {3}").format(
			counts["failed"], counts["total"], failed[0].title, failed[0].error
		)
		if failed
		else None
	)
	values = {
		"total_inputs": counts["total"],
		"indexed_inputs": counts["indexed"],
		"chunk_count": counts["chunks"],
		"last_indexed": now_datetime(),
		"last_error": last_error,
	}
	still = counts["pending"] > 0
	status = "Indexing" if still else ("Ready" if counts["indexed"] or not counts["failed"] else "Error")
	_set_source(source, status, **values)


def counts_of(source: str) -> dict:
	rows = frappe.db.sql(
		"""select status, count(*) n, coalesce(sum(chunk_count), 0) c from `tabKnowledge Input`
		where knowledge_source = %s group by status""",
		source,
		as_dict=True,
	)
	by = {r.status: r for r in rows}
	return {
		"total": sum(r.n for r in rows),
		"indexed": by["Indexed"].n if "Indexed" in by else 0,
		"failed": by["Error"].n if "Error" in by else 0,
		"pending": sum(by[s].n for s in ("Pending", "Indexing") if s in by),
		"chunks": int(by["Indexed"].c) if "Indexed" in by else 0,
	}


def publish(source: str, **extra) -> None:
	"""Progress for the source's Desk form and the web app (they join the document's room)."""
	if frappe.db.exists("Knowledge Source", source):
		frappe.publish_realtime(PROGRESS_EVENT, {**status_of(source), **extra}, doctype="Knowledge Source", docname=source)


# --- removing ----------------------------------------------------------------------------------


def remove_input(source: str, input_name: str) -> None:
	"""A deleted input's passages leave the index in a job that waits for the source's lock."""
	frappe.enqueue(
		"huf.ai.knowledge.indexer.remove_chunks", queue="long", source=source, input_name=input_name, enqueue_after_commit=True
	)


def remove_chunks(source: str, input_name: str) -> None:
	lock = _lock(source)
	if not lock.acquire(blocking=True, blocking_timeout=WAIT_SECONDS):
		frappe.throw(_("The index of {0} stayed busy for an hour; delete the input again.").format(source))
	try:
		frappe.db.commit()
		if not frappe.db.exists("Knowledge Source", source):
			return
		doc = frappe.get_doc("Knowledge Source", source)
		index = store.open_index(doc)
		try:
			index.delete_input(input_name)
		finally:
			index.close()
		_finish(doc)
	finally:
		lock.release()


# --- rebuilding --------------------------------------------------------------------------------


def rebuild_source(source: str) -> None:
	lock = _lock(source)
	if not lock.acquire(blocking=True, blocking_timeout=WAIT_SECONDS):
		frappe.throw(_("The index of {0} stayed busy for an hour; try Rebuild Index again.").format(source))
	try:
		_rebuild(source, lock)
	finally:
		if lock.owned():
			lock.release()
		frappe.db.commit()
	if _pending(source):
		enqueue(source)
		frappe.db.commit()


def _rebuild(source_name: str, lock) -> None:
	frappe.db.commit()
	source = frappe.get_doc("Knowledge Source", source_name)
	old = source.index_generation
	new = frappe.generate_hash(length=10)
	_set_source(source, "Rebuilding")
	index = None
	try:
		index = store.open_index(source, new)
		names = frappe.get_all("Knowledge Input", {"knowledge_source": source_name}, pluck="name", order_by="creation asc")
		results: dict[str, dict] = {}
		seen: dict[str, str] = {}  # content hash -> the input that holds it
		for done, name in enumerate(names, 1):
			lock.reacquire()
			results[name] = _rebuild_input(source, index, name, seen, lock)
			publish(source_name, rebuilt_inputs=done)
		frappe.db.commit()
		for name in [n for n in results if not frappe.db.exists("Knowledge Input", n)]:  # deleted meanwhile
			index.delete_input(name)
			del results[name]
	except Exception as error:
		if index:
			index.close()
		store.drop_generation(source, new)
		message = (
			str(error)
			if isinstance(error, KnowledgeError)
			else _("Rebuilding failed ({0}: {1}).").format(type(error).__name__, str(error)[:300])
		)
		_set_source(source, "Ready" if old else "Error", last_error=message)
		return
	index.close()
	for name, values in results.items():
		frappe.db.set_value("Knowledge Input", name, values, update_modified=False)
	frappe.db.set_value("Knowledge Source", source_name, "index_generation", new, update_modified=False)
	frappe.db.commit()
	if old:
		store.drop_generation(source, old)
	_finish(frappe.get_doc("Knowledge Source", source_name))


def _rebuild_input(source, index, name: str, seen: dict[str, str], lock) -> dict:
	row = frappe.get_doc("Knowledge Input", name)
	try:
		document, digest = inputs.read(row)
	except KnowledgeError as error:
		return {"status": "Error", "error": str(error), "chunk_count": 0}
	if digest in seen:
		return {"status": "Indexed", "source_hash": digest, "duplicate_of": seen[digest], "chunk_count": 0, "error": None}
	chunks = chunk_document(document, name, chunk_size=source.chunk_size or 512, chunk_overlap=source.chunk_overlap or 0)
	for start in range(0, len(chunks), BATCH):
		lock.reacquire()
		index.add(chunks[start : start + BATCH])
	seen[digest] = name
	return {
		"status": "Indexed",
		"source_hash": digest,
		"duplicate_of": None,
		"chunk_count": len(chunks),
		"error": None,
		"indexed_at": now_datetime(),
	}


# --- checks ------------------------------------------------------------------------------------


def check_embedding(source) -> None:
	"""Embed one short text with the source's settings, so a wrong model, key or dimension is
	said when the source is saved rather than when the first file is indexed."""
	try:
		embed = store.embedder_for(source)
		embed(["Huf checks the embedding model."])
	except KnowledgeError as error:
		frappe.throw(str(error), title=_("Embedding model check failed"))


def status_of(source: str) -> dict:
	"""What the progress bar shows: inputs indexed and failed of all inputs, and passages stored."""
	row = frappe.db.get_value("Knowledge Source", source, ["status", "last_error", "last_indexed"], as_dict=True)
	counts = counts_of(source)
	return {
		"source": source,
		"status": row.status,
		"total_inputs": counts["total"],
		"indexed_inputs": counts["indexed"],
		"failed_inputs": counts["failed"],
		"chunk_count": counts["chunks"],
		"last_error": row.last_error,
		"last_indexed": row.last_indexed,
	}
