"""Huf's own time on a real site, against the scripted model server (instant answers).

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/site_run.py --site <site> [--runs 30] [--rounds 1] [--show-sql]

Prints medians of: a whole run with 3 tool calls (executed inline), split into model calls, tool
work and everything else (persistence and bookkeeping), with its SQL statement count, and the CPU
time of this thread outside the model calls (what the Huf time is when MariaDB and Redis answer at
once: on a busy machine the wall time grows, this does not). How soon a queued run starts, and the
first run of a fresh web worker: cold_starts.py.

The scripted model server runs in a process of its own by default, as a real model server would:
in this process its request threads would take the interpreter's lock while Huf works and be
counted as Huf's time. `--server-in-process` puts it back in this process (how figures before
2026-12-07 were taken).
"""

from __future__ import annotations

import argparse
import json
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

sys.path.insert(0, str(ROOT / "benchmarks"))
from timing import ms, spread  # noqa: E402,F401 - flow_hops and recovery import spread from here


def setup(llm) -> str:
	from tests.site import fixtures

	fixtures.tool("bench_get_todos", "Get List", "ToDo")
	fixtures.tool("bench_create_todo", "Create Document", "ToDo")
	fixtures.tool("bench_get_todo", "Get Document", "ToDo")
	agent = fixtures.agent(
		llm, name="Bench Agent", tools=("bench_get_todos", "bench_create_todo", "bench_get_todo"), context_strategy="FIFO"
	)
	frappe.db.commit()
	return agent


def three_tools(todo: str) -> list:
	"""The run's three model answers: one tool call, two at once, then the text."""
	from tests.support.scripted_llm import text, tool_calls

	return [
		tool_calls([("c1", "bench_get_todos", json.dumps({"limit": 5}))]),
		tool_calls(
			[
				("c2", "bench_create_todo", json.dumps({"data": {"description": "benchmark"}})),
				("c3", "bench_get_todo", json.dumps({"name": todo})),
			]
		),
		text("Done."),
	]


def script_three_tools(llm) -> None:
	if isinstance(llm, ServerProcess):
		return  # it answers by the run's progress (see serve)
	llm.script(*three_tools(frappe.get_all("ToDo", limit=1, pluck="name")[0]))


