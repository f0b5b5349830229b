"""Fitting passages of several sources into their budgets."""

from huf.ai.engine.knowledge.context import FOOTER, HEADER, Section, cite, fit
from huf.ai.engine.knowledge.types import Chunk


def words(text: str) -> int:
	return len(text.split())


def chunk(input_id: str, position: int, text: str, locator: str = "", title: str = "Doc") -> Chunk:
	return Chunk(f"{input_id}:{position}", input_id, position, text, locator, title)


def test_each_source_gets_its_budget_in_priority_order_and_passages_cite_where_they_came_from():
	rules = Section(
		"Rules", [chunk("a", 0, "one two three", "page 2", "Handbook"), chunk("a", 1, "four five six seven")], budget=20
	)
	faq = Section("FAQ", [chunk("b", 0, "eight nine")], budget=20)
	text, used = fit([rules, faq], 200, words)
	assert text.startswith(HEADER + "\n\n### Rules\n\none two three\n(from Handbook, page 2)")
	assert text.index("### Rules") < text.index("### FAQ") and text.endswith(FOOTER)
	assert used == {"Rules": 2, "FAQ": 1}


def test_a_passage_over_budget_is_skipped_and_a_smaller_one_after_it_still_fits():
	section = Section("S", [chunk("a", 0, "w " * 30), chunk("a", 1, "short one")], budget=12)
	text, used = fit([section], 1000, words)
	assert used == {"S": 1} and "short one" in text and "w w w" not in text


def test_the_total_budget_caps_all_sources_together():
	first = Section("First", [chunk("a", i, f"alpha {i} beta gamma") for i in range(10)], budget=1000)
	second = Section("Second", [chunk("b", 0, "delta epsilon")], budget=1000)
	text, used = fit([first, second], 30, words)
	assert words(text) <= 30
	assert used.get("First", 0) < 10


def test_nothing_fits_gives_no_block():
	assert fit([Section("S", [chunk("a", 0, "x " * 50)], budget=5)], 100, words) == ("", {})
	assert fit([], 100, words) == ("", {})


def test_cite_without_title_or_place_is_just_the_text():
	assert cite(Chunk("a:0", "a", 0, "  plain  ")) == "plain"
