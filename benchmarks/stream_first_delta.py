"""Time to the first delta through the whole site path, minus the same request sent straight to the
scripted model server through LiteLLM.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/stream_first_delta.py --site <site> [--runs 30] [--worker huf-worker]

Site path: POST /huf/stream/<agent> on gunicorn (token auth) -> run queued -> RQ worker -> LiteLLM ->
scripted server -> event log in Redis -> the POST's own response. Direct path: litellm.completion
(stream=True) to the same server, in this process. Both stop at the first text chunk. Prints medians
and where the site path spends its time (arrival of Queued, Started and the first delta).
``--worker huf-worker`` runs the jobs in Huf's worker (no fork per job) instead of Frappe's ``worker``.
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

MESSAGES = [{"role": "user", "content": "hi"}]


def ms(seconds: float) -> str:
	return f"{seconds * 1000:.1f} ms"


def direct_first_delta(llm, runs: int) -> list[float]:
	import litellm

	timings = []
	for _ in range(runs + 3):
		started = time.perf_counter()
		stream = litellm.completion(
			model="openai/scripted-model", api_base=llm.base_url, api_key="sk-test", messages=MESSAGES, stream=True
		)
		first = None
		for chunk in stream:
			if first is None and chunk.choices and chunk.choices[0].delta.content:
				first = time.perf_counter() - started
		timings.append(first)
	return timings[3:]  # the first calls warm LiteLLM's client up


def site_first_delta(web, agent: str, runs: int) -> dict[str, list[float]]:
	import requests

	from tests.site.run.test_stream import iter_events

	headers = web.token_headers("Administrator")
	phases = {"queued": [], "started": [], "delta": []}
	for i in range(runs + 3):
		seen = {}
		started = time.perf_counter()
		with requests.post(
			f"{web.base}/huf/stream/{agent}", json={"prompt": "hi", "channel_id": f"bench-{time.time()}"}, headers=headers, stream=True, timeout=60
		) as response:
			for event in iter_events(response):
				name = event["data"].get("status", event["event"]).lower()
				seen.setdefault(name, time.perf_counter() - started)
				if name in ("success", "failed", "cancelled"):
					break
		assert "delta" in seen, seen
		if i >= 3:
			for phase in phases:
				phases[phase].append(seen[phase])
	return phases


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--runs", type=int, default=30)
	parser.add_argument("--worker", default="worker", choices=("worker", "huf-worker"))
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")

	from tests.site import fixtures
	from tests.site.conftest import Web, Workers
	from tests.support.scripted_llm import ScriptedLLM, text

	with ScriptedLLM() as llm:
		llm.respond_with(lambda body: text("first second third", chunks=3, delay=0.05))
		agent = fixtures.agent(llm, name="Stream Bench Agent", persist_conversation=0)
		workers, web = Workers(args.site), Web(args.site, workers=1)
		workers.start(1, command=args.worker)
		try:
			time.sleep(5)  # the worker is up and idle
			site = site_first_delta(web, agent, args.runs)
		finally:
			workers.stop()
			web.stop()
		direct = direct_first_delta(llm, args.runs)

	median = {phase: statistics.median(values) for phase, values in site.items()}
	straight = statistics.median(direct)
	kind = "huf-worker (no fork)" if args.worker == "huf-worker" else "Frappe's worker (a fork per job)"
	print(f"time to first delta, {args.runs} runs, medians; {kind}, gunicorn 1 worker:")
	print(f"  straight through LiteLLM:           {ms(straight)}")
	print(f"  through the site:                   {ms(median['delta'])}")
	print(f"  added by the site path:             {ms(median['delta'] - straight)}")
	print(f"    POST -> Queued event (web):        {ms(median['queued'])}")
	print(f"    Queued -> Started (job pickup):    {ms(median['started'] - median['queued'])}")
	print(f"    Started -> first delta (run+model): {ms(median['delta'] - median['started'])}")


if __name__ == "__main__":
	main()
