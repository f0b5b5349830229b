"""Prompts and strict-JSON answers for the two places a model picks an edge.

- ``router.llm`` (an executor): ``config.prompt`` rendered from the context, then the candidate
  edges (every edge leaving the node but ``on_failure``) by id and label; the model answers
  ``{"edge": "<id>"}`` or just the id. A wrong answer is asked again once, saying what was wrong;
  a second wrong one fails the node (its ``on_failure`` edge, else the run fails).
- Agentic mode (``decide``): after a node, the orchestrator sees the results so far, the context
  and the candidate edges and answers ``{"next": "<edge id>", "reason": "..."}``; the same one
  retry, then the run fails with the raw answer in the error."""

from __future__ import annotations

import json

from huf.ai.engine.flow.expr import ExpressionError, render, text_of
from huf.ai.engine.flow.graph import Edge, Graph, Node
from huf.ai.engine.flow.outcome import Hop, Outcome, failed
from huf.ai.engine.flow.ports import Ports

CONTEXT_CHARS = 20_000  # characters of context JSON an orchestrator prompt shows
RAW_CHARS = 500  # characters of a wrong answer kept in the error


def candidates(graph: Graph, node: Node) -> list[Edge]:
	return [edge for edge in graph.outgoing(node.id) if edge.type != "on_failure"]


def describe(graph: Graph, edges: list[Edge]) -> str:
	lines = []
	for edge in edges:
		target = graph.nodes.get(edge.target)
		about = f"{edge.label} -> " if edge.label else "-> "
		about += f"{target.label} ({target.type})" if target else edge.target
		if edge.condition:
			about += f" [when {edge.condition}]"
		lines.append(f"- {edge.id}: {about}")
	return "\n".join(lines)


def _parse(answer: str, key: str, edges: list[Edge], bare: bool) -> tuple[str | None, str]:
	"""(the chosen edge id, or None, and what was wrong with the answer)."""
	ids = [edge.id for edge in edges]
	text = (answer or "").strip()
	if bare and text.strip("\"'` ") in ids:
		return text.strip("\"'` "), ""
	try:
		data = json.loads(text)
	except ValueError:
		return None, f'The answer must be JSON such as {{"{key}": "{ids[0]}"}}.'
	choice = data.get(key) if isinstance(data, dict) else None
	if choice not in ids:
		return None, f'"{key}" must be one of: {", ".join(ids)}.'
	return choice, ""


def ask(ports: Ports, model: str | None, prompt: str, key: str, edges: list[Edge], bare: bool = False) -> tuple[str | None, str]:
	"""(the chosen edge id, the last raw answer): the model is asked again once after a wrong answer."""
	answer = ports.complete(prompt, model)
	choice, problem = _parse(answer, key, edges, bare)
	if choice is None:
		answer = ports.complete(f"{prompt}\n\nYour answer was: {str(answer)[:RAW_CHARS]}\n{problem} Answer again with JSON only.", model)
		choice, problem = _parse(answer, key, edges, bare)
	return choice, str(answer)


def router(node: Node, hop: Hop) -> Outcome:
	edges = candidates(hop.graph, node)
	if not edges:
		return failed("It has no edges to choose from; connect it to the steps it may choose between.")
	try:
		instructions = render(node.config.get("prompt") or "Choose the next step.", hop.context)
	except ExpressionError as error:
		return failed(f"Its prompt could not be filled in: {error}")
	prompt = f'{instructions}\n\nChoose one of these edges:\n{describe(hop.graph, edges)}\n\nAnswer with JSON only: {{"edge": "<edge id>"}}'
	choice, raw = ask(hop.ports, node.config.get("model"), prompt, "edge", edges, bare=True)
	if choice is None:
		return failed(f"The model did not choose one of its edges, twice. Its last answer: {raw[:RAW_CHARS]!r}")
	return Outcome(ok=True, output={"edge": choice}, edge=choice)


def decide(graph: Graph, node: Node, edges: list[Edge], context: dict, ports: Ports) -> tuple[Edge | None, str]:
	"""Agentic mode: (the edge the orchestrator chose, or None, and why not in words)."""
	results = text_of(context.get("nodes", {}))[:CONTEXT_CHARS]
	shown = text_of({key: value for key, value in context.items() if key != "nodes"})[:CONTEXT_CHARS]
	prompt = (
		f"You direct the flow {graph.name or graph.id!r}. The step {node.label!r} ({node.type}) has just finished.\n\n"
		f"Results so far (by step id):\n{results}\n\nFlow data:\n{shown}\n\n"
		f"Choose the next step among these edges:\n{describe(graph, edges)}\n\n"
		'Answer with JSON only: {"next": "<edge id>", "reason": "<one sentence>"}'
	)
	choice, raw = ask(ports, graph.orchestrator_model, prompt, "next", edges)
	if choice is None:
		return None, f"The orchestrator did not choose one of the edges leaving {node.label!r}, twice. Its last answer: {raw[:RAW_CHARS]!r}"
	return next(edge for edge in edges if edge.id == choice), ""
