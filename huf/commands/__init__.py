"""Huf's bench commands, and the warm-up of Frappe's own workers.

Frappe's CLI imports every app's ``commands`` module before it runs a command. Frappe 15 has no
hook that runs when a worker starts, so Huf wraps Frappe's ``worker`` and ``worker-pool`` commands:
when one of them runs (and only then), the process warms up (``huf.ai.run.worker.warm``) before it
forks its first job, and every job inherits LiteLLM instead of importing it (seconds per job); and
it starts the watcher that hands on a dead worker's runs within seconds (``huf.ai.run.inflight``).
``bench worker`` also runs Huf's run jobs in its own warm process instead of a fork
(``huf.ai.run.worker.in_place_worker_class``); every other job is forked as before.
"""

import functools

import click
from frappe.commands.scheduler import start_worker, start_worker_pool


def warm_first(command: click.Command, before=None) -> None:
	run = command.callback
	if getattr(run, "huf_warms_first", False):  # wrapped once, even if this module is loaded again
		return

	@functools.wraps(run)
	def warm_then_run(*args, **kwargs):
		from huf.ai.run.inflight import start_watcher
		from huf.ai.run.worker import warm

		warm()
		start_watcher()  # hands on the work of workers that died (huf/ai/run/inflight.py)
		if before:
			before()
		return run(*args, **kwargs)

	warm_then_run.huf_warms_first = True
	command.callback = warm_then_run


def run_in_place() -> None:
	from huf.ai.run.worker import run_huf_jobs_in_place

	run_huf_jobs_in_place()


warm_first(start_worker, before=run_in_place)
warm_first(start_worker_pool)


@click.command("huf-worker")
@click.option("--queue", default="long,default,short", show_default=True, help="Queues to work on, comma separated")
@click.option("--burst", is_flag=True, help="Stop when the queues are empty")
def huf_worker(queue: str, burst: bool = False) -> None:
	"""A background worker without a fork per job: agent runs start in milliseconds."""
	from huf.ai.run.worker import start

	start(queue, burst)


commands = [huf_worker]
