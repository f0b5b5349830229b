"""Warm processes: every process that may run agents imports LiteLLM before its first job or request.

``warm()`` imports LiteLLM, makes one warm-up completion against a loopback server
(``engine/warmup.py``) and imports Huf's run path, then freezes the garbage collector's view of it
all as Frappe does, so forked children share those pages instead of copying them. Three places call
it, each once per process, before any work arrives: Frappe's ``bench worker``/``worker-pool``
(``huf/commands/__init__.py`` wraps them, so every forked job inherits it), ``bench huf-worker``
below, and the web server's app module ``huf.wsgi`` (with gunicorn's ``--preload``, in the master
that forks the web workers).

``bench huf-worker``: an RQ worker that runs each job in its own long-lived process instead of a
fork per job, so a queued run starts in milliseconds instead of a quarter of a second
(benchmarks/README.md). Jobs still get Frappe's usual per-job setup (``frappe.init``/``connect``/
``destroy``); RQ's job timeout still applies. What a fork would isolate is not isolated: a job that
leaks memory leaks it into the worker, so the worker exits after ``max_jobs`` jobs and the process
manager restarts it.
"""

from __future__ import annotations

import gc

import frappe

MAX_JOBS = 1000


def warm() -> None:
	from huf.ai.engine.llm import preload

	preload()
	import huf.ai.runs  # noqa: F401 - Frappe's document and query modules come with it

	if frappe._tune_gc:
		gc.collect()
		gc.freeze()


def start(queue: str, burst: bool = False, max_jobs: int = MAX_JOBS) -> None:
	from frappe.utils.background_jobs import get_queue_list, get_redis_conn
	from rq import SimpleWorker

	from huf.ai.inflight import start_watcher

	with frappe.init_site():  # the bench's Redis settings, from common_site_config.json
		connection = get_redis_conn()
		queues = get_queue_list([q.strip() for q in queue.split(",")], build_queue_name=True)
	warm()
	start_watcher()
	SimpleWorker(queues, connection=connection).work(
		burst=burst, max_jobs=max_jobs, logging_level="WARNING", date_format="%Y-%m-%d %H:%M:%S"
	)
