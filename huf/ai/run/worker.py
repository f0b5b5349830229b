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
_warm_thread: threading.Thread | None = None


def warming() -> bool:
	"""True while this process's warm-up thread (``warm_in_background``) is still loading."""
	return _warmed_pid == os.getpid() and _warm_thread is not None and _warm_thread.is_alive()


def warm_in_background() -> None:
	"""The ``before_request`` hook: on a web process's first request of any kind, ``warm`` in a daemon
	thread, once per process (a forked worker is a new process: it warms again, unless its parent
	already did). Frappe 15 runs no app code when a web worker starts, and ``frappe.app`` is what
	``bench setup supervisor`` and ``bench start`` serve: this is the first moment Huf may act. The
	request goes on at once; a run that comes while the thread is still importing waits for the
	imports it needs (Python's import locks), it does not import them a second time. The warm-up's
	only model call goes to its own loopback server (``engine/warmup.py``)."""
	global _warmed_pid, _warm_thread
	pid = os.getpid()
	if _warmed_pid == pid or not _warming.acquire(blocking=False):
		return
	try:
		if _warmed_pid == pid:
			return
		_warmed_pid = pid
		if "litellm" not in sys.modules:  # huf.wsgi, or a worker forked from a warm parent: nothing to do
			_warm_thread = threading.Thread(target=_warm_quietly, name="huf-warm-up", daemon=True)
			_warm_thread.start()
	finally:
		_warming.release()


def _warm_quietly() -> None:
	try:
		warm(freeze=False)  # the garbage collector's freeze is for a parent before it forks
	except Exception:  # noqa: BLE001 - a failed warm-up only means the first run imports for itself
		import traceback

		print(f"Huf: the warm-up of this web process failed:\n{traceback.format_exc()}", file=sys.stderr)


# The run path (``huf.ai.run.runs``: Frappe's document and query modules come with it), and what a run's
# job imports on its way that ``huf.ai.run.runs`` does not: each is 5-80 ms in every forked job otherwise
# (psutil: the in-flight entry's process start time; the others: Frappe's job hooks, a controller
# read on every run).
RUN_PATH_MODULES = (
	"huf.ai.run.runs", "psutil", "frappe.recorder", "frappe.monitor", "huf.huf.doctype.agent_settings.agent_settings", "huf.ai.run.executor",
	"huf.ai.engine.mcp.pool",  # the MCP SDK, for runs with MCP servers (a run without one does not import it)
)  # fmt: skip


def import_run_path() -> None:
	import importlib

	for module in RUN_PATH_MODULES:
		importlib.import_module(module)


# Huf's run jobs, told by their ids (the job's data is not unpickled in the worker's process to
# decide): a conversation's drainer (``lifecycle.wake``), a flow's hop (``flow.runs.enqueue_hop``),
# the recovery of either (``inflight.Watcher.recover``). Frappe puts the site before the "::".
IN_PLACE_JOBS = ("huf-drain:", "huf-flow:", "huf-recover:")
IN_PLACE_GROWTH = 512 * 1024 * 1024  # bytes of growth after which a worker forks every job again


def in_place_worker_class():
	"""RQ's forking ``Worker``, except for Huf's run jobs: those run in the worker's own process, warm,
	as ``bench huf-worker`` runs every job (a fork costs a job 0.1-0.15 s: benchmarks/README.md).
	Every other app's job is forked as before. The run jobs are Huf's own code, kept by the in-flight
	watcher: should one crash the process, the watcher of the next worker hands its run on
	(``huf/ai/run/inflight.py``). RQ's job timeout still applies (an alarm in the worker's process, as
	with RQ's ``SimpleWorker``). Should the process grow by ``IN_PLACE_GROWTH`` (a leak), the worker
	forks every job from then on, and says so in its log."""
	from rq import SimpleWorker, Worker

	class InPlaceWorker(Worker):
		in_place = True
		running_in_place = False
		baseline: int | None = None

		def execute_job(self, job, queue):
			if not (self.in_place and job.id.partition("::")[2].startswith(IN_PLACE_JOBS)):
				return super().execute_job(job, queue)
			self.baseline = self.baseline or resident()
			self._horse_pid = 0  # no work horse: a cold shutdown must not signal the last one's pid
			self.running_in_place = True
			try:
				SimpleWorker.execute_job(self, job, queue)
			finally:
				self.running_in_place = False
			if resident() - self.baseline > IN_PLACE_GROWTH:
				self.in_place = False
				self.log.warning("Huf: this worker grew by over %s MB; it forks every job from now on", IN_PLACE_GROWTH >> 20)

		def get_heartbeat_ttl(self, job):
			if self.running_in_place:  # nobody beats for the worker while it runs the job itself
				return SimpleWorker.get_heartbeat_ttl(self, job)
			return super().get_heartbeat_ttl(job)

	return InPlaceWorker


def resident() -> int:
	import psutil

	return psutil.Process().memory_info().rss


def run_huf_jobs_in_place() -> None:
	"""Make Frappe's ``bench worker`` use ``in_place_worker_class`` (its ``start_worker`` builds the
	worker from the ``Worker`` name in its module), unless the bench's common_site_config.json says
	``"huf_fork_every_job": 1``."""
	from frappe.utils import background_jobs

	with frappe.init_site():  # no site: the bench's common_site_config.json
		fork_every_job = frappe.conf.get("huf_fork_every_job")
	if not fork_every_job:
		background_jobs.Worker = in_place_worker_class()


def start(queue: str, burst: bool = False, max_jobs: int = MAX_JOBS) -> None:
	from frappe.utils.background_jobs import get_queue_list, get_redis_conn
	from rq import SimpleWorker

	from huf.ai.run.inflight import start_watcher

	with frappe.init_site():  # the bench's Redis settings, from common_site_config.json
		connection = get_redis_conn()
		queues = get_queue_list([q.strip() for q in queue.split(",")], build_queue_name=True)
	warm()
	start_watcher()
	SimpleWorker(queues, connection=connection).work(
		burst=burst, max_jobs=max_jobs, logging_level="WARNING", date_format="%Y-%m-%d %H:%M:%S"
	)
