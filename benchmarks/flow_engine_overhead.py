"""The pure flow engine's own time per hop (no database, no queue): ``step()`` on instant nodes.

1. A chain of condition and transform nodes (each with expression edges to choose from), stepped
   hop by hop: the time of one ``step()`` call, median and spread (10th-90th percentile) over many
   rounds.
2. A loop over 1,000 items with a transform body: the whole run's engine time (2,002 hops).

    python benchmarks/flow_engine_overhead.py [--rounds 200] [--items 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from huf.ai.engine.flow.graph import parse  # noqa: E402
from huf.ai.engine.flow.step import RunState, step  # noqa: E402

CHAIN = 10  # pairs of condition + transform per chain


def _node(node_id: str, type_: str, **config) -> dict:
	return {"id": node_id, "type": type_, "data": {"label": node_id, "config": config}}


def chain() -> dict:
	nodes, edges = [], []
	for n in range(CHAIN):
		nodes += [_node(f"c{n}", "condition", expression="trigger.score > 50 and 'eu' in trigger.tags"), _node(f"t{n}", "transform", mode="map", mappings={"total": "total + trigger.score * 2"})]
		edges += [
			{"id": f"hot{n}", "source": f"c{n}", "target": f"t{n}", "type": "expression", "condition": "total < 10**6", "priority": 1},
			{"id": f"ok{n}", "source": f"c{n}", "target": f"t{n}", "type": "on_success"},
		]
		if n + 1 < CHAIN:
			edges.append({"id": f"next{n}", "source": f"t{n}", "target": f"c{n + 1}", "type": "always"})
	return {"id": "bench", "nodes": nodes, "edges": edges}


def loop(items: int) -> dict:
	nodes = [
		_node("each", "loop", items="trigger.items", max_iterations=items),
		_node("body", "transform", mode="map", mappings={"total": "total + item"}),
		_node("done", "end", output="{{ total }}"),
	]
	edges = [
		{"id": "b", "source": "each", "target": "body", "sourceHandle": "body"},
		{"id": "d", "source": "each", "target": "done", "sourceHandle": "done"},
		{"id": "back", "source": "body", "target": "each"},
	]
	return {"id": "loop", "nodes": nodes, "edges": edges}


def drive(graph, context: dict, timings: list[float] | None = None):
	state = RunState(graph.entry, context, 0, 100_000)
	while True:
		started = time.perf_counter()
		result = step(graph, state, None)
		if timings is not None:
			timings.append(time.perf_counter() - started)
		if result.status != "continue":
			return result
		state = RunState(result.next_node_id, result.context, state.hop_count + 1, state.max_hops, loop=result.loop)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--rounds", type=int, default=200)
	parser.add_argument("--items", type=int, default=1000)
	args = parser.parse_args()
	graph = parse(chain())
	trigger = {"score": 70, "tags": ["eu", "hot"]}
	timings: list[float] = []
	for _ in range(args.rounds):
		result = drive(graph, {"trigger": trigger, "nodes": {}, "total": 0}, timings)
		assert result.status == "success", result
	ms = sorted(t * 1000 for t in timings)
	low, high = ms[len(ms) // 10], ms[len(ms) * 9 // 10]
	print(f"instant-node hops: {len(ms)} ({args.rounds} rounds of {2 * CHAIN})")
	print(f"step() per hop: median {statistics.median(ms):.3f} ms (p10 {low:.3f}, p90 {high:.3f})")
	graph = parse(loop(args.items))
	totals = []
	for _ in range(3):
		started = time.perf_counter()
		result = drive(graph, {"trigger": {"items": list(range(args.items))}, "nodes": {}, "total": 0})
		totals.append(time.perf_counter() - started)
		assert result.status == "success" and result.output == sum(range(args.items)), result
	print(f"{args.items}-item loop ({2 * args.items + 2} hops): median {statistics.median(totals) * 1000:.1f} ms of engine time (3 runs)")


if __name__ == "__main__":
	main()
