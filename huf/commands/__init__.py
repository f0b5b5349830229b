"""Huf's bench commands, and the worker warm-up.

Frappe's CLI imports every app's ``commands`` module when it starts, in the process that later
forks one child per background job. When that process is an RQ worker, importing LiteLLM and Huf's
run path here, once, means every forked job inherits them instead of paying seconds of imports per
agent run (measured in benchmarks/README.md).
"""

import sys

import click

if {"worker", "worker-pool"}.intersection(sys.argv[1:]):
	from huf.ai.engine.llm import preload

	preload()
	import huf.ai.runs  # noqa: F401 - Frappe's document and query modules come with it


@click.command("huf-worker")
@click.option("--queue", default="long,default,short", show_default=True, help="Queues to work on, comma separated")
@click.option("--burst", is_flag=True, help="Stop when the queues are empty")
def huf_worker(queue: str, burst: bool = False) -> None:
	"""A background worker without a fork per job: agent runs start answering sooner."""
	from huf.ai.worker import start

	start(queue, burst)


commands = [huf_worker]
