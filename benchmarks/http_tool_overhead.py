"""Time the SSRF-safe client (engine/safe_http.py) adds to one HTTP request, against bare httpx.

Both talk to the same local server (tests/support/local_http.py, 127.0.0.1 allow-listed), in
alternating rounds so drift in the machine's load hits both alike. Three cases:

- one-shot: ``safe_http.request("POST", ...)`` (what an HTTP tool or a knowledge URL does: a new
  connection, the lookup and check, the redirect loop, the deadline watchdog, the capped body read)
  against a fresh ``httpx.Client`` per request with the same SSL context (a new connection too);
- HTTP tool: a POST tool's whole call (``engine/http_tool.run``: the address rules, the tool's
  header, the one-shot request, the answer shaped, JSON parsed, the secret hidden) against the same
  one-shot bare httpx request with that header;
- pooled: a ``safe_http.client()`` reused (as the MCP transports do) against a reused
  ``httpx.Client``; after the first request both use a kept-alive connection.

Prints median and 10th/90th percentiles of each side and of the per-round difference, in ms.

    python benchmarks/http_tool_overhead.py [--rounds 2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from huf.ai.engine import http_tool, safe_http  # noqa: E402
from tests.support.local_http import LocalServer  # noqa: E402

ALLOW = frozenset({"127.0.0.1"})
BODY = {"query": "opening hours", "limit": 5}


def timed(call) -> float:
	started = time.perf_counter()
	call()
	return (time.perf_counter() - started) * 1000


def spread(values: list[float]) -> str:
	cuts = statistics.quantiles(values, n=10)
	return f"median {statistics.median(values):6.3f}  p10 {cuts[0]:6.3f}  p90 {cuts[-1]:6.3f}"


def compare(name: str, rounds: int, safe, bare) -> None:
	for _ in range(50):  # warm up imports, the SSL context and the server's threads
		safe()
		bare()
	safe_ms, bare_ms = [], []
	for n in range(rounds):
		first, second = (safe, bare) if n % 2 else (bare, safe)
		a, b = timed(first), timed(second)
		safe_ms.append(a if first is safe else b)
		bare_ms.append(b if first is safe else a)
	added = [s - b for s, b in zip(safe_ms, bare_ms, strict=True)]
	print(f"{name}  ({rounds} alternating rounds, ms)")
	print(f"  bare httpx   {spread(bare_ms)}")
	print(f"  safe_http    {spread(safe_ms)}")
	print(f"  added        {spread(added)}   ratio of medians {statistics.median(safe_ms) / statistics.median(bare_ms):.2f}")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=2000)
	rounds = parser.parse_args().rounds
	context = safe_http.default_ssl_context()
	with LocalServer() as server:
		url = server.url()

		def one_shot_safe():
			assert safe_http.request("POST", url, json=BODY, allow=ALLOW, max_bytes=1_000_000).status == 200

		def one_shot_bare():
			with httpx.Client(verify=context, trust_env=False) as http:
				assert http.post(url, json=BODY).status_code == 200

		compare("one-shot request (new connection each time)", rounds, one_shot_safe, one_shot_bare)
		secret = {"Authorization": "Bearer sk-bench-0123456789"}
		tool = http_tool.HttpTool("bench", "POST", server.url(""), tuple(secret.items()))

		def tool_call():
			assert http_tool.run(tool, {"url": "/echo", "body": BODY}, ALLOW)["status_code"] == 200

		def tool_bare():
			with httpx.Client(verify=context, trust_env=False) as http:
				assert http.post(url, json=BODY, headers=secret).json()["method"] == "POST"

		compare("HTTP tool call (POST tool, one-shot)", rounds, tool_call, tool_bare)
		with safe_http.client(ALLOW) as safe, httpx.Client(verify=context, trust_env=False) as bare:
			compare(
				"pooled client (kept-alive connection)",
				rounds,
				lambda: safe.post(url, json=BODY).raise_for_status(),
				lambda: bare.post(url, json=BODY).raise_for_status(),
			)


if __name__ == "__main__":
	main()
