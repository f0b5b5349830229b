"""Which edge a run follows after a node: highest priority first, then definition order, first match.

- ``on_success`` and ``expression`` edges only after a success, ``on_failure`` only after a failure.
- ``always`` after a success (a failure is handled by retries, a default or an ``on_failure`` edge,
  never carried on silently).
- An edge labelled with an outcome (``meta.outcome`` or React Flow's ``sourceHandle``) is taken
  only when the node reports that outcome (``approved``/``rejected``/``timeout`` from
  ``human.approval``, ``true``/``false`` from ``condition``); unlabelled edges are the fallback
  unless the caller says there is none (a rejection).

``possible`` is ``choose`` without the run's data, for the save check (``circles.py``)."""

from __future__ import annotations

from huf.ai.engine.flow.expr import ExpressionError, evaluate
from huf.ai.engine.flow.graph import Edge


def _passes(edge: Edge, ok: bool, context: dict) -> bool:
	if edge.type == "on_failure":
		return not ok
	if not ok:
		return False
	if edge.type == "expression":
		try:
			return bool(evaluate(edge.condition or "", context))
		except ExpressionError as error:
			raise ExpressionError(f"The condition of edge {edge.id} ({edge.condition!r}) could not be checked: {error}") from None
	return edge.type in ("always", "on_success")


def choose(edges: list[Edge], *, ok: bool, context: dict, branch: str | None = None, fallback: bool = True) -> Edge | None:
	"""The first edge of ``edges`` (already in priority order) the run follows, or None.
	ExpressionError when an expression edge's condition cannot be evaluated."""
	if branch is not None:
		for edge in edges:
			if edge.outcome == branch and (edge.type != "expression" or _passes(edge, True, context)):
				return edge
		if not fallback:
			return None
	for edge in edges:
		if edge.outcome is None and _passes(edge, ok, context):
			return edge
	return None


def possible(edges: list[Edge], *, ok: bool, branch: str | None = None, fallback: bool = True) -> list[Edge]:
	"""Every edge ``choose`` may return with these arguments, whatever the run's data: an expression
	edge may match or not; the first edge that matches whatever the data ends the list."""
	found = []
	if branch is not None:
		for edge in edges:
			if edge.outcome == branch:
				found.append(edge)
				if edge.type != "expression":
					return found
		if not fallback:
			return found
	for edge in edges:
		if edge.outcome is not None:
			continue
		if ok and edge.type == "expression":
			found.append(edge)
		elif _passes(edge, ok, {}):  # no condition is evaluated here: only an expression has one
			return [*found, edge]
	return found
