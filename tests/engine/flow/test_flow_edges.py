"""Edge choice (engine/flow/edges.py): priority then definition order, first match; which edge
types apply after a success or a failure; labelled outcomes and their fallback; and ``possible``,
the edges ``choose`` may take whatever the data."""

from __future__ import annotations

import itertools

import pytest

from huf.ai.engine.flow.edges import choose, possible
from huf.ai.engine.flow.expr import ExpressionError
from huf.ai.engine.flow.graph import parse
from tests.engine.flow_helpers import definition, edge, node


def out(*edges: dict) -> list:
	nodes = [node(n, "end") for n in ("s", "a", "b", "c")]
	return parse(definition(nodes, list(edges))).outgoing("s")


def target(edges, **kwargs) -> str | None:
	chosen = choose(edges, context=kwargs.pop("context", {"x": 1}), **kwargs)
	return chosen.target if chosen else None


def test_priority_descending_then_definition_order():
	edges = out(edge("s", "a", priority=1), edge("s", "b", priority=3), edge("s", "c", priority=3))
	assert [e.target for e in edges] == ["b", "c", "a"] and target(edges, ok=True) == "b"


def test_which_types_apply_after_success_and_failure():
	edges = out(edge("s", "a", "on_failure"), edge("s", "b", "expression", condition="x > 5"), edge("s", "c", "on_success"))
	assert target(edges, ok=True) == "c"
	assert target(edges, ok=True, context={"x": 9}) == "b"
	assert target(edges, ok=False) == "a"
	assert target(out(edge("s", "a", "always")), ok=False) is None  # a failure is never carried on by "always"
	assert target(out(edge("s", "a", "always")), ok=True) == "a"


def test_labelled_outcomes_and_their_fallback():
	edges = out(edge("s", "a", "on_success"), edge("s", "b", meta={"outcome": "rejected"}), edge("s", "c", sourceHandle="approved"))
	assert target(edges, ok=True, branch="approved") == "c"
	assert target(edges, ok=True, branch="rejected", fallback=False) == "b"
	plain = out(edge("s", "a", "on_success"))
	assert target(plain, ok=True, branch="approved") == "a"  # an approval falls back to the success path
	assert target(plain, ok=True, branch="rejected", fallback=False) is None  # a rejection does not


def test_an_expression_that_cannot_be_evaluated_names_its_edge():
	with pytest.raises(ExpressionError, match="edge s-a"):
		choose(out(edge("s", "a", "expression", condition="y > 1")), ok=True, context={})


def test_possible_lists_what_choose_may_take_whatever_the_data():
	edges = out(edge("s", "a", "expression", condition="x > 5", priority=2), edge("s", "b", priority=1), edge("s", "c"), edge("s", "a", "on_failure", "f1"), edge("s", "b", "on_failure", "f2"))
	assert [e.target for e in possible(edges, ok=True)] == ["a", "b"]  # c comes after b, which always applies
	assert [e.id for e in possible(edges, ok=False)] == ["f1"]
	labelled = out(edge("s", "a", "expression", condition="x > 5", sourceHandle="false"), edge("s", "b", sourceHandle="false"), edge("s", "c", "on_success"))
	assert [e.target for e in possible(labelled, ok=False, branch="false")] == ["a", "b"]
	assert [e.target for e in possible(labelled, ok=True, branch="rejected")] == ["c"]
	assert possible(labelled, ok=True, branch="rejected", fallback=False) == []


@pytest.mark.parametrize("ok", [True, False])
@pytest.mark.parametrize("branch", [None, "true", "rejected"])
def test_whatever_choose_takes_is_possible(ok, branch):
	kinds = [("always", None), ("on_success", None), ("on_failure", None), ("expression", None), ("expression", "true"), ("always", "true"), ("on_failure", "rejected")]
	for combo in itertools.permutations(kinds, 3):
		edges = out(*(edge("s", t, kind, f"e{n}", condition="x > 5", **({"sourceHandle": label} if label else {})) for n, ((kind, label), t) in enumerate(zip(combo, "abc", strict=True))))
		for x, fallback in itertools.product((1, 9), (True, False)):
			chosen = choose(edges, ok=ok, context={"x": x}, branch=branch, fallback=fallback)
			assert chosen is None or chosen in possible(edges, ok=ok, branch=branch, fallback=fallback), combo
