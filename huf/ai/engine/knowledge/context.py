"""Fit passages of several sources into token budgets and write them the way the model reads them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from huf.ai.engine.knowledge.types import Chunk

HEADER = "## Relevant Knowledge"
FOOTER = "---"


@dataclass
class Section:
	title: str  # the source's name
	chunks: list[Chunk] = field(default_factory=list)  # best first
	budget: int = 1000  # tokens this source may use


def cite(chunk: Chunk) -> str:
	where = ", ".join(part for part in (chunk.title, chunk.locator) if part)
	return f"{chunk.text.strip()}\n(from {where})" if where else chunk.text.strip()


def fit(sections: list[Section], total_budget: int, count_tokens: Callable[[str], int]) -> tuple[str, dict[str, int]]:
	"""The knowledge block and how many passages each source gave. Sections come in priority order;
	a passage that does not fit its source's budget or what is left of the total is skipped (a
	smaller one after it may still fit)."""
	left = total_budget - count_tokens(HEADER) - count_tokens(FOOTER)
	parts: list[str] = []
	used: dict[str, int] = {}
	for section in sections:
		budget = min(section.budget, left)
		heading = f"### {section.title}"
		cost = count_tokens(heading)
		picked: list[str] = []
		for chunk in section.chunks:
			text = cite(chunk)
			tokens = count_tokens(text)
			if cost + tokens <= budget:
				picked.append(text)
				cost += tokens
		if picked:
			parts.append("\n\n".join([heading, *picked]))
			used[section.title] = len(picked)
			left -= cost
	if not parts:
		return "", {}
	return "\n\n".join([HEADER, *parts, FOOTER]), used
