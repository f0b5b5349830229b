"""Flow hops on a real site: what Huf's hop job costs around the engine, and hops through workers.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed
(it makes a user, flows and runs; the workers it starts are stopped at the end):
    ../env/bin/python /path/to/huf/benchmarks/flow_hops.py --site <site> [--rounds 5] [--show-sql]

1. Inline: a chain of 20 instant nodes (condition, transform) run hop by hop by calling
   ``runs.run_hop`` in this process, as the run's user (as a worker does: the next hop is enqueued
   by that user), with the next hop's enqueue captured instead of sent to RQ. Per hop: wall time
   and SQL statements (``frappe.db.sql`` calls, as site_run.py counts them).
2. Through 2 real RQ workers (``bench worker``: a fork per job; ``--worker huf-worker``: Huf's, no
   fork): N flows of M instant hops started at once, wall time from the first start to the last
   Success; hops per second.
3. A 1,000-item loop (a transform body; 2,002 hops) through the same workers, start to Success.
Rounds alternate 2 and 3 and print the median and the range.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_run import spread  # noqa: E402

USER = "flow-bench@example.com"
CHAIN = 10  # condition + transform pairs


def chain_flow(flow_id: str, pairs: int = CHAIN) -> str:
	from tests.site.flow_helpers import edge, node, save

	nodes, edges = [], []
	for n in range(pairs):
		nodes += [node(f"c{n}", "condition", expression="trigger.score > 50"), node(f"t{n}", "transform", mode="template", template="{{ trigger.score }}", key=f"v{n}")]
		edges.append(edge(f"c{n}", f"t{n}", "on_success"))
		if n + 1 < pairs:
			edges.append(edge(f"t{n}", f"c{n + 1}"))
	return save(flow_id, nodes, edges)


def loop_flow(flow_id: str, items: int) -> str:
	from tests.site.flow_helpers import edge, node, save

	return save(
		flow_id,
		[node("each", "loop", items="trigger.items", max_iterations=items), node("body", "transform", mode="template", template="{{ item }}", key="last"), node("done", "end")],
		[edge("each", "body", meta={"outcome": "body"}), edge("body", "each"), edge("each", "done", meta={"outcome": "done"})],
		max_hops=2 * items + 10,
	)  # fmt: skip


def start(flow_id: str, payload: dict) -> str:
	from huf.ai.flow.runs import start_run

	name = start_run(flow_id, payload, USER)
	frappe.db.commit()
	return name


class Counter:
	def __init__(self):
		self.count, self.statements, real = 0, [], frappe.db.sql

		def counted(*args, **kwargs):
			self.count += 1
			self.statements.append(" ".join(str(args[0]).split())[:160])
			return real(*args, **kwargs)

		self.real, frappe.db.sql = real, counted

	def stop(self):
		frappe.db.sql = self.real


def inline(rounds: int, show_sql: bool) -> None:
	from huf.ai.flow import runs

	flow = chain_flow("huf-bench-chain")
	queued: list[tuple[str, int]] = []
	real_enqueue = runs.enqueue_hop
	runs.enqueue_hop = lambda flow_run, hop, suffix="": queued.append((flow_run, hop))
	times, sql, last = [], [], []
	frappe.set_user(USER)
	try:
		for round_ in range(rounds + 1):
			start(flow, {"score": 70})
			counter = Counter()
			while queued:
				flow_run, hop = queued.pop()
				counter.count, counter.statements = 0, []
				began = time.perf_counter()
				runs.run_hop(flow_run, hop)
				elapsed = time.perf_counter() - began
				if round_:  # the first round warms imports and caches
					times.append(elapsed)
					sql.append(counter.count)
					last = counter.statements
			counter.stop()
			status = frappe.db.get_value("Flow Run", flow_run, "status")
			assert status == "Success", status
	finally:
		runs.enqueue_hop = real_enqueue
		frappe.set_user("Administrator")
	print(f"1. one hop inline, instant nodes, {len(times)} hops ({rounds} runs of {2 * CHAIN}):")
	print(f"   wall per hop:        {spread(times)}")
	print(f"   SQL statements/hop:  {statistics.median(sql):.0f} (range {min(sql)}-{max(sql)})")
	if show_sql:
		print("   statements of the last hop:")
		for number, statement in enumerate(last, 1):
			print(f"     {number:2}. {statement}")


class Workers:
	"""Real RQ workers, restarted when one exits as supervisor does (``huf-worker`` exits after
	1,000 jobs by design)."""

	def __init__(self, count: int, command: str):
		self.command, self.log = command, open(os.path.join(os.getcwd(), "..", "logs", "huf-bench-workers.log"), "ab")  # noqa: SIM115
		self.procs = [self.spawn() for _ in range(count)]
		self.restarts = 0

	def spawn(self) -> subprocess.Popen:
		return subprocess.Popen(
			[sys.executable, "-m", "frappe.utils.bench_helper", "frappe", self.command, "--queue", "long,default,short"],
			cwd=os.getcwd(), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
		)  # fmt: skip

	def supervise(self) -> None:
		for index, proc in enumerate(self.procs):
			if proc.poll() is not None:
				self.procs[index], self.restarts = self.spawn(), self.restarts + 1


	def stop(self) -> None:
		import psutil

		for proc in self.procs:
			try:
				for process in [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]:
					process.kill()
			except psutil.NoSuchProcess:
				pass
			proc.wait()


def until_done(names: list[str], timeout: float, workers: Workers) -> None:
	"""Wait until every run is Success (the clock is the caller's)."""
	deadline = time.monotonic() + timeout
	while time.monotonic() < deadline:
		workers.supervise()
		frappe.db.commit()
		statuses = frappe.get_all("Flow Run", {"name": ["in", names]}, pluck="status")
		if all(s == "Success" for s in statuses):
			return
		assert "Failed" not in statuses, statuses
		time.sleep(0.05)
	raise AssertionError(f"runs not done in {timeout} s")


def through_workers(flows: int, rounds: int, items: int, command: str) -> None:
	chain = chain_flow("huf-bench-chain")
	loop = loop_flow("huf-bench-loop", items)
	workers = Workers(2, command)
	rates, loops = [], []
	try:
		until_done([start(chain, {"score": 70})], 120, workers)  # both workers up and warm
		for _ in range(rounds):
			began = time.monotonic()
			until_done([start(chain, {"score": 70}) for _ in range(flows)], 600, workers)
			rates.append(flows * 2 * CHAIN / (time.monotonic() - began))
			began = time.monotonic()
			until_done([start(loop, {"items": list(range(items))})], 1800, workers)
			loops.append(time.monotonic() - began)
	finally:
		workers.stop()
	print(f"2. 2 workers ({command}), {flows} flows of {2 * CHAIN} instant hops at once, {rounds} rounds:")
	print(f"   hops per second:     {statistics.median(rates):.1f} (range {min(rates):.1f}-{max(rates):.1f})")
	print(f"   workers restarted after their max jobs: {workers.restarts}")
	print(f"3. {items}-item loop ({2 * items + 2} hops) through the same workers, {rounds} rounds:")
	print(f"   start to Success:    {statistics.median(loops):.1f} s (range {min(loops):.1f}-{max(loops):.1f})")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=5, help="inline: runs of the chain; workers: rounds")
	parser.add_argument("--flows", type=int, default=10)
	parser.add_argument("--items", type=int, default=1000)
	parser.add_argument("--worker", default="worker", choices=("worker", "huf-worker"))
	parser.add_argument("--inline-only", action="store_true")
	parser.add_argument("--show-sql", action="store_true", help="print the SQL statements of the last inline hop")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from tests.site.conftest import make_user

	make_user(USER, ["Huf User"])
	try:
		inline(args.rounds * 10, args.show_sql)
		if not args.inline_only:
			through_workers(args.flows, args.rounds, args.items, args.worker)
	finally:
		frappe.db.rollback()
		frappe.destroy()


if __name__ == "__main__":
	main()
