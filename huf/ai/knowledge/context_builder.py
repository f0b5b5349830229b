"""The Mandatory knowledge of one run: the best passages of each Mandatory source for the prompt,
within each binding's token budget and the agent's Max Knowledge Tokens."""

from __future__ import annotations

from dataclasses import dataclass, field

import frappe

from huf.ai.engine.knowledge.context import Section, fit
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.knowledge import retriever

PER_SOURCE = 20  # passages looked at per source before the budget decides


@dataclass
class KnowledgeUse:
	text: str = ""  # appended to the system message
	used: dict[str, int] = field(default_factory=dict)  # source -> passages injected

	@property
	def chunks(self) -> int:
		return sum(self.used.values())


def build_knowledge_context(agent, query: str, model: str) -> KnowledgeUse:
	"""``model`` (LiteLLM's name) counts the tokens of the budgets."""
	rows = [r for r in agent.get("agent_knowledge") or [] if r.mode == "Mandatory"]
	if not rows:
		return KnowledgeUse()
	allowed = set(retriever.readable([r.knowledge_source for r in rows]))
	sections = []
	for row in sorted(rows, key=lambda r: -(r.priority or 0)):
		if row.knowledge_source not in allowed:
			continue
		hits = retriever.search([row.knowledge_source], query, PER_SOURCE) if query.strip() else []
		seen = {h.chunk.id for h in hits}
		fill = [c for c in retriever.head(row.knowledge_source, PER_SOURCE) if c.id not in seen]
		chunks = [h.chunk for h in hits] + fill
		sections.append(Section(title=row.knowledge_source, chunks=chunks, budget=row.token_budget or 1000))
	text, used = fit(sections, agent.get("max_knowledge_tokens") or 4000, token_counter(model))
	return KnowledgeUse(text, used)


def token_counter(model: str):
	"""Tokens of a text as ``model`` counts them (LiteLLM's tokenizers, bundled: no download)."""
	litellm = load_litellm()

	def count(text: str) -> int:
		try:
			return litellm.token_counter(model=model, text=text)
		except Exception:
			return len(text) // 4 + 1

	return count


def record(run: str, use: KnowledgeUse) -> None:
	if use.used:
		frappe.db.set_value(
			"Agent Run",
			run,
			{"knowledge_sources_used": frappe.as_json(use.used, indent=None), "chunks_injected": use.chunks},
			update_modified=False,
		)
