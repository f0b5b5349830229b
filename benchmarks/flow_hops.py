"""Flow hops on a real site: what Huf's hop job costs around the engine, and hops through workers.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed
(it makes a user, flows and runs; the workers it starts are stopped at the end):
    ../env/bin/python /path/to/huf/benchmarks/flow_hops.py --site <site> [--rounds 5] [--show-sql]
        [--worker worker,huf-worker] [--slices 0,2] [--items 1000] [--flows 10]

1. Inline: a chain of 20 instant nodes (condition, transform) run by calling ``runs.run_hop`` in
   this process, as the run's user (as a worker does), with the enqueue of the next hop captured
   instead of sent to RQ: once one hop a call (time slice 0), once the whole chain in one call (the
   slice long enough). Per hop: wall time and SQL statements (``frappe.db.sql`` calls, as
   site_run.py counts them).
2. Through 2 real RQ workers, for each worker command (``worker``: Frappe's ``bench worker``, a fork
   per job; ``huf-worker``: Huf's, no fork) and each Flow time slice (Agent Settings, set for the
   benchmark and put back after; 0 is one hop a job): N flows of M instant hops started at once,
   wall time from the first start to the last Success; hops per second.
3. A loop of ``--items`` items (a transform body; 2 x items + 2 hops) through the same workers,
   start to Success.
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
	for chained in (False, True):
		times, sql, last = inline_hops(rounds, chained)
		how = "the whole chain in one run_hop call" if chained else "one hop a run_hop call (slice 0)"
		print(f"1{'b' if chained else 'a'}. inline, instant nodes, {how}, {len(times)} hops ({rounds} runs of {2 * CHAIN}):")
		print(f"   wall per hop:        {spread(times)}")
		print(f"   SQL statements/hop:  {statistics.median(sql):.0f} (range {min(sql)}-{max(sql)})")
		if show_sql:
			print("   statements of the last hop:")
			for number, statement in enumerate(last, 1):
				print(f"     {number:2}. {statement}")


def inline_hops(rounds: int, chained: bool) -> tuple[list[float], list[float], list[str]]:
	"""Per hop: wall times and statement counts (a chained call's, divided by the hops it ran), and
	the statements of the last hop (a chained call's, all of them)."""
	from huf.ai.flow import runs

	flow = chain_flow("huf-bench-chain")
	queued: list[tuple[str, int]] = []
	real_enqueue, real_slice = runs.enqueue_hop, runs.time_slice
	runs.enqueue_hop = lambda flow_run, hop, suffix="": queued.append((flow_run, hop))
	runs.time_slice = lambda: 600.0 if chained else 0.0
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
				hops = (frappe.db.get_value("Flow Run", flow_run, "hop_count") or 0) - hop
				if round_:  # the first round warms imports and caches
					times += [elapsed / hops] * hops
					sql += [counter.count / hops] * hops
					last = counter.statements
			counter.stop()
			status = frappe.db.get_value("Flow Run", flow_run, "status")
			assert status == "Success", status
	finally:
		runs.enqueue_hop, runs.time_slice = real_enqueue, real_slice
		frappe.set_user("Administrator")
	return times, sql, last


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


def through_workers(flows: int, rounds: int, items: int, command: str, slice_: float) -> None:
	chain = chain_flow("huf-bench-chain")
	loop = loop_flow("huf-bench-loop", items)
	set_slice(slice_)
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
	print(f"2. 2 workers ({command}), time slice {slice_:g} s, {flows} flows of {2 * CHAIN} instant hops at once, {rounds} rounds:")  # fmt: skip
	print(f"   hops per second:     {statistics.median(rates):.1f} (range {min(rates):.1f}-{max(rates):.1f})")
	print(f"   workers restarted after their max jobs: {workers.restarts}")
	print(f"3. {items}-item loop ({2 * items + 2} hops) through the same workers, {rounds} rounds:")
	print(f"   start to Success:    {statistics.median(loops):.1f} s (range {min(loops):.1f}-{max(loops):.1f})")
	print(f"   hops per second:     {statistics.median([(2 * items + 2) / t for t in loops]):.1f}")


def set_slice(seconds: float | None) -> float | None:
	"""Agent Settings' Flow time slice, saved (the workers read it); returns the value before."""
	before = frappe.db.get_single_value("Agent Settings", "flow_time_slice")
	settings = frappe.get_doc("Agent Settings")
	settings.flow_time_slice = seconds
	settings.save(ignore_permissions=True)
	frappe.db.commit()
	return before


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=5, help="inline: runs of the chain; workers: rounds")
	parser.add_argument("--flows", type=int, default=10)
	parser.add_argument("--items", type=int, default=1000)
	parser.add_argument("--worker", default="worker,huf-worker", help="worker commands, comma-separated: worker, huf-worker")
	parser.add_argument("--slices", default="0,2", help="Flow time slices to measure (seconds), comma-separated")
	parser.add_argument("--inline-only", action="store_true")
	parser.add_argument("--show-sql", action="store_true", help="print the SQL statements of the last inline hop")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from tests.site.conftest import make_user

	make_user(USER, ["Huf User"])
	commands = [c.strip() for c in args.worker.split(",") if c.strip()]
	assert set(commands) <= {"worker", "huf-worker"}, commands
	before = frappe.db.get_single_value("Agent Settings", "flow_time_slice")
	try:
		inline(args.rounds * 10, args.show_sql)
		if not args.inline_only:
			for command in commands:
				for slice_ in (float(s) for s in args.slices.split(",")):
					through_workers(args.flows, args.rounds, args.items, command, slice_)
	finally:
		frappe.db.rollback()
		set_slice(before)
		frappe.destroy()


if __name__ == "__main__":
	main()
