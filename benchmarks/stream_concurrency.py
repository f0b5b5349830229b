"""How many live streams one web worker relays while its other requests stay fast.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/stream_concurrency.py --site <site> [--streams 8,32,64,128]

One gunicorn worker (gthread, threads = streams + 8). For each count N: N clients follow
/huf/stream/run/<run> for N runs while this process appends a delta to every run's event log 20 times
a second for 8 s (what N busy background workers would write), and a probe calls
/api/method/ping and huf.ai.agent.integration.get_agent_run_status every 100 ms. Prints the probe's
median and 95th percentile, the median and 95th percentile lag of a delta from its append to its
arrival, and whether every client got every event in order.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

RATE = 20  # deltas per second per stream
SECONDS = 8


def ms(seconds: float) -> str:
	return f"{seconds * 1000:.0f} ms"


def percentile(values: list[float], share: float) -> float:
	ordered = sorted(values)
	return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def make_runs(count: int) -> list[str]:
	from huf.ai.run.rows import insert_row
	from tests.site import fixtures

	agent = fixtures.agent(None, name="Stream Concurrency Agent")
	runs = [
		insert_row("Agent Run", {"agent": agent, "user": "Administrator", "status": "Started", "prompt": "bench", "run_kind": "chat"})
		for _ in range(count)
	]
	frappe.db.commit()
	return runs


def follow(url: str, headers: dict, expected: int, out: list, ready: threading.Barrier) -> None:
	import requests

	from tests.site.run.test_stream import iter_events

	received, lags = [], []
	ready.wait()
	with requests.get(url, headers=headers, stream=True, timeout=SECONDS * 10) as response:
		for event in iter_events(response):
			if event["event"] == "delta":
				received.append(event["data"]["seq"])
				lags.append(time.time() - event["data"]["at"])
			if event["event"] == "status" and event["data"]["status"] == "Success":
				break
	out.append((received == list(range(expected)), lags))


def probe(web, headers: dict, run: str, stop: threading.Event, out: list) -> None:
	import requests

	session = requests.Session()
	while not stop.is_set():
		for path, params in (("/api/method/ping", {}), ("/api/method/huf.ai.agent.integration.get_agent_run_status", {"run": run})):
			started = time.perf_counter()
			response = session.get(web.base + path, params=params, headers=headers, timeout=30)
			out.append(time.perf_counter() - started)
			assert response.ok, response.text
		time.sleep(0.1)


def measure(site: str, count: int) -> None:
	from huf.ai.run import event_log
	from tests.site.conftest import Web

	web = Web(site, workers=1, threads=count + 8)
	headers = web.token_headers("Administrator")
	runs = make_runs(count)
	expected = RATE * SECONDS
	results, probes, stop = [], [], threading.Event()
	ready = threading.Barrier(count + 1)
	clients = [
		threading.Thread(target=follow, args=(f"{web.base}/huf/stream/run/{run}", headers, expected, results, ready)) for run in runs
	]
	for client in clients:
		client.start()
	ready.wait()
	time.sleep(1)  # every client is attached
	prober = threading.Thread(target=probe, args=(web, headers, runs[0], stop, probes))
	prober.start()
	for seq in range(expected):
		tick = time.perf_counter()
		for run in runs:
			event_log.append(run, "delta", {"type": "delta", "content": "x", "seq": seq, "at": time.time()})
		time.sleep(max(0.0, 1 / RATE - (time.perf_counter() - tick)))
	for run in runs:
		event_log.append(run, "status", {"type": "status", "run": run, "status": "Success"})
	for client in clients:
		client.join(timeout=60)
	stop.set()
	prober.join()
	web.stop()
	complete = sum(1 for ok, _ in results if ok)
	lags = [lag for _, values in results for lag in values]
	print(
		f"{count:>4} streams: other requests median {ms(statistics.median(probes))}, p95 {ms(percentile(probes, 0.95))};"
		f" delta lag median {ms(statistics.median(lags))}, p95 {ms(percentile(lags, 0.95))};"
		f" {complete}/{count} streams got every event in order"
	)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--streams", default="8,32,64,128")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	print(f"one gunicorn worker (gthread); {RATE} deltas/s per stream for {SECONDS} s:")
	for count in (int(n) for n in args.streams.split(",")):
		measure(args.site, count)


if __name__ == "__main__":
	main()
