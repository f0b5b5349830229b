"""``bench huf-worker``: an RQ worker that runs each job in its own long-lived process instead of a
fork per job. The process stays warm (LiteLLM imported, its HTTP clients and response types built),
so an agent run starts answering about 0.3 s sooner than under ``bench worker`` (benchmarks/README.md).

Jobs still get Frappe's usual per-job setup (``frappe.init``/``connect``/``destroy``); RQ's job
timeout still applies. What a fork would isolate is not isolated: a job that leaks memory leaks it
into the worker, so the worker exits after ``max_jobs`` jobs and the process manager restarts it.
"""

from __future__ import annotations

import frappe

MAX_JOBS = 1000


def start(queue: str, burst: bool = False, max_jobs: int = MAX_JOBS) -> None:
	from frappe.utils.background_jobs import get_queue_list, get_redis_conn
	from rq import SimpleWorker

	from huf.ai.engine.llm import preload

	with frappe.init_site():  # the bench's Redis settings, from common_site_config.json
		connection = get_redis_conn()
		queues = get_queue_list([q.strip() for q in queue.split(",")], build_queue_name=True)
	preload()
	SimpleWorker(queues, connection=connection).work(
		burst=burst, max_jobs=max_jobs, logging_level="WARNING", date_format="%Y-%m-%d %H:%M:%S"
	)
