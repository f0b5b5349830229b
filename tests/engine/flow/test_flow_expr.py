"""The flow's restricted expression evaluator (engine/flow/expr.py): what it computes, what it
refuses (hostile expressions), and a fuzz run: only values or ExpressionError, never a hang."""

from __future__ import annotations

import random
import time

import pytest

from huf.ai.engine.flow import evaluator, expr
from huf.ai.engine.flow.expr import ExpressionError, evaluate, interpolate, render

CONTEXT = {
	"trigger": {"lead": {"score": 72, "name": "Ann", "tags": ["hot", "eu"]}},
	"nodes": {"score": {"output": "42"}},
	"items": [1, 2, 3],
	"count": 3,
	"price": 2.5,
	"name": "Huf",
}


@pytest.mark.parametrize(
	("expression", "value"),
	[
		("trigger.lead.score > 50", True),
		("trigger['lead']['score'] >= 72 and trigger.lead.name == 'Ann'", True),
		("'hot' in trigger.lead.tags and 'cold' not in trigger.lead.tags", True),
		("1 < count <= 3", True),
		("count * price + 1 - 2 / 4", 8.0),
		("count // 2, count % 2, 2 ** 10", (1, 1, 1024)),
		("-count", -3),
		("not items", False),
		("items[-1] + items[0]", 4),
		("items[1:]", [2, 3]),
		("name + '!' * 3", "Huf!!!"),
		("[1, 'a', None, True] + items", [1, "a", None, True, 1, 2, 3]),
		("{'a': count, 'b': [name]}", {"a": 3, "b": ["Huf"]}),
		("nodes.score.output == '42'", True),
		("missing_ok if False else 'no'", "no"),  # the branch not taken is never evaluated
		("count > 5 or name", "Huf"),
		("trigger.lead.score is None", False),
	],
)
def test_allowed_expressions_compute(expression, value):
	assert evaluate(expression, CONTEXT) == value


@pytest.mark.parametrize(
	("expression", "words"),
	[
		("().__class__.__bases__[0].__subclasses__()", "function calls"),
		("().__class__", "cannot start with '_'"),
		("items.__len__", "cannot start with '_'"),
		("__import__('os').system('id')", "function calls"),
		("__builtins__", "cannot start with '_'"),
		("open('/etc/passwd')", "function calls"),
		("'a' * 10**9", "limit is 100,000"),
		("[0] * 10**7", "limit is 100,000"),
		("('ab' * 50000) + ('ab' * 50000)", "limit is 100,000"),
		("9 ** 9 ** 9", "too large"),
		("10 ** 1000", "too large"),
		("2 ** 400 * 2 ** 400", "too large"),
		("10.0 ** 400", "could not be worked out"),
		("(-8) ** 0.5", "complex"),
		("lambda: 1", "lambda"),
		("[x for x in items]", "comprehensions"),
		("{x: 1 for x in items}", "comprehensions"),
		("(x for x in items)", "comprehensions"),
		("f'{items}'", "f-strings"),
		("f'{().__class__}'", "f-strings"),
		("'{0.__class__}'.format(items)", "function calls"),
		("'%s' % name", "works on numbers"),
		("'%*d' % (10**9, 1)", "works on numbers"),
		("(y := 1)", "':='"),
		("[*items]", "'*' unpacking"),
		("{**trigger}", "'**' unpacking"),
		("{1, 2}", "sets"),
		("b'x'", "not allowed"),
		("1j", "not allowed"),
		("import os", "not valid"),
		("count = 1", "not valid"),
		("(" * 250 + "1" + ")" * 250, "not valid"),
		("(" * 150 + "1" + ")" * 150 + ".a", "only records"),  # parentheses alone nest freely,
		("-" * 100 + "1", "too deeply nested"),
		("[" * 60 + "]" * 60, "too deeply nested"),
		("1 + " * 300 + "1", "too large"),
		("x" * 2001, "limit is 2,000"),
		("", "empty"),
		("nope > 1", "no value named 'nope'"),
		("trigger.lead.missing", "no key 'missing'"),
		("name.upper", "only records"),
		("items[10]", "no item 10"),
		("items['a']", "whole number"),
		("count / 0", "divides by zero"),
		("name < 1", "cannot be compared"),
		("1 in count", "'in' looks inside"),
		("1 in name", "put the value in quotes"),
		("trigger[[1]]", "no key"),
		("count[0]", "cannot be indexed"),
	],
)
def test_hostile_and_wrong_expressions_are_refused_in_words(expression, words):
	with pytest.raises(ExpressionError, match=_escaped(words)):
		evaluate(expression, CONTEXT)


