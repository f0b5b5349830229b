"""A long reply streamed through the agent loop, the wire encoding and the run's event log.

    python benchmarks/stream_large_reply.py [--rounds 5] [--size 1048576] [--chunk 1024] [--redis redis://127.0.0.1:6379/0]

The scripted server sends a reply of --size characters in --chunk pieces (1 MB in 1 KB pieces: 1,024
deltas); it goes through LiteLLM and the loop three ways: nobody listening, each event encoded as
the JSON clients get (``engine/wire.py``), and that plus the event log's Redis writes (XADD of the
event, and APPEND of the piece to the run's text in the same transaction, as
``huf/ai/run/event_log.py`` does) when a Redis answers at --redis. Each way again as the code was
before deltas stopped carrying the text so far ("before": the text joined, encoded and XADDed with
every delta). Prints the median and range over the rounds and what one reply writes to Redis.
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
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from huf.ai.engine import llm  # noqa: E402
from huf.ai.engine.events import DeltaEvent, no_listener  # noqa: E402
from huf.ai.engine.loop import LoopSettings, run_loop  # noqa: E402
from huf.ai.engine.wire import to_wire  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM, text  # noqa: E402

LOG, TEXT = "huf-bench:run_events", "huf-bench:run_text"
MAX_EVENTS, TTL = 20_000, 3600  # event_log's MAXLEN and an open run's TTL
NO_CAP = LoopSettings(max_response_chars=0)  # the reply is longer than the default cap


class Sink:
	"""The loop's listener: ``wire`` encodes each event, ``client`` (a Redis) also stores it."""

	def __init__(self, before: bool, wire: bool, client=None):
		self.before, self.wire, self.client = before, wire, client
		self.pieces: list[str] = []
		self.stored = 0

	def __call__(self, event) -> None:
		if self.before and isinstance(event, DeltaEvent):
			self.pieces.append(event.content)
			so_far = "".join(self.pieces)  # what the loop did for every delta
			wire = ("delta", {"type": "delta", "content": event.content, "full_response": so_far})
		else:
			wire = to_wire(event, "bench-run", "bench-conversation")
		if wire is None or not self.wire:
			return
		name, data = wire
		payload = json.dumps(data, default=str)
		if self.client is not None:
			self.store(name, data, payload)

	def store(self, name: str, data: dict, payload: str) -> None:
		pipe = self.client.pipeline(transaction=name == "delta" and not self.before)
		pipe.xadd(LOG, {"event": name, "data": payload}, maxlen=MAX_EVENTS, approximate=True)
		pipe.expire(LOG, TTL)
		if name == "delta" and not self.before:
			pipe.append(TEXT, data["content"])
			self.stored += len(data["content"])
		pipe.expire(TEXT, TTL)
		pipe.execute()
		self.stored += len(payload)


def redis_client(url: str | None):
	if not url:
		return None
	import redis

	client = redis.Redis.from_url(url)
	try:
		client.ping()
	except redis.RedisError as error:
		print(f"no Redis at {url} ({error}): the Redis lines are left out")
		return None
	return client


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=5)
	parser.add_argument("--size", type=int, default=1024 * 1024)
	parser.add_argument("--chunk", type=int, default=1024)
	parser.add_argument("--redis", default=os.environ.get("HUF_BENCH_REDIS", "redis://127.0.0.1:6379/0"))
	args = parser.parse_args()
	client = redis_client(args.redis)
	reply = ("lorem ipsum dolor sit amet " * (args.size // 27 + 1))[: args.size]
	pieces = [reply[i : i + args.chunk] for i in range(0, len(reply), args.chunk)]
	ways = [("loop alone", False), ("loop + wire encoding", True)]
	if client is not None:
		ways.append(("loop + wire + Redis event log", True))
	times: dict[tuple[str, bool], list[float]] = {}
	stored: dict[tuple[str, bool], int] = {}
	with ScriptedLLM() as server:
		spec = llm.ModelSpec(model="bench-model", provider="Local", api_key="sk-bench", api_base=server.base_url)
		request = llm.LLMRequest(model=spec, messages=[{"role": "user", "content": "write a lot"}])
		server.script(text("warm"))
		run_loop(request, [], no_listener)  # imports and the first connection
		for _round in range(args.rounds):
			for name, wire in ways:
				for before in (False, True):
					uses_redis = name.endswith("Redis event log")
					sink = Sink(before, wire, client if uses_redis else None)
					if not wire and not before:
						sink = no_listener
					server.script(text(reply, chunks=pieces))
					started = time.perf_counter()
					result = run_loop(request, [], sink, NO_CAP)
					times.setdefault((name, before), []).append(time.perf_counter() - started)
					assert result.status == "success" and len(result.response) == len(reply), result.error
					if uses_redis:
						stored[(name, before)] = sink.stored
						client.delete(LOG, TEXT)
	print(f"a {len(reply):,}-character reply in {len(pieces):,} pieces of {args.chunk:,}; {args.rounds} rounds, median (min-max):")
	for name, _wire in ways:
		for before in (False, True):
			values = times[(name, before)]
			label = f"{name}, {'before' if before else 'now'}"
			line = f"  {label:<46} {statistics.median(values) * 1000:9.1f} ms ({min(values) * 1000:.1f}-{max(values) * 1000:.1f})"
			if (name, before) in stored:
				line += f"; {stored[(name, before)] / 1024 / 1024:,.1f} MB written to Redis"
			print(line)


if __name__ == "__main__":
	main()
