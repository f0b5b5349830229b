"""Recovery after a dead worker, and what keeping track of work in flight costs a hop.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed
(it makes a user, flows and runs; the workers it starts are killed at the end):
    ../env/bin/python /path/to/huf/benchmarks/recovery.py --site <site> [--kills 20] [--worker worker]

1. Bookkeeping per hop: a chain of 20 instant nodes run hop by hop in this process (as
   flow_hops.py does), alternating runs with the job's mark and the in-flight entry (one Redis
   command after the commit that queues the hop, one pipeline when it takes the lock, one script
   when it lets go) and without them. Per hop: the median wall time of each side, the difference, and the
   SQL statements of each side.
2. Death to moving again: a flow whose one step is a GET to a local server that holds the request;
   2 workers (``bench worker`` by default: a fork per job). Each round SIGKILLs the worker (and its
   work horse) holding the step and measures until the repeated request reaches the server, i.e.
   until a live worker runs the step again. A new worker is started after each kill (as supervisor
   would), so one is always alive. Median, p95 and range over ``--kills`` rounds.
3. The same, but the worker dies while it starts the hop job (before the job took the run's lock:
   this process holds it), so only the job's mark in ``huf:queued`` tells.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import frappe  # noqa: E402
from flow_hops import USER, Counter, Workers, chain_flow, start  # noqa: E402
from site_run import spread  # noqa: E402


@contextmanager
def captured_hops():
	"""Hops are queued as in a real run (``inflight.enqueue``: the mark is written after the commit),
	but RQ never gets them: they are run here, one after another."""
	queued: list[tuple[str, int]] = []
	real = frappe.enqueue
	frappe.enqueue = lambda method, **kwargs: "flow_run" in kwargs and queued.append((kwargs["flow_run"], kwargs["hop"]))
	try:
		yield queued
	finally:
		frappe.enqueue = real


def unmarked(kind, name, method, job_id, **kwargs):
	frappe.enqueue(method, queue="long", job_id=job_id, enqueue_after_commit=True, **kwargs)


def bookkeeping(rounds: int) -> None:
	from huf.ai.run import inflight
	from huf.ai.flow import runs

	flow = chain_flow("huf-bench-chain")
	real_held, real_enqueue = inflight.held, inflight.enqueue
	sides = {"with": ([], []), "without": ([], [])}
	frappe.set_user(USER)
	try:
		with captured_hops() as queued:
			for round_ in range(2 * rounds + 2):
				side = "with" if round_ % 2 == 0 else "without"
				inflight.held = real_held if side == "with" else (lambda *a, **k: nullcontext())
				inflight.enqueue = real_enqueue if side == "with" else unmarked
				start(flow, {"score": 70})
				counter = Counter()
				while queued:
					flow_run, hop = queued.pop()
					counter.count = 0
					began = time.perf_counter()
					runs.run_hop(flow_run, hop)
					if round_ >= 2:  # the first two runs warm imports and caches
						sides[side][0].append(time.perf_counter() - began)
						sides[side][1].append(counter.count)
				counter.stop()
	finally:
		inflight.held, inflight.enqueue = real_held, real_enqueue
		frappe.set_user("Administrator")
		forget_marks("huf-flow:")
	with_, without = sides["with"], sides["without"]
	print(f"1. bookkeeping per hop, {len(with_[0])} hops each side, sides alternating by run:")
	print(f"   with the mark and the entry: {spread(with_[0])}, SQL/hop {statistics.median(with_[1]):.0f}")
	print(f"   without them:                {spread(without[0])}, SQL/hop {statistics.median(without[1]):.0f}")
	print(f"   difference of the medians:   {(statistics.median(with_[0]) - statistics.median(without[0])) * 1000:.3f} ms")
	lock = frappe.cache.lock(frappe.cache.make_key("huf:bench_inflight"), timeout=30, thread_local=False)
	lock.acquire()
	alone, job = [], f"{frappe.local.site}::huf-bench-mark"
	for _ in range(2000):
		began = time.perf_counter()
		frappe.cache.execute_command("HSET", inflight.QUEUED, job, inflight.mark(f"{frappe.local.site}|flow|huf-bench-entry"))
		with real_held("flow", "huf-bench-entry", lock):
			pass
		alone.append(time.perf_counter() - began)
	lock.release()
	forget_marks("huf-bench-mark")
	print(f"   the mark and the entry alone (written and deleted, 2,000 times): {spread(alone)}")


def forget_marks(prefix: str) -> None:
	from huf.ai.run import inflight
	mine = [f for f in frappe.cache.execute_command("HKEYS", inflight.QUEUED) or [] if f.decode().startswith(f"{frappe.local.site}::{prefix}")]
	if mine:
		frappe.cache.execute_command("HDEL", inflight.QUEUED, *mine)


def recovery(kills: int, command: str) -> None:
	import psutil

	from tests.site import fixtures
	from tests.site.flow_helpers import edge, node, save
	from tests.support.local_http import LocalServer

	fixtures.allowed_hosts("127.0.0.1")
	waits: list[float] = []
	with LocalServer() as server:
		flow = save("huf-bench-recovery", [node("hold", "http_request", method="GET", url=server.url("/sleep?seconds=60")), node("done", "end")], [edge("hold", "done")])
		workers = Workers(2, command)
		try:
			for _ in range(kills):
				seen = len(server.seen)
				name = start(flow, {})
				wait(lambda: len(server.seen) > seen, 60)
				holder = holder_of(name, workers)
				seen = len(server.seen)
				for process in [psutil.Process(holder.pid), *psutil.Process(holder.pid).children(recursive=True)]:
					process.kill()
				killed = time.monotonic()
				holder.wait()
				wait(lambda: len(server.seen) > seen, 120)
				waits.append(time.monotonic() - killed)
				server.go_on.set()  # the repeated request is answered: the run finishes
				wait(lambda: frappe.db.commit() or frappe.db.get_value("Flow Run", name, "status") == "Success", 60)
				server.go_on.clear()
				workers.supervise()  # a new worker in the dead one's place
				time.sleep(8)  # and let it start: one warm worker is alive when the next kill comes
		finally:
			server.go_on.set()
			workers.stop()
	ordered = sorted(waits)
	p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
	print(f"2. death of the worker holding a step -> the step running again on a live worker ({command}), {kills} kills:")
	print(f"   median {statistics.median(waits):.2f} s, p95 {p95:.2f} s (range {ordered[0]:.2f}-{ordered[-1]:.2f})")


def lost_job(kills: int, command: str) -> None:
	"""A hop job whose worker dies while it starts: this process holds the run's lock, so the job
	waits for it; its worker is killed then, before the job wrote any entry (only its mark tells)."""
	import psutil
	from frappe.utils.background_jobs import get_redis_conn
	from rq.job import Job

	from huf.ai.flow import runs
	from tests.site.flow_helpers import edge, node, save
	from tests.support.local_http import LocalServer

	waits: list[float] = []
	with LocalServer() as server:
		flow = save("huf-bench-lost", [node("hold", "http_request", method="GET", url=server.url("/sleep?seconds=60")), node("done", "end")], [edge("hold", "done")])
		workers = Workers(2, command)
		server.go_on.set()
		try:
			for _ in range(kills):
				name = start(flow, {})
				lock = frappe.cache.lock(runs.lock_key(name), timeout=60, thread_local=False)
				lock.acquire()
				job = Job.fetch(f"{frappe.local.site}::huf-flow:{name}:0", connection=get_redis_conn())
				wait(lambda: job.get_status(refresh=True) == "started", 60)
				job.refresh()  # its worker's name
				worker = int(get_redis_conn().hget(f"rq:worker:{job.worker_name}", "pid"))
				proc = next(p for p in workers.procs if p.pid == worker)
				seen = len(server.seen)
				for process in [psutil.Process(worker), *psutil.Process(worker).children(recursive=True)]:
					process.kill()
				killed = time.monotonic()
				proc.wait()
				lock.release()
				wait(lambda: len(server.seen) > seen, 120)
				waits.append(time.monotonic() - killed)
				wait(lambda: frappe.db.commit() or frappe.db.get_value("Flow Run", name, "status") == "Success", 60)
				workers.supervise()
				time.sleep(8)
		finally:
			workers.stop()
	ordered = sorted(waits)
	p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
	print(f"3. death of the worker starting a hop job (before it took its lock) -> the step running on a live worker ({command}), {kills} kills:")
	print(f"   median {statistics.median(waits):.2f} s, p95 {p95:.2f} s (range {ordered[0]:.2f}-{ordered[-1]:.2f})")


def holder_of(flow_run: str, workers: Workers):
	"""The worker process whose tree holds the run (its in-flight entry names the process)."""
	import json

	import psutil

	from huf.ai.run import inflight
	entry = json.loads(frappe.cache.execute_command("HGET", inflight.INFLIGHT, f"{frappe.local.site}|flow|{flow_run}"))
	return next(p for p in workers.procs if entry["pid"] in [p.pid, *(c.pid for c in psutil.Process(p.pid).children(recursive=True))])


def wait(predicate, timeout: float) -> None:
	deadline = time.monotonic() + timeout
	while not predicate():
		if time.monotonic() > deadline:
			raise AssertionError("timed out")
		time.sleep(0.01)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=20, help="runs of the 20-hop chain per side")
	parser.add_argument("--kills", type=int, default=20)
	parser.add_argument("--worker", default="worker", choices=("worker", "huf-worker"))
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from tests.site.conftest import make_user

	make_user(USER, ["Huf User"])
	try:
		bookkeeping(args.rounds)
		recovery(args.kills, args.worker)
		lost_job(args.kills, args.worker)
	finally:
		frappe.db.rollback()
		frappe.destroy()


if __name__ == "__main__":
	main()
