"""The prompt of the turn after a 1 MB tool result, with artifacts (issue target: within 2,000
tokens of the turn after a short result), and what keeping the result costs the engine.

The agent loop (no database) against the scripted model server, which counts prompt tokens at about
4 characters a token (``tests/support/scripted_llm.py``). Each round: a run whose tool returns a
short result and one whose tool returns about 1 MB of JSON, alternated; the artifact store is a dict.
Prints the median prompt tokens of the second model call on each side and their difference, and
the median wall time of the run on each side.

    python benchmarks/artifacts.py [--rounds 20]
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

from huf.ai.engine import artifacts, llm  # noqa: E402
from huf.ai.engine.loop import LoopSettings, run_loop  # noqa: E402
from huf.ai.engine.tools import Tool  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM, prompt_tokens, text, tool_calls  # noqa: E402

ROWS = [{"item": f"ITEM-{i:05d}", "qty": i % 17, "note": "x" * 80} for i in range(9000)]
PAYLOADS = {"short": json.dumps({"rows": ROWS[:3], "total": 3}), "1 MB": json.dumps({"rows": ROWS, "total": len(ROWS)})}


def one(server: ScriptedLLM, payload: str) -> tuple[int, float]:
	server.reset()
	server.script(tool_calls([("c1", "export_rows", "{}")]), text("Done."))
	kept: dict[str, str] = {}

	def store(_name: str, body: str) -> str:
		kept[f"a{len(kept)}"] = body
		return f"a{len(kept) - 1}"

	tools = [Tool("export_rows", "All rows", {"type": "object", "properties": {}}, lambda _a: payload), artifacts.read_tool(kept.__getitem__, 20000)]
	spec = llm.ModelSpec(model="scripted-model", provider="OpenAI", api_key="sk-bench", api_base=server.base_url)
	request = llm.LLMRequest(model=spec, messages=[{"role": "system", "content": "You help."}, {"role": "user", "content": "Export the rows."}])
	started = time.perf_counter()
	run_loop(request, tools, lambda _e: None, LoopSettings(max_context_chars=20000, overflow=artifacts.stasher(store)))
	return prompt_tokens(server.chat_requests[1]["body"]), time.perf_counter() - started


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=20)
	args = parser.parse_args()
	tokens: dict[str, list[int]] = {name: [] for name in PAYLOADS}
	times: dict[str, list[float]] = {name: [] for name in PAYLOADS}
	with ScriptedLLM() as server:
		one(server, PAYLOADS["short"])  # warm-up: LiteLLM's first call imports and loads its data
		for _ in range(args.rounds):
			for name, payload in PAYLOADS.items():  # alternated every round
				count, seconds = one(server, payload)
				tokens[name].append(count)
				times[name].append(seconds)
	for name in PAYLOADS:
		spread = statistics.quantiles(times[name], n=10)
		print(
			f"{name:>6} result: next prompt {statistics.median(tokens[name]):.0f} tokens; "
			f"run {statistics.median(times[name]) * 1000:.1f} ms median (p10 {spread[0] * 1000:.1f}, p90 {spread[-1] * 1000:.1f})"
		)
	print(f"difference: {statistics.median(tokens['1 MB']) - statistics.median(tokens['short']):.0f} tokens (target: under 2,000)")


if __name__ == "__main__":
	main()
