"""Prompt caching: what an agent's runs cost with Enable Prompt Caching on and off.

The agent loop (no database) against the scripted model server, which caches what marked requests
mark and reports the cached tokens as a caching provider does (``tests/support/scripted_llm.py``:
about 4 characters a token). Two scenarios, each run N times with the switch on and off:

- one run: long instructions, two rounds of tool calls, then the answer (3 model calls);
- a conversation: 5 runs in a row, each sending the whole history, each one tool round and an answer.

Priced three ways: LiteLLM's price data for gpt-4o-mini (cached input at half the input price) and
for Claude Sonnet 4.5 through OpenRouter (a tenth, and what is written to the cache at 1.25 times
the input price), and an AI Model's own prices in Claude Sonnet's proportions (3 / 15 / 0.30 USD
per million; custom prices bill writes at the input price). Prints medians: tokens, the cached and
written shares of the input, cost on / off and their ratio, and what marking costs per model call.

    python benchmarks/prompt_caching.py [--runs 30]
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

from huf.ai.engine import llm, prompt_cache  # noqa: E402
from huf.ai.engine.cost import Prices, compute_cost  # noqa: E402
from huf.ai.engine.events import Usage, UsageEvent  # noqa: E402
from huf.ai.engine.loop import run_loop  # noqa: E402
from huf.ai.engine.tools import Tool  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM, prompt_tokens, text, tool_calls  # noqa: E402

INSTRUCTIONS = (
	"You are the support desk's assistant. Answer from the records the tools return, name the record "
	"you used, never guess a date or an amount, and keep answers short. "
) * 40  # about 1,700 tokens: an agent with real instructions
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
TOOLS = [Tool("lookup", "Look a record up", SCHEMA, lambda a: {"record": a["q"], "status": "Open", "due": "2026-12-31"})]
PRICINGS = {
	"gpt-4o-mini (LiteLLM's prices)": ("gpt-4o-mini", "OpenAI", None),
	"Claude Sonnet 4.5 via OpenRouter (LiteLLM's prices)": ("anthropic/claude-sonnet-4.5", "OpenRouter", None),
	"AI Model's own prices 3 / 15 / 0.30": ("bench-model", "Local", Prices(3.0, 15.0, 0.3)),
}


def request(server: ScriptedLLM, model: str, provider: str, prices: Prices | None, caching: bool, messages: list[dict]) -> llm.LLMRequest:
	spec = llm.ModelSpec(model=model, provider=provider, api_key="sk-bench", api_base=server.base_url, caches_prompts=True if prices else None)
	return llm.LLMRequest(model=spec, messages=messages, prompt_caching=caching)


def one_run(server, model, provider, prices, caching, history: list[dict], question: str, rounds: int) -> tuple[Usage, float, list[dict]]:
	"""One agent run; returns its usage, its cost and the messages it added (its question first)."""
	# Every request's usage counts its prompt (marked or not), so on and off are billed for the same tokens.
	script = [
		lambda body, i=i: tool_calls([(f"c{i}", "lookup", json.dumps({"q": f"{question} #{i}"}))], usage=(prompt_tokens(body), 20, 0))
		for i in range(rounds - 1)
	]
	server.script(*script, lambda body: text(f"Here is what I found about {question}.", usage=(prompt_tokens(body), 40, 0)))
	messages = [{"role": "system", "content": INSTRUCTIONS}, *history, {"role": "user", "content": question}]
	used: list[Usage] = []
	result = run_loop(
		request(server, model, provider, prices, caching, messages), TOOLS,
		lambda event: used.append(event.usage) if isinstance(event, UsageEvent) else None,
		cost_of=lambda name, usage: compute_cost(name, usage, prices),
	)
	assert result.status == "success", result
	added = [{"role": "user", "content": question}, *result.messages]
	return result.usage, result.cost, added


def scenario(server, pricing, caching: bool, conversation: bool) -> tuple[Usage, float]:
	"""One sample: a single 3-call run, or a 5-run conversation; the server's cache starts empty."""
	model, provider, prices = pricing
	server.prompt_cache.clear()
	history: list[dict] = []
	total, cost = Usage(), 0.0
	for number in range(5 if conversation else 1):
		usage, spent, added = one_run(server, model, provider, prices, caching, history, f"ticket {number}", 2 if conversation else 3)
		total, cost = total + usage, cost + spent
		history += added
	return total, cost


def marking_cost(server, runs: int) -> float:
	"""Median seconds ``prompt_cache.marked`` takes for one call of a 20-message request."""
	messages = [{"role": "system", "content": INSTRUCTIONS}] + [{"role": "user" if i % 2 else "assistant", "content": f"message {i}"} for i in range(19)]
	req = request(server, "gpt-4o-mini", "OpenAI", None, True, messages)
	model = llm.normalize_model_name("gpt-4o-mini", "OpenAI", server.base_url)
	times = []
	for _ in range(runs * 100):
		started = time.perf_counter()
		prompt_cache.marked(req, model)
		times.append(time.perf_counter() - started)
	return statistics.median(times)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--runs", type=int, default=30)
	args = parser.parse_args()
	with ScriptedLLM() as server:
		scenario(server, PRICINGS["gpt-4o-mini (LiteLLM's prices)"], True, False)  # warm up imports and lookups
		print(f"runs per cell: {args.runs}; medians")
		print("| scenario | pricing | input tokens | cached (share) | written (share) | cost off | cost on | on / off |")
		print("| --- | --- | --- | --- | --- | --- | --- | --- |")
		for conversation in (False, True):
			label = "conversation of 5 runs, 2 calls each" if conversation else "one run, 3 calls"
			for name, pricing in PRICINGS.items():
				samples = {caching: [scenario(server, pricing, caching, conversation) for _ in range(args.runs)] for caching in (False, True)}
				off_cost = statistics.median(cost for _, cost in samples[False])
				on_cost = statistics.median(cost for _, cost in samples[True])
				tokens = statistics.median(usage.input_tokens for usage, _ in samples[True])
				cached = statistics.median(usage.cached_tokens for usage, _ in samples[True])
				written = statistics.median(usage.cache_write_tokens for usage, _ in samples[True])
				assert all(usage.cached_tokens == 0 for usage, _ in samples[False])
				print(
					f"| {label} | {name} | {tokens:,.0f} | {cached:,.0f} ({cached / tokens:.0%}) | {written:,.0f} ({written / tokens:.0%}) "
					f"| ${off_cost:.6f} | ${on_cost:.6f} | {on_cost / off_cost:.2f} |"
				)
		print(f"marking one call (20 messages, lookups cached): {marking_cost(server, args.runs) * 1e6:.1f} µs")


if __name__ == "__main__":
	main()
