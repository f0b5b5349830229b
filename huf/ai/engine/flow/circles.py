"""Circles a run can never leave, found when a flow is saved.

Where a run may go after each node comes from ``step.onward`` (routing without the run's data).
Steps that can all reach each other that way (a strongly connected component with an edge inside
it, a step leading to itself included) form a circle. A run can leave a circle when one of its
steps may go to a step outside it (an edge whose condition may hold, an on_failure edge, an
approval's rejected or timeout edge, a condition's false edge, a model's or the orchestrator's
choice, a loop's done step) or may end the run there (an ``end`` step, a loop without a done
step). Any other circle is a mistake: every run that reaches it goes round until ``max_hops``.
Conditions are not judged: one that may become true is a way out."""

from __future__ import annotations

from collections.abc import Iterable

from huf.ai.engine.flow.graph import Graph
from huf.ai.engine.flow.step import onward


def closed(graph: Graph, agentic: bool) -> list[list[str]]:
	"""The circles a run can never leave, each as its node ids in outline order, in outline order."""
	ways, ends = {}, set()
	for node in graph.nodes.values():
		ways[node.id], may_end = onward(graph, node, agentic)
		if may_end:
			ends.add(node.id)
	inside = {node_id: [to for to in targets if to in graph.nodes] for node_id, targets in ways.items()}
	place = {node_id: n for n, node_id in enumerate(outline(graph))}
	found = []
	for group in components(list(graph.nodes), inside):
		members = set(group)
		circle = len(group) > 1 or group[0] in ways[group[0]]
		if circle and not ends & members and all(ways[node_id] <= members for node_id in group):
			found.append(sorted(group, key=place.__getitem__))
	return sorted(found, key=lambda group: place[group[0]])


def outline(graph: Graph) -> list[str]:
	"""The node ids in the web app's outline order (``rules.ts`` ``outlineOrder``): breadth first from the
	entry along the edges in the order ``step`` tries them, then from each node not yet met, in the
	order the definition lists them."""
	order, seen = [], set()
	for start in [graph.entry, *graph.nodes]:
		pending = [start]
		while pending:
			node_id = pending.pop(0)
			if node_id in seen or node_id not in graph.nodes:
				continue
			seen.add(node_id)
			order.append(node_id)
			pending += [edge.target for edge in graph.outgoing(node_id)]
	return order


def components(ids: list[str], ways: dict[str, Iterable[str]]) -> list[list[str]]:
	"""The strongly connected components of the graph ``ways`` (Kosaraju's, without recursion, so a
	long flow cannot reach Python's recursion limit)."""
	finished, seen = [], set()
	for root in ids:
		if root in seen:
			continue
		seen.add(root)
		stack = [(root, iter(ways[root]))]
		while stack:
			node_id, rest = stack[-1]
			following = next((to for to in rest if to not in seen), None)
			if following is None:
				stack.pop()
				finished.append(node_id)
			else:
				seen.add(following)
				stack.append((following, iter(ways[following])))
	back: dict[str, list[str]] = {node_id: [] for node_id in ids}
	for node_id in ids:
		for to in ways[node_id]:
			back[to].append(node_id)
	groups, placed = [], set()
	for root in reversed(finished):
		if root in placed:
			continue
		placed.add(root)
		group, pending = [], [root]
		while pending:
			node_id = pending.pop()
			group.append(node_id)
			for source in back[node_id]:
				if source not in placed:
					placed.add(source)
					pending.append(source)
		groups.append(group)
	return groups
