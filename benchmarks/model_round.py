"""One model round through Huf's model layer, next to the OpenAI SDK and plain httpx.

All sides speak to the same scripted OpenAI-compatible server (``tests/support/scripted_llm.py``),
which runs in a process of its own so its work does not share this process's GIL. Each round asks
for a streamed answer with usage (``stream_options.include_usage``) and reads it to the end; the
sides take turns, round by round, so a busy moment on this shared machine falls on all of them.

- short: one round with a one-word answer (4 chunks: role, text, finish, usage)
- long: a 1,000-chunk answer; per chunk = (long round - the side's short median) / 1,000; and how
  soon its first text reached the caller
- tiny: a 100,000-chunk answer of one character each (a server that floods), per chunk the same way

Sides: ``huf`` is ``llm.stream_turn`` as a site calls it (an API Base with an allow-list, so the
connection goes through ``safe_http``: pinned.py); ``huf-own`` the same without an allow-list
(LiteLLM's own client, as for providers without an API Base); ``sdk`` the OpenAI SDK, one client
kept; ``httpx`` one ``httpx.Client`` kept, lines parsed with ``json.loads``. Wall time per round,
and CPU time of this process (all its threads), which is what a chunk costs a worker.

    python benchmarks/model_round.py [--rounds 300] [--long-rounds 40] [--tiny-rounds 3]
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
from openai import OpenAI  # noqa: E402

from huf.ai.engine import llm  # noqa: E402
from timing import spread  # noqa: E402

KEY = "sk-bench"
LONG, TINY = 1_000, 100_000

# The server: answers "n" (the last message) with n one-character chunks, or one word when n is 1.
SERVER = """
import sys
from tests.support.scripted_llm import ScriptedLLM, text

def answer(body):
	n = int(body["messages"][-1]["content"])
	return text("x" * n, chunks=n) if n > 1 else text("answer")

with ScriptedLLM() as server:
	server.respond_with(answer)
	print(server.base_url, flush=True)
	sys.stdin.read()
"""


def messages(n: int) -> list[dict]:
	return [{"role": "system", "content": "bench"}, {"role": "user", "content": str(n)}]


def huf_side(base: str, allowed: frozenset[str] | None):
	spec = llm.ModelSpec(model="bench-model", provider="Local", api_key=KEY, api_base=base, allowed_hosts=allowed)

	def call(n: int) -> tuple[str, float]:
		first: list[float] = []

		def shown(text: str) -> None:
			if not first:
				first.append(time.perf_counter())

		turn = llm.stream_turn(llm.LLMRequest(model=spec, messages=messages(n)), on_delta=shown)
		assert turn.usage.input_tokens == 10, turn.usage
		return turn.content, first[0]

	return call


def sdk_side(base: str):
	client = OpenAI(api_key=KEY, base_url=base, max_retries=0, timeout=120)

	def call(n: int) -> tuple[str, float]:
		parts, usage, first = [], None, 0.0
		stream = client.chat.completions.create(
			model="bench-model", messages=messages(n), stream=True, stream_options={"include_usage": True}
		)
		for chunk in stream:
			usage = chunk.usage or usage
			for choice in chunk.choices:
				if choice.delta.content:
					first = first or time.perf_counter()
					parts.append(choice.delta.content)
		assert usage.prompt_tokens == 10, usage
		return "".join(parts), first

	return call


def httpx_side(base: str):
	client = httpx.Client(timeout=120)
	headers = {"Authorization": f"Bearer {KEY}"}

	def call(n: int) -> tuple[str, float]:
		parts, usage, first = [], None, 0.0
		body = {"model": "bench-model", "messages": messages(n), "stream": True, "stream_options": {"include_usage": True}}
		with client.stream("POST", f"{base}/chat/completions", json=body, headers=headers) as response:
			for line in response.iter_lines():
				if not line.startswith("data: ") or line == "data: [DONE]":
					continue
				event = json.loads(line[6:])
				usage = event.get("usage") or usage
				for choice in event["choices"]:
					if choice["delta"].get("content"):
						first = first or time.perf_counter()
						parts.append(choice["delta"]["content"])
		assert usage["prompt_tokens"] == 10, usage
		return "".join(parts), first

	return call


def take_turns(sides: dict, n: int, rounds: int) -> tuple[dict, dict, dict]:
	"""Wall and CPU seconds per round for each side, and seconds to its first text; the order
	rotates every round."""
	names = list(sides)
	wall = {name: [] for name in names}
	cpu = {name: [] for name in names}
	first = {name: [] for name in names}
	for r in range(rounds):
		for name in names[r % len(names) :] + names[: r % len(names)]:
			started, used = time.perf_counter(), time.process_time()
			answer, shown = sides[name](n)
			cpu[name].append(time.process_time() - used)
			wall[name].append(time.perf_counter() - started)
			first[name].append(shown - started)
			assert len(answer) == (n if n > 1 else 6), (name, len(answer))
	return wall, cpu, first


def us(seconds: float) -> str:
	return f"{seconds * 1e6:.1f} µs"


def ms(seconds: float) -> str:
	return f"{seconds * 1000:.2f} ms"


def report(title: str, times: dict, unit, per: int = 1, base: dict | None = None) -> dict:
	"""Print each side's spread (per chunk when ``per`` > 1, minus its short-round median) and its
	median against the SDK's; return the medians."""
	print(title)
	values = {name: [(t - (base[name] if base else 0)) / per for t in ts] for name, ts in times.items()}
	medians = {name: statistics.median(v) for name, v in values.items()}
	for name, v in values.items():
		line = f"  {name:8} {spread(v, unit)}"
		if name != "sdk":
			diff = medians[name] - medians["sdk"]
			line += f"  x{medians[name] / medians['sdk']:.2f} of sdk ({'+' if diff >= 0 else '-'}{unit(abs(diff))})"
		print(line)
	return medians


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=300)
	parser.add_argument("--long-rounds", type=int, default=40)
	parser.add_argument("--tiny-rounds", type=int, default=3)
	args = parser.parse_args()
	server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
	try:
		base = server.stdout.readline().strip()
		sides = {
			"huf": huf_side(base, frozenset({"127.0.0.1"})),
			"huf-own": huf_side(base, None),
			"sdk": sdk_side(base),
			"httpx": httpx_side(base),
		}
		take_turns(sides, 1, 20)  # warm up imports, schemas, connections
		take_turns(sides, LONG, 2)
		print(f"one streamed round with usage, {args.rounds} rounds per side, sides alternating")
		wall, cpu, _first = take_turns(sides, 1, args.rounds)
		short_wall = report(" wall per round", wall, ms)
		short_cpu = report(" CPU per round (this process)", cpu, ms)
		print(f"\n{LONG:,}-chunk answer, {args.long_rounds} rounds per side; per chunk beyond the short round")
		wall, cpu, first = take_turns(sides, LONG, args.long_rounds)
		report(" wall per chunk", wall, us, LONG, short_wall)
		report(" CPU per chunk", cpu, us, LONG, short_cpu)
		report(" first text after", first, ms)
		if args.tiny_rounds:
			print(f"\n{TINY:,} one-character chunks, {args.tiny_rounds} rounds per side")
			wall, cpu, _first = take_turns(sides, TINY, args.tiny_rounds)
			report(" wall per chunk", wall, us, TINY, short_wall)
			report(" CPU per chunk", cpu, us, TINY, short_cpu)
	finally:
		server.stdin.close()
		server.wait(timeout=10)


if __name__ == "__main__":
	main()