def _escaped(words: str) -> str:
	import re

	return re.escape(words)


def test_render_fills_placeholders_and_writes_records_as_json():
	template = "Lead {{ trigger.lead.name }} ({{trigger.lead.score}}) tags={{ trigger.lead.tags }} none={{ None }} {{ count * 2 }}"
	assert render(template, CONTEXT) == 'Lead Ann (72) tags=["hot", "eu"] none= 6'
	assert render("no placeholders {not one}", CONTEXT) == "no placeholders {not one}"
	with pytest.raises(ExpressionError, match="no value named 'who'"):
		render("Hi {{ who }}", CONTEXT)


def test_interpolate_keeps_the_value_of_a_whole_placeholder():
	arguments = {"lead": "{{ trigger.lead }}", "score": " {{ trigger.lead.score }} ", "text": "{{ name }} and {{ count }}", "n": 5, "list": ["{{ items[0] }}"]}
	assert interpolate(arguments, CONTEXT) == {"lead": CONTEXT["trigger"]["lead"], "score": 72, "text": "Huf and 3", "n": 5, "list": [1]}


PIECES = [
	"count", "price", "name", "items", "trigger", "trigger.lead", "trigger.lead.score", "items[0]", "items[1:]",
	"'a'", "''", "0", "1", "-1", "2.5", "10**9", "None", "True", "[]", "{}", "()", "{'k': 1}", "__class__", "x",
	"().__class__", "lambda: 0", "[i for i in items]", "f'{name}'", "open('f')",
]  # fmt: skip
JOINERS = [" + ", " - ", " * ", " / ", " // ", " % ", " ** ", " and ", " or ", " < ", " == ", " in ", " not in ", " is ", "[", ".", "(", ", "]
CHARS = "()[]{}.,:;'\"*+-/%<>=!~&|^@ abcx0123456789_\\\n"


def _random_expression(rng: random.Random) -> str:
	parts = [rng.choice(PIECES)]
	for _ in range(rng.randint(0, 6)):
		parts += [rng.choice(JOINERS), rng.choice(PIECES)]
	if rng.random() < 0.3:
		parts.insert(0, rng.choice(["not ", "-", "(", "[", "+"]))
	text = "".join(parts)
	for _ in range(rng.randint(0, 3) if rng.random() < 0.5 else 0):  # mutate
		at = rng.randrange(len(text) + 1)
		text = text[:at] + rng.choice(CHARS) + text[at + rng.randint(0, 2) :]
	return text


def test_fuzz_gives_only_values_or_expression_errors_and_never_hangs():
	rng = random.Random(1717)
	values = errors = 0
	for _ in range(5000):
		expression = _random_expression(rng)
		started = time.monotonic()
		try:
			evaluate(expression, CONTEXT)
			values += 1
		except ExpressionError:
			errors += 1
		assert time.monotonic() - started < expr.TIME_LIMIT + 0.5, expression
	assert values > 200 and errors > 200  # the generator reaches both sides


def test_the_time_limit_stops_an_evaluation(monkeypatch):
	monkeypatch.setattr(evaluator, "TIME_LIMIT", -1.0)
	with pytest.raises(ExpressionError, match="took longer"):
		evaluate("count + 1", CONTEXT)
