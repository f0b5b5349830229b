"""Huf's own time on a real site, against the scripted model server (instant answers).

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/site_run.py --site <site> [--runs 30] [--only inline|cold] [--show-sql]

Prints medians of: a whole run with 3 tool calls (executed inline), split into model calls, tool
work and everything else (persistence and bookkeeping), with its SQL statement count; then the
first run after an RQ worker starts and after a web worker starts, against the second one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402


def ms(seconds: float) -> str:
	return f"{seconds * 1000:.1f} ms"


def spread(values: list[float]) -> str:
	"""Median, with the middle half and the whole range: this machine is shared, single runs vary."""
	ordered = sorted(values)
	quarter = len(ordered) // 4
	middle = f"{ms(ordered[quarter])}-{ms(ordered[-quarter - 1])}"
	return f"{ms(statistics.median(ordered)):>9}  (middle half {middle}, range {ms(ordered[0])}-{ms(ordered[-1])})"


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


def script_three_tools(llm) -> None:
	from tests.support.scripted_llm import text, tool_calls

	todo = frappe.get_all("ToDo", limit=1, pluck="name")[0]
	llm.script(
		tool_calls([("c1", "bench_get_todos", json.dumps({"limit": 5}))]),
		tool_calls(
			[
				("c2", "bench_create_todo", json.dumps({"data": {"description": "benchmark"}})),
				("c3", "bench_get_todo", json.dumps({"name": todo})),
			]
		),
		text("Done."),
	)


class Meter:
	"""Wraps the model call, the tools and frappe.db.sql to split a run's wall time."""

	def __init__(self):
		from huf.ai.engine import loop, tools

		self.model = self.tools = 0.0
		self.sql = self.tool_sql = 0
		self.in_tool = False
		self.statements: list[str] = []
		real_call, real_exec, real_sql = loop.llm.stream_turn, tools.execute_tool_call, frappe.db.sql

		def timed_call(*args, **kwargs):
			started = time.perf_counter()
			try:
				return real_call(*args, **kwargs)
			finally:
				self.model += time.perf_counter() - started

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
			self.statements.append(" ".join(str(args[0]).split())[:160])
			return real_sql(*args, **kwargs)

		loop.execute_tool_call = timed_exec
		frappe.db.sql = counted_sql
		self._call = timed_call

	def reset(self):
		self.model = self.tools = 0.0
		self.sql = self.tool_sql = 0
		self.statements = []


def measure_inline(site: str, runs: int, show_sql: bool = False) -> None:
	from huf.ai.agent.integration import run_agent_sync
	from huf.ai.engine import loop
	from tests.support.scripted_llm import ScriptedLLM

	with ScriptedLLM() as llm:
		agent = setup(llm)
		frappe.get_doc({"doctype": "ToDo", "description": "seed"}).insert()
		meter = Meter()
		real_run_loop = loop.run_loop

		def run_loop(*args, **kwargs):
			kwargs["call_model"] = meter._call
			return real_run_loop(*args, **kwargs)

		from huf.ai import executor

		executor.run_loop = run_loop
		totals, model, tools, other, sql, tool_sql = [], [], [], [], [], []
		for i in range(runs + 3):
			script_three_tools(llm)
			meter.reset()
			started = time.perf_counter()
			result = run_agent_sync(agent, f"benchmark {i}", channel_id=f"bench-{i}", now=True)
			wall = time.perf_counter() - started
			assert result["status"] == "Success", result
			if i < 3:
				continue  # warm-up: imports, caches
			totals.append(wall)
			model.append(meter.model)
			tools.append(meter.tools)
			other.append(wall - meter.model - meter.tools)
			sql.append(meter.sql)
			tool_sql.append(meter.tool_sql)
		huf = [wall - called for wall, called in zip(totals, model)]
		print(f"3-tool-call run, inline, {runs} runs (median, middle half, range):")
		print(f"  whole run (wall):              {spread(totals)}")
		print(f"  model calls (scripted server): {spread(model)}")
		print(f"  tool work:                     {spread(tools)}")
		print(f"  Huf persistence + bookkeeping: {spread(other)}")
		print(f"  Huf time (wall - model):       {spread(huf)}")
		print(f"  SQL statements per run:        {statistics.median(sql):.0f} (range {min(sql)}-{max(sql)}), of which the tools' own {statistics.median(tool_sql):.0f}")
		if show_sql:
			print("  statements of the last run:")
			for number, statement in enumerate(meter.statements, 1):
				print(f"    {number:2}. {statement}")


def measure_cold_starts(site: str) -> None:
	"""First run after a worker process starts vs the next one (queue-first, through real RQ)."""
	from huf.ai.agent.integration import run_agent_sync
	from tests.site.conftest import Web, Workers, wait_for
	from tests.support.scripted_llm import ScriptedLLM, text

	with ScriptedLLM() as llm:
		agent = setup(llm)
		llm.respond_with(lambda body: text("ok"))
		from frappe.utils.background_jobs import get_queue

		for queue in ("long", "default", "short"):
			get_queue(queue).empty()  # no backlog (earlier tests, migrate's jobs) in front of ours
		workers = Workers(site)
		workers.start(1)
		time.sleep(8)  # the worker is up and idle, as after a deploy
		latencies = []
		for i in range(2):
			started = time.perf_counter()
			run = run_agent_sync(agent, f"cold {i}", channel_id=f"cold-{time.time()}")["run"]
			frappe.db.commit()
			wait_for(lambda: frappe.db.get_value("Agent Run", run, "status") == "Success", 120, 0.02, "run")
			latencies.append(time.perf_counter() - started)
		workers.stop()
		print("background run, queue -> Success, through a real RQ worker (each job a forked process):")
		for row in frappe.get_all(
			"Agent Run",
			filters={"prompt": ["like", "cold%"]},
			fields=["creation", "started_at", "duration_seconds"],
			order_by="creation desc",
			limit=2,
		)[::-1]:
			print(f"  (queued -> started {ms((row.started_at - row.creation).total_seconds())}, run {ms(row.duration_seconds)})")
		print(f"  first run after the worker started: {ms(latencies[0])}")
		print(f"  second run:                         {ms(latencies[1])}")

		web = Web(site)
		headers = web.token_headers("Administrator")
		timings = []
		for i in range(2):
			started = time.perf_counter()
			response = web.post(
				"/api/method/huf.ai.agent.integration.run_agent_sync",
				{"agent_name": agent, "prompt": f"web {i}", "now": 1, "channel_id": f"web-{time.time()}"},
				headers,
			)
			timings.append(time.perf_counter() - started)
			assert response.ok and response.json()["message"]["status"] == "Success", response.text
		web.stop()
		print("inline run (now=1) over HTTP right after gunicorn started (2 workers):")
		print(f"  first request:  {ms(timings[0])}")
		print(f"  second request: {ms(timings[1])}  (may land on the other, still cold, worker)")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--runs", type=int, default=30)
	parser.add_argument("--only", choices=("inline", "cold"), help="only the inline run, or only the cold starts")
	parser.add_argument("--show-sql", action="store_true", help="print the SQL statements of the last inline run")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	try:
		if args.only != "cold":
			measure_inline(args.site, args.runs, args.show_sql)
		if args.only != "inline":
			measure_cold_starts(args.site)
	finally:
		frappe.db.rollback()
		frappe.destroy()


if __name__ == "__main__":
	main()
