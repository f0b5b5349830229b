"""Which edge a run follows after a node: highest priority first, then definition order, first match.

- ``on_success`` and ``expression`` edges only after a success, ``on_failure`` only after a failure.
- ``always`` after a success (a failure is handled by retries, a default or an ``on_failure`` edge,
  never carried on silently).
- An edge labelled with an outcome (``meta.outcome`` or React Flow's ``sourceHandle``) is taken
  only when the node reports that outcome (``approved``/``rejected``/``timeout`` from
  ``human.approval``, ``true``/``false`` from ``condition``); unlabelled edges are the fallback
  unless the caller says there is none (a rejection)."""

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
