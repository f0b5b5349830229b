"""Walking a vetted expression tree (``expr.check``) against the flow context: every operation
bounded (text and lists of ``MAX_ITEMS``, integers of ``MAX_INT_BITS``), the whole walk within
``TIME_LIMIT`` seconds, and every failure an ``ExpressionError`` in words."""

from __future__ import annotations

import ast
import operator
import time

MAX_ITEMS = 100_000  # characters of text / items of a list an expression may build
MAX_INT_BITS = 512
TIME_LIMIT = 0.5  # seconds

_COMPARE = {
	ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
	ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
	ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}  # fmt: skip
_ARITHMETIC = {ast.Sub: operator.sub, ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}


class ExpressionError(ValueError):
	"""An expression that cannot be used or evaluated; the message says what to change."""


def _number(value) -> bool:
	return isinstance(value, (int, float))


class Evaluator:
	"""One evaluation: ``visit`` the body of an ``expr.check``-ed tree."""

	def __init__(self, context: dict):
		self.context, self.until = context, time.monotonic() + TIME_LIMIT

	def visit(self, node: ast.AST):
		if time.monotonic() > self.until:
			raise ExpressionError(f"The expression took longer than {TIME_LIMIT:g} seconds; simplify it.")
		try:
			return getattr(self, type(node).__name__)(node)
		except ExpressionError:
			raise
		except ZeroDivisionError:
			raise ExpressionError("The expression divides by zero.") from None
		except (TypeError, ValueError, OverflowError, KeyError, IndexError, AttributeError, RecursionError) as error:
			raise ExpressionError(f"The expression could not be worked out: {type(error).__name__} {error}.") from None

	def Constant(self, node):
		return node.value

	def Name(self, node):
		if node.id not in self.context:
			raise ExpressionError(f"There is no value named {node.id!r} in the flow's data.")
		return self.context[node.id]

	def Attribute(self, node):
		owner = self.visit(node.value)
		if not isinstance(owner, dict):
			raise ExpressionError(f"{node.attr!r} was asked of a {kind(owner)}; only records (objects) have named keys.")
		if node.attr not in owner:
			raise ExpressionError(f"There is no key {node.attr!r} here; the keys are {', '.join(map(str, list(owner)[:10])) or 'none'}.")
		return owner[node.attr]

	def Subscript(self, node):
		owner, key = self.visit(node.value), self.visit(node.slice)
		if not isinstance(owner, (dict, list, tuple, str)):
			raise ExpressionError(f"A {kind(owner)} cannot be indexed with [...].")
		if isinstance(owner, dict):
			if not isinstance(key, (str, int, float, bool)) and key is not None or key not in owner:
				raise ExpressionError(f"There is no key {key!r} here.")
			return owner[key]
		if isinstance(key, slice) or isinstance(key, int):
			try:
				return owner[key]
			except IndexError:
				raise ExpressionError(f"There is no item {key} in a list of {len(owner)}.") from None
		raise ExpressionError(f"A list or text is indexed by a whole number, not a {kind(key)}.")

	def Slice(self, node):
		parts = [None if part is None else self.visit(part) for part in (node.lower, node.upper, node.step)]
		if any(part is not None and not isinstance(part, int) for part in parts):
			raise ExpressionError("A slice [a:b] takes whole numbers.")
		return slice(*parts)

	def List(self, node):
		return [self.visit(item) for item in node.elts]

	def Tuple(self, node):
		return tuple(self.visit(item) for item in node.elts)

	def Dict(self, node):
		if any(key is None for key in node.keys):
			raise ExpressionError("'**' unpacking is not allowed in expressions.")
		return {self.visit(key): self.visit(value) for key, value in zip(node.keys, node.values)}

	def IfExp(self, node):
		return self.visit(node.body) if self.visit(node.test) else self.visit(node.orelse)

	def BoolOp(self, node):
		value = None
		for item in node.values:
			value = self.visit(item)
			if bool(value) == isinstance(node.op, ast.Or):
				return value
		return value

	def UnaryOp(self, node):
		value = self.visit(node.operand)
		if isinstance(node.op, ast.Not):
			return not value
		if not _number(value):
			raise ExpressionError(f"'-' and '+' work on numbers, not on a {kind(value)}.")
		return _bounded(-value if isinstance(node.op, ast.USub) else +value)

	def Compare(self, node):
		left = self.visit(node.left)
		for op, right_node in zip(node.ops, node.comparators):
			right = self.visit(right_node)
			if isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, (list, tuple, dict, str)):
				raise ExpressionError(f"'in' looks inside a list, text or record, not a {kind(right)}.")
			if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, str) and not isinstance(left, str):
				raise ExpressionError("'in' on text looks for text; put the value in quotes.")
			try:
				same = _COMPARE[type(op)](left, right)
			except TypeError:
				raise ExpressionError(f"A {kind(left)} cannot be compared with a {kind(right)}.") from None
			if not same:
				return False
			left = right
		return True

	def BinOp(self, node):
		left, right = self.visit(node.left), self.visit(node.right)
		if isinstance(node.op, ast.Add):
			return _add(left, right)
		if isinstance(node.op, ast.Mult):
			return _multiply(left, right)
		if not (_number(left) and _number(right)):
			raise ExpressionError(f"'{_SYMBOL[type(node.op)]}' works on numbers, not on a {kind(left)} and a {kind(right)}.")
		if isinstance(node.op, ast.Pow):
			return _power(left, right)
		return _bounded(_ARITHMETIC[type(node.op)](left, right))


def _add(left, right):
	if _number(left) and _number(right):
		return _bounded(left + right)
	if type(left) is type(right) and isinstance(left, (str, list, tuple)):
		_size(len(left) + len(right))
		return left + right
	raise ExpressionError(f"'+' cannot join a {kind(left)} and a {kind(right)}.")


def _multiply(left, right):
	if _number(left) and _number(right):
		if isinstance(left, int) and isinstance(right, int):
			_bits(left.bit_length() + right.bit_length())
		return _bounded(left * right)
	sequence, count = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
	if isinstance(sequence, (str, list, tuple)) and isinstance(count, int) and not isinstance(count, bool):
		_size(len(sequence) * max(count, 0))
		return sequence * count
	raise ExpressionError(f"'*' cannot multiply a {kind(left)} by a {kind(right)}.")


def _power(base, exponent):
	if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
		_bits(max(base.bit_length(), 1) * exponent)
	return _bounded(base**exponent)


def _bounded(value):
	if isinstance(value, complex):
		raise ExpressionError("The expression gives a complex number; only real numbers are allowed.")
	if isinstance(value, int):
		_bits(value.bit_length())
	return value


def _bits(count: int) -> None:
	if count > MAX_INT_BITS:
		raise ExpressionError(f"The expression makes a number too large to use (over {MAX_INT_BITS} bits).")


def _size(count: int) -> None:
	if count > MAX_ITEMS:
		raise ExpressionError(f"The expression makes text or a list of {count:,} items; the limit is {MAX_ITEMS:,}.")


def kind(value) -> str:
	names = {bool: "true/false value", int: "number", float: "number", str: "text", list: "list", tuple: "list", dict: "record"}
	return "nothing (None)" if value is None else names.get(type(value), type(value).__name__)


