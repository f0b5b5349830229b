"""Is a flow definition runnable? Every problem found, each with the node's id and label (None for
the flow as a whole) and a message a person who builds flows can act on.

The graph rules of the reference: the definition's id (equal to the Flow ID: the Frappe layer
compares them), unique node ids, edges between existing nodes, an existing entry node, only the 12
node types and 4 edge types, expression edges with a condition (which must parse). Then each
node's own settings (``checks.py``), then circles a run could never leave (``circles.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from huf.ai.engine.flow import checks, circles
from huf.ai.engine.flow.expr import ExpressionError, check
from huf.ai.engine.flow.graph import EDGE_TYPES, NODE_TYPES, Edge, Graph, parse
from huf.ai.engine.flow.step import name_of


@dataclass(frozen=True)
class Problem:
	node_id: str | None
	label: str | None
	message: str


class Known(Protocol):
	def agent(self, name: str) -> bool: ...

	def tool(self, name: str) -> bool: ...

	def asks_first(self, name: str) -> bool: ...  # the tool is marked to ask a person before it runs


def validate(definition: dict, known: Known) -> list[Problem]:
	if not isinstance(definition, dict):
		return [Problem(None, None, "The flow definition must be a JSON object with nodes and edges.")]
	graph = parse(definition)
	problems = _flow(definition, graph)
	for edge in graph.edges:
		problems += _edge(graph, edge)
	for node in graph.nodes.values():
		if node.type in NODE_TYPES:
			problems += [Problem(node.id, node.label, message) for message in checks.node_problems(graph, node, known)]
	return problems + [_circle(graph, ids) for ids in circles.closed(graph, definition.get("mode") == "Agentic")]


def _flow(definition: dict, graph: Graph) -> list[Problem]:
	problems = []
	if not graph.id:
		problems.append(Problem(None, None, 'The flow definition has no "id"; set it to the Flow ID.'))
	if not isinstance(definition.get("nodes"), list) or not graph.nodes:
		problems.append(Problem(None, None, "The flow has no steps; add at least one node."))
	raw = [raw for raw in definition.get("nodes") or [] if isinstance(raw, dict)]
	counts = Counter(str(item.get("id") or "") for item in raw)
	if counts.pop("", 0):
		problems.append(Problem(None, None, "A step has no id; give every node a unique id."))
	for node_id, count in counts.items():
		if count > 1:
			problems.append(Problem(node_id, graph.nodes[node_id].label, f"{count} steps share the id {node_id!r}; give each node its own id."))
	hops = definition.get("max_hops")
	if hops is not None and not (isinstance(hops, int) and not isinstance(hops, bool) and hops > 0):
		problems.append(Problem(None, None, "max_hops must be a whole number above 0 (the most steps a run may take)."))
	if graph.entry and graph.entry not in graph.nodes:
		problems.append(Problem(None, None, f"The entry step {graph.entry!r} does not exist; set entry to one of the node ids."))
	for node in graph.nodes.values():
		if node.type not in NODE_TYPES:
			message = f"The step type {node.type!r} is not available; use one of: {', '.join(NODE_TYPES)}."
			problems.append(Problem(node.id, node.label, message))
	return problems


def _edge(graph: Graph, edge: Edge) -> list[Problem]:
	source = graph.nodes.get(edge.source)
	where = (edge.source, source.label) if source else (None, None)
	problems = [
		Problem(*where, f"Edge {edge.id} {end} {name!r}, which is not a step in this flow; connect it to an existing node.")
		for end, name in (("starts at", edge.source), ("leads to", edge.target))
		if name not in graph.nodes
	]
	if edge.type not in EDGE_TYPES:
		problems.append(Problem(*where, f"Edge {edge.id} has the type {edge.type!r}; use one of: {', '.join(EDGE_TYPES)}."))
	if edge.type == "expression" and not (edge.condition or "").strip():
		problems.append(Problem(*where, f"Edge {edge.id} is an expression edge without a condition; write one, such as score > 50."))
	elif edge.condition and edge.condition.strip():
		try:
			check(edge.condition)
		except ExpressionError as error:
			problems.append(Problem(*where, f"The condition of edge {edge.id} cannot be used: {error}"))
	return problems


def _circle(graph: Graph, ids: list[str]) -> Problem:
	"""A circle a run can never leave, on its first step in outline order."""
	first, steps = graph.nodes[ids[0]], ", ".join(name_of(graph.nodes[node_id]) for node_id in ids)
	if len(ids) == 1:
		message = (
			f"This step leads back to itself and a run can never leave it: {steps}. Give that edge a condition, "
			"add an edge to another step with a higher priority than the edges that always apply, or repeat it with a loop step."
		)
	else:
		message = (
			f"These steps go round in a circle that a run can never leave: {steps}. Give one of the edges between them a condition, "
			"add an edge out of the circle with a higher priority than the edges that always apply, or repeat them with a loop step."
		)
	return Problem(first.id, first.label, message)