class ServerProcess:
	"""The scripted server in a child process, answering each request by how many tool results it
	carries (0, 1 or 3), so nothing has to be scripted across the process boundary."""

	def __enter__(self):
		todo = frappe.get_all("ToDo", limit=1, pluck="name")[0]
		self.child = subprocess.Popen(
			[sys.executable, __file__, "--serve", todo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
		)
		self.base_url = self.child.stdout.readline().strip()
		return self

	def __exit__(self, *exc):
		self.child.stdin.close()
		self.child.wait(10)


def serve(todo: str) -> None:
	from tests.support.scripted_llm import ScriptedLLM

	answers = three_tools(todo)
	with ScriptedLLM() as llm:
		llm.respond_with(lambda body: answers[{0: 0, 1: 1}.get(sum(m.get("role") == "tool" for m in body["messages"]), 2)])
		print(llm.base_url, flush=True)
		sys.stdin.read()  # until the benchmark closes it


class Meter:
	"""Wraps the model call, the tools and frappe.db.sql to split a run's wall time."""

	def __init__(self):
		from huf.ai.engine import loop, tools

		self.model = self.tools = self.model_cpu = 0.0
		self.sql = self.tool_sql = 0
		self.in_tool = False
		self.statements: list[str] = []
		real_call, real_exec, real_sql = loop.llm.stream_turn, tools.execute_tool_call, frappe.db.sql

		def timed_call(*args, **kwargs):
			started, cpu = time.perf_counter(), time.thread_time()
			try:
				return real_call(*args, **kwargs)
			finally:
				self.model += time.perf_counter() - started
				self.model_cpu += time.thread_time() - cpu

		def timed_exec(*args, **kwargs):
			started = time.perf_counter()
			self.statements.append("-- tool starts")
			self.in_tool = True
			try:
				return real_exec(*args, **kwargs)
			finally:
				self.in_tool = False
				self.tools += time.perf_counter() - started
				self.statements.append("-- tool ends")

		def counted_sql(*args, **kwargs):
			self.sql += 1
			self.tool_sql += self.in_tool
			self.statements.append(args[0])  # the text is tidied only when printed: not on the clock
			return real_sql(*args, **kwargs)

		loop.execute_tool_call = timed_exec
		frappe.db.sql = counted_sql
		self._call = timed_call

	def reset(self):
		self.model = self.tools = self.model_cpu = 0.0
		self.sql = self.tool_sql = 0
		self.statements = []


def measure_inline(site: str, runs: int, show_sql: bool = False, in_process: bool = False, rounds: int = 1) -> None:
	"""``rounds`` rounds of ``runs`` runs, a pause between them: on a shared machine one round can
	fall in a busy moment, so each round's median is printed beside the figures of all runs."""
	from huf.ai.agent.integration import run_agent_sync
	from huf.ai.engine import loop
	from tests.support.scripted_llm import ScriptedLLM

	frappe.get_doc({"doctype": "ToDo", "description": "seed"}).insert()
	frappe.db.commit()
	with ScriptedLLM() if in_process else ServerProcess() as llm:
		agent = setup(llm)
		meter = Meter()
		real_run_loop = loop.run_loop

		def run_loop(*args, **kwargs):
			kwargs["call_model"] = meter._call
			return real_run_loop(*args, **kwargs)

		from huf.ai.run import executor
		executor.run_loop = run_loop
		totals, model, tools, other, sql, tool_sql, round_medians, cpu = [], [], [], [], [], [], [], []
		for i in range(runs * rounds + 3):
			if i > 3 and (i - 3) % runs == 0:
				round_medians.append(statistics.median(t - m for t, m in zip(totals[-runs:], model[-runs:], strict=True)))
				time.sleep(2)
			script_three_tools(llm)
			meter.reset()
			started, started_cpu = time.perf_counter(), time.thread_time()
			result = run_agent_sync(agent, f"benchmark {i}", channel_id=f"bench-{i}", now=True)
			wall, used = time.perf_counter() - started, time.thread_time() - started_cpu
			assert result["status"] == "Success", result
			if i < 3:
				continue  # warm-up: imports, caches
			totals.append(wall)
			cpu.append(used - meter.model_cpu)
			model.append(meter.model)
			tools.append(meter.tools)
			other.append(wall - meter.model - meter.tools)
			sql.append(meter.sql)
			tool_sql.append(meter.tool_sql)
		huf = [wall - called for wall, called in zip(totals, model, strict=True)]
		round_medians.append(statistics.median(huf[-runs:]))
		where = "in this process" if in_process else "in its own process"
		print(f"3-tool-call run, inline, {rounds} x {runs} runs, model server {where} (median, middle half, range):")
		print(f"  whole run (wall):              {spread(totals)}")
		print(f"  model calls (scripted server): {spread(model)}")
		print(f"  tool work:                     {spread(tools)}")
		print(f"  Huf persistence + bookkeeping: {spread(other)}")
		print(f"  Huf time (wall - model):       {spread(huf)}")
		print(f"  of which this thread's CPU:    {spread(cpu)}")
		if rounds > 1:
			print(f"  Huf time, each round's median: {', '.join(ms(value) for value in round_medians)}")
		print(f"  SQL statements per run:        {statistics.median(sql):.0f} (range {min(sql)}-{max(sql)}), of which the tools' own {statistics.median(tool_sql):.0f}")
		if show_sql:
			print("  statements of the last run:")
			for number, statement in enumerate(meter.statements, 1):
				print(f"    {number:2}. {' '.join(str(statement).split())[:160]}")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--runs", type=int, default=30)
	parser.add_argument("--show-sql", action="store_true", help="print the SQL statements of the last inline run")
	parser.add_argument("--server-in-process", action="store_true", help="run the scripted model server in this process")
	parser.add_argument("--rounds", type=int, default=1, help="rounds of --runs runs, 2 s apart (a noisy machine)")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	try:
		measure_inline(args.site, args.runs, args.show_sql, args.server_in_process, args.rounds)
	finally:
		frappe.db.rollback()
		frappe.destroy()


if __name__ == "__main__":
	if sys.argv[1:2] == ["--serve"]:
		serve(sys.argv[2])
	else:
		main()
