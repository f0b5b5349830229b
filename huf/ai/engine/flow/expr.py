"""The flow's restricted expression language (edge conditions, ``condition`` nodes, ``transform``
maps, ``{{ ... }}`` placeholders), evaluated by walking Python's AST — never ``eval``.

Allowed: names from the flow context; ``a.b.c`` and ``a["b"]``, ``a[0]``, ``a[1:3]`` as keys of
dicts and items of lists (never Python attributes); literals (text, numbers, True/False/None, list,
tuple and dict displays); comparisons (``in`` / ``not in`` too), ``and`` / ``or`` / ``not``,
``x if c else y``, ``+ - * / // % **`` on numbers, ``+`` and ``*`` on text and lists.
Refused: calls, imports, lambdas, comprehensions, f-strings, walrus, starred, names or keys
starting with ``_`` through the dotted form. Limits: ``MAX_LENGTH`` characters, ``MAX_NODES`` and
``MAX_DEPTH`` of the parsed tree, text/lists of ``MAX_ITEMS``, integers of ``MAX_INT_BITS``, and
``TIME_LIMIT`` seconds (``evaluator.py`` walks the tree). Every problem is an ``ExpressionError`` in words."""

from __future__ import annotations

import ast
import functools
import json
import re
import warnings

from huf.ai.engine.flow.evaluator import MAX_INT_BITS, MAX_ITEMS, TIME_LIMIT, Evaluator, ExpressionError

__all__ = ["MAX_INT_BITS", "MAX_ITEMS", "TIME_LIMIT", "ExpressionError", "check", "evaluate", "interpolate", "placeholders", "render", "text_of"]

MAX_LENGTH = 2_000
MAX_NODES = 400
MAX_DEPTH = 40
PLACEHOLDER = re.compile(r"\{\{((?:(?!\}\}).)*)\}\}", re.DOTALL)

_ALLOWED = (
	ast.Expression, ast.Name, ast.Load, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice,
	ast.List, ast.Tuple, ast.Dict, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.IfExp,
	ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv,
	ast.Mod, ast.Pow, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
	ast.Is, ast.IsNot,
)  # fmt: skip
_WHAT = {
	ast.Call: "function calls", ast.Lambda: "lambda", ast.JoinedStr: "f-strings", ast.NamedExpr: "':='",
	ast.Starred: "'*' unpacking", ast.ListComp: "comprehensions", ast.SetComp: "comprehensions",
	ast.DictComp: "comprehensions", ast.GeneratorExp: "comprehensions", ast.Set: "sets",
	ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
}  # fmt: skip


@functools.lru_cache(maxsize=2048)
def check(expression: str) -> ast.Expression:
	"""The parsed, vetted expression; ExpressionError when it is too long, not valid or not allowed."""
	if not isinstance(expression, str) or not expression.strip():
		raise ExpressionError("The expression is empty; write one such as score > 50.")
	if len(expression) > MAX_LENGTH:
		raise ExpressionError(f"The expression is {len(expression):,} characters long; the limit is {MAX_LENGTH:,}.")
	try:
		with warnings.catch_warnings():
			warnings.simplefilter("ignore")  # SyntaxWarning on odd literals: the expression is judged here
			tree = ast.parse(expression.strip(), mode="eval")
	except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
		detail = getattr(error, "msg", None) or "it could not be read"
		raise ExpressionError(f"The expression {expression.strip()[:80]!r} is not valid: {detail}.") from None
	_vet(tree)
	return tree


def _vet(tree: ast.AST) -> None:
	count, pending = 0, [(tree, 0)]
	while pending:
		node, depth = pending.pop()
		count += 1
		if count > MAX_NODES or depth > MAX_DEPTH:
			raise ExpressionError("The expression is too large or too deeply nested; split it into simpler steps.")
		if not isinstance(node, _ALLOWED):
			what = _WHAT.get(type(node), type(node).__name__)
			raise ExpressionError(f"Expressions cannot use {what}; use values from the flow, comparisons and arithmetic only.")
		if isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, (str, int, float, bool))):
			raise ExpressionError(f"The value {node.value!r} is not allowed; use text, numbers, True, False or None.")
		name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
		if name.startswith("_"):
			raise ExpressionError(f"The name {name!r} is not allowed; names cannot start with '_'.")
		pending += [(child, depth + 1) for child in ast.iter_child_nodes(node)]


def evaluate(expression: str, context: dict):
	"""The value of ``expression`` with the names in ``context``; ExpressionError on any problem."""
	tree = check(expression)
	return Evaluator(context).visit(tree.body)


def placeholders(template: str) -> list[str]:
	"""The expressions inside ``{{ ... }}`` in ``template``."""
	return [match.strip() for match in PLACEHOLDER.findall(template)]


def text_of(value) -> str:
	if value is None:
		return ""
	if isinstance(value, (dict, list, tuple)):
		return json.dumps(value, ensure_ascii=False, default=str)
	return str(value)


def render(template: str, context: dict) -> str:
	"""``template`` with every ``{{ expression }}`` replaced by its value (records and lists as JSON)."""
	return PLACEHOLDER.sub(lambda match: text_of(evaluate(match.group(1), context)), template)


def interpolate(value, context: dict):
	"""Placeholders filled through dicts and lists; a text that is one whole ``{{ x }}`` keeps x's value."""
	if isinstance(value, dict):
		return {key: interpolate(item, context) for key, item in value.items()}
	if isinstance(value, list):
		return [interpolate(item, context) for item in value]
	if isinstance(value, str):
		whole = PLACEHOLDER.fullmatch(value.strip())
		return evaluate(whole.group(1), context) if whole else render(value, context)
	return value
