"""Warm processes: every process that may run agents imports LiteLLM before its first job or request.

``warm()`` imports LiteLLM, makes one warm-up completion against a loopback server
(``engine/warmup.py``) and imports Huf's run path, then freezes the garbage collector's view of it
all as Frappe does, so forked children share those pages instead of copying them. It is called once
per process, before any work arrives, by Frappe's ``bench worker``/``worker-pool``
(``huf/commands/__init__.py`` wraps them, so every forked job inherits it), by ``bench huf-worker``
below, and by the web server's app module ``huf.wsgi`` (with gunicorn's ``--preload``, in the master
that forks the web workers). A web worker serving Frappe's own ``frappe.app`` warms in a background
thread from its first request of any kind on (``warm_in_background``, a ``before_request`` hook).

``bench huf-worker``: an RQ worker that runs each job in its own long-lived process instead of a
fork per job, so a queued run starts in milliseconds instead of a quarter of a second
(benchmarks/README.md). Jobs still get Frappe's usual per-job setup (``frappe.init``/``connect``/
``destroy``); RQ's job timeout still applies. What a fork would isolate is not isolated: a job that
leaks memory leaks it into the worker, so the worker exits after ``max_jobs`` jobs and the process
manager restarts it.
"""

from __future__ import annotations

import gc
import os
import sys
import threading

import frappe

MAX_JOBS = 1000


def warm(freeze: bool = True) -> None:
	import huf.ai.runs  # noqa: F401 - Frappe's document and query modules come with it
	import_run_path()
	from huf.ai.engine.llm import preload

	# Imports first, the warm-up completion last: an import that registers a class with an abstract
	# base (``collections.abc``, ``numbers``) empties every negative subclass cache the completion
	# filled, and the OpenAI SDK's "is this field a model?" check over all pydantic models then costs
	# each forked job 50-90 ms again.
	preload()

	if freeze and frappe._tune_gc:
		gc.collect()
		gc.freeze()


_warming = threading.Lock()
_warmed_pid: int | None = None


def warm_in_background() -> None:
	"""The ``before_request`` hook: on a web process's first request of any kind, ``warm`` in a daemon
	thread, once per process (a forked worker is a new process: it warms again, unless its parent
	already did). Frappe 15 runs no app code when a web worker starts, and ``frappe.app`` is what
	``bench setup supervisor`` and ``bench start`` serve: this is the first moment Huf may act. The
	request goes on at once; a run that comes while the thread is still importing waits for the
	imports it needs (Python's import locks), it does not import them a second time. The warm-up's
	only model call goes to its own loopback server (``engine/warmup.py``)."""
	global _warmed_pid
	pid = os.getpid()
	if _warmed_pid == pid or not _warming.acquire(blocking=False):
		return
	try:
		if _warmed_pid == pid:
			return
		_warmed_pid = pid
		if "litellm" not in sys.modules:  # huf.wsgi, or a worker forked from a warm parent: nothing to do
			threading.Thread(target=_warm_quietly, name="huf-warm-up", daemon=True).start()
	finally:
		_warming.release()


def _warm_quietly() -> None:
	try:
		warm(freeze=False)  # the garbage collector's freeze is for a parent before it forks
	except Exception:  # noqa: BLE001 - a failed warm-up only means the first run imports for itself
		import traceback

		print(f"Huf: the warm-up of this web process failed:\n{traceback.format_exc()}", file=sys.stderr)


# What a run's job imports on its way that ``huf.ai.runs`` does not: each is 5-80 ms in every forked
# job otherwise (psutil: the in-flight entry's process start time; the others: Frappe's job hooks, a
# controller read on every run).
RUN_PATH_MODULES = ("psutil", "frappe.recorder", "frappe.monitor", "huf.huf.doctype.agent_settings.agent_settings", "huf.ai.executor")


def import_run_path() -> None:
	import importlib

	for module in RUN_PATH_MODULES:
		importlib.import_module(module)


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
