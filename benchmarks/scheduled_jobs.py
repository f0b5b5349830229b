"""What Huf's minute-by-minute work costs a bench's worker: its three tasks as three jobs (as they
were scheduled until 2026-12-05) against the one job that runs them now (huf/ai/run/every_minute.py).

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed and
no other worker serving the bench's queues:
    ../env/bin/python /path/to/huf/benchmarks/scheduled_jobs.py --site <site> [--ticks 20]

One `bench worker` (a fork per job, as Frappe's scheduler jobs run) serves the default queue. Each
tick enqueues the work one way or the other, alternating, and waits until the worker is done: the
time from the first enqueue to the last job's end, and the worker's CPU time (its forks included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

TASKS = {
	"three jobs": ["huf.ai.run.runs.sweep_stale_runs", "huf.ai.triggers.schedules.enqueue_due", "huf.ai.knowledge.indexer.sweep"]
}
TASKS["one job"] = ["huf.ai.run.every_minute.run"]


def cpu_of(pid: int) -> float:
	"""CPU seconds of the worker, with those of the work horses it forked and waited for."""
	import psutil

	times = psutil.Process(pid).cpu_times()
	return times.user + times.system + times.children_user + times.children_system


def tick(methods: list[str], worker_pid: int) -> tuple[float, float]:
	from frappe.utils.background_jobs import get_queue

	cpu = cpu_of(worker_pid)
	started = time.perf_counter()
	jobs = [frappe.enqueue(method, queue="default") for method in methods]
	queue = get_queue("default")
	while queue.count or any(job.get_status(refresh=True) not in ("finished", "failed") for job in jobs):
		time.sleep(0.005)
	wall = time.perf_counter() - started
	time.sleep(0.2)  # the work horse is waited for, so its CPU time is counted in the worker's
	return wall, cpu_of(worker_pid) - cpu


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--ticks", type=int, default=20)
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	from tests.site.conftest import Workers, drop_site_jobs

	drop_site_jobs(args.site, ("default",))  # the bench's queue: other sites' jobs stay
	workers = Workers(args.site)
	workers.start(1)
	try:
		time.sleep(15)  # warmed up and idle
		results: dict[str, list] = {name: [] for name in TASKS}
		for i in range(args.ticks + 1):
			for name in TASKS if i % 2 else reversed(list(TASKS)):
				result = tick(TASKS[name], workers.procs[0].pid)
				if i:
					results[name].append(result)
	finally:
		workers.stop()
		frappe.destroy()
	print(f"{args.ticks} ticks each way, one `bench worker`; medians (min-max):")
	for name, rows in results.items():
		walls, cpus = [r[0] * 1000 for r in rows], [r[1] * 1000 for r in rows]
		print(
			f"  {name:10}: worker busy {statistics.median(walls):.0f} ms ({min(walls):.0f}-{max(walls):.0f}), CPU {statistics.median(cpus):.0f} ms ({min(cpus):.0f}-{max(cpus):.0f})"
		)


if __name__ == "__main__":
	main()
