"""Engine overhead per model round, without the database.

Runs the agent loop against the scripted model server (instant answers) and subtracts the time the
same requests take when sent straight through LiteLLM. Prints medians in milliseconds.

    python benchmarks/engine_overhead.py [--rounds 200]
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
from huf.ai.engine.events import no_listener  # noqa: E402
from huf.ai.engine.loop import run_loop  # noqa: E402
from huf.ai.engine.tools import Tool  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM, text, tool_calls  # noqa: E402

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def request(server: ScriptedLLM) -> llm.LLMRequest:
	spec = llm.ModelSpec(model="bench-model", provider="Local", api_key="sk-bench", api_base=server.base_url)
	return llm.LLMRequest(model=spec, messages=[{"role": "system", "content": "bench"}, {"role": "user", "content": "go"}])


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=200)
	args = parser.parse_args()
	tools = [Tool("lookup", "Look up", SCHEMA, lambda a: {"answer": a["q"] * 3})]
	with ScriptedLLM() as server:
		base = request(server)
		for _ in range(5):  # warm up imports and connections
			server.script(text("warm"))
			llm.stream_turn(base)
		direct, looped = [], []
		for _ in range(args.rounds):
			server.script(text("answer"))
			started = time.perf_counter()
			llm.stream_turn(base)
			direct.append(time.perf_counter() - started)
			server.script(tool_calls([("c1", "lookup", json.dumps({"q": "x"}))]), text("answer"))
			started = time.perf_counter()
			result = run_loop(base, tools, no_listener)
			looped.append((time.perf_counter() - started) / 2)  # two model rounds per loop run
			assert result.status == "success", result
	d, r = statistics.median(direct) * 1000, statistics.median(looped) * 1000
	print(f"rounds: {args.rounds}")
	print(f"median model round straight through LiteLLM: {d:.2f} ms")
	print(f"median loop round (model + tool + events):   {r:.2f} ms")
	print(f"engine overhead per round (median):          {r - d:.2f} ms")


if __name__ == "__main__":
	main()
