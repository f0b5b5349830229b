"""How soon a queued run starts, and what the first inline run of a fresh web worker costs.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed and
no other worker serving the bench's queues:
    ../env/bin/python /path/to/huf/benchmarks/cold_starts.py --site <site> [--runs 40] [--web-starts 5]

1. Background runs through a real RQ worker, one after the other, with ``bench worker`` (a fork per
   job) and with ``bench huf-worker`` (no fork): queue -> started (the Agent Run's ``creation`` to its
   ``started_at``, both written by the database clock's caller) and queue -> Success (seen by polling).
2. The first inline run (``now=1``) over HTTP of a freshly started gunicorn (one web worker, started
   anew for each sample), serving Frappe's own app module and ``huf.wsgi``, both with ``--preload``
   as ``bench setup supervisor`` writes it. The readiness ping is the worker's first request: under
   ``frappe.app`` it starts Huf's warm-up in a background thread (``huf.ai.run.worker.warm_in_background``),
   so the stock worker's first run is timed right after it and ``--web-after`` seconds later. A stock
   ``bench worker`` runs beside the web server, as ``bench setup supervisor`` sets it up: a run that
   comes while the web worker is still warming up is offered to it (``huf.ai.run.runs.wait_while_warming``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

WEB_APPS = {"frappe.app": "tests.support.wsgi:application", "huf.wsgi": "huf.wsgi:application"}


def spread(values: list[float]) -> str:
	"""Median, then 10th-90th percentile and min-max, in milliseconds."""
	ms = sorted(v * 1000 for v in values)
	deciles = statistics.quantiles(ms, n=10, method="inclusive") if len(ms) > 1 else [ms[0]] * 9
	return f"median {statistics.median(ms):7.1f} ms  (p10-p90 {deciles[0]:.1f}-{deciles[-1]:.1f}, min-max {ms[0]:.1f}-{ms[-1]:.1f}, n={len(ms)})"


def agent(llm) -> str:
	from tests.site import fixtures
	from tests.support.scripted_llm import text

	llm.respond_with(lambda body: text("ok"))
	return fixtures.agent(llm, name="Cold Start Agent")


def registered(pids: set[int]) -> bool:
	from frappe.utils.background_jobs import get_redis_conn
	from rq import Worker

	return any(worker.pid in pids for worker in Worker.all(connection=get_redis_conn()))


def background(site: str, llm, command: str, runs: int) -> None:
	from huf.ai.agent.integration import run_agent_sync
	from tests.site.conftest import Workers, drop_site_jobs, wait_for

	name = agent(llm)
	drop_site_jobs(site)  # no backlog of this site's (earlier tests, migrate's jobs) in front of ours; other sites' stay
	workers = Workers(site)
	workers.start(1, command)
	try:
		wait_for(lambda: registered({workers.procs[0].pid}), 120, 0.2, "the worker")
		time.sleep(2)  # up and idle, as after a deploy
		started, success = [], []
		for i in range(runs + 1):
			clock = time.perf_counter()
			run = run_agent_sync(name, f"cold {i}", channel_id=f"cold-{command}-{time.time_ns()}")["run"]
			frappe.db.commit()
			wait_for(lambda: frappe.db.get_value("Agent Run", run, "status") == "Success", 120, 0.005, "run")
			waited = time.perf_counter() - clock
			row = frappe.db.get_value("Agent Run", run, ["creation", "started_at"], as_dict=True)
			if i == 0:
				print(f"  first run after the worker started: queue -> Success {waited * 1000:.0f} ms")
				continue
			started.append((row.started_at - row.creation).total_seconds())
			success.append(waited)
		print(f"  queue -> started: {spread(started)}")
		print(f"  queue -> Success: {spread(success)}")
	finally:
		workers.stop()


def web_first_run(site: str, llm, module: str, starts: int, after: float = 0.0) -> None:
	"""``after``: seconds between the readiness ping (the worker's first request) and the first run,
	as a person opening the chat page and typing; 0 sends the run at once."""
	from tests.site.conftest import Workers, wait_for

	name = agent(llm)
	first, second = [], []
	workers = Workers(site)  # a stock worker beside the web server, as `bench setup supervisor` writes it
	workers.start(1, "worker")
	wait_for(lambda: registered({workers.procs[0].pid}), 120, 0.2, "the worker")
	try:
		for i in range(starts):
			web_start(site, name, module, i, after, first, second)
	finally:
		workers.stop()
	print(f"  first inline run:  {spread(first)}")
	print(f"  second inline run: {spread(second)}")


def web_start(site: str, name: str, module: str, i: int, after: float, first: list, second: list) -> None:
	from tests.site.conftest import Web

	web = Web(site, workers=1, threads=1, app=WEB_APPS[module], preload=True)
	try:
		headers = web.token_headers("Administrator")
		time.sleep(after)
		for timings in (first, second):
			clock = time.perf_counter()
			response = web.post(
				"/api/method/huf.ai.agent.integration.run_agent_sync",
				{"agent_name": name, "prompt": f"web {i}", "now": 1, "channel_id": f"web-{time.time_ns()}"},
				headers,
			)
			timings.append(time.perf_counter() - clock)
			assert response.ok and response.json()["message"]["status"] == "Success", response.text
	finally:
		web.stop()


def main() -> None:
	from tests.support.scripted_llm import ScriptedLLM

	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--runs", type=int, default=40)
	parser.add_argument("--web-starts", type=int, default=5)
	parser.add_argument("--workers", default="huf-worker,worker", help="which worker commands, comma separated")
	parser.add_argument("--web", default="huf.wsgi,frappe.app", help="which app modules, comma separated")
	parser.add_argument("--web-after", type=float, default=10.0, help="seconds from a stock worker's first request to its first run")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from tests.site.fixtures import LOCAL_HOSTS, allowed_hosts

	allowed_hosts(*LOCAL_HOSTS)
	try:
		with ScriptedLLM() as llm:
			for command in filter(None, args.workers.split(",")):
				print(f"background runs through `bench {command}`, {args.runs} runs one after the other:")
				background(args.site, llm, command, args.runs)
			for module in filter(None, args.web.split(",")):
				for after in (0.0, args.web_after) if module == "frappe.app" else (0.0,):
					when = f"{after:g} s after" if after else "right after"
					print(f"a fresh gunicorn (--preload, 1 worker) serving {module}, first run {when} its first request, {args.web_starts} starts:")
					web_first_run(args.site, llm, module, args.web_starts, after)
	finally:
		frappe.db.rollback()
		frappe.destroy()


if __name__ == "__main__":
	main()
