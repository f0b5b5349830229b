"""Executors of the nodes that call nothing outside: the three triggers, ``end``, ``condition``,
``transform``.

- Triggers pass through: the payload is already ``context["trigger"]``; it is their output.
- ``end``: the run succeeds; its output is ``config.output`` interpolated (None without one).
- ``condition`` evaluates ``config.expression``; its branch is ``"true"`` or ``"false"``. Edges
  labelled true/false pick by it; otherwise true follows the success edges and false follows the
  ``on_failure`` edges (with none, the run fails and says the condition was false). A condition
  that cannot be evaluated is a node failure like any other (retries, default, on_failure).
- ``transform`` sets keys at the top of the context from ``config.mappings`` ({key: source}):
  mode ``copy`` (each source a path such as ``trigger.lead.email``), ``map`` (each source any
  expression) or ``template`` (``config.template`` rendered into ``config.key``)."""

from __future__ import annotations

import ast

from huf.ai.engine.flow.expr import ExpressionError, check, evaluate, interpolate, render
from huf.ai.engine.flow.graph import Node
from huf.ai.engine.flow.outcome import Hop, Outcome, failed

TRANSFORM_MODES = ("copy", "map", "template")


def trigger(node: Node, hop: Hop) -> Outcome:
	return Outcome(ok=True, output=hop.context.get("trigger"))


def end(node: Node, hop: Hop) -> Outcome:
	try:
		output = interpolate(node.config.get("output"), hop.context)
	except ExpressionError as error:
		return failed(f"Its output could not be filled in: {error}")
	return Outcome(ok=True, output=output, finished=True)


def condition(node: Node, hop: Hop) -> Outcome:
	try:
		result = bool(evaluate(node.config.get("expression") or "", hop.context))
	except ExpressionError as error:
		return failed(str(error))
	return Outcome(ok=True, output={"result": result}, branch="true" if result else "false", success_path=result)


def is_path(source: str) -> bool:
	"""Whether ``source`` is a plain path: a name, then ``.key`` / ``[key]`` / ``[0]`` steps."""
	node = check(source).body
	while isinstance(node, (ast.Attribute, ast.Subscript)):
		if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
			return False
		node = node.value
	return isinstance(node, ast.Name)


def transform(node: Node, hop: Hop) -> Outcome:
	config, mode = node.config, node.config.get("mode")
	try:
		if mode == "template":
			key = config.get("key") or "text"
			values = {key: render(config.get("template") or "", hop.context)}
		elif mode in ("copy", "map"):
			values = {key: evaluate(source, hop.context) for key, source in (config.get("mappings") or {}).items()}
		else:
			return failed(f"The mode {mode!r} is not known; use copy, map or template.")
	except ExpressionError as error:
		return failed(str(error))
	return Outcome(ok=True, output=values, updates=values)
