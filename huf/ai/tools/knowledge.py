"""The tools an agent gets for its Optional knowledge sources: search them (``knowledge_search``),
and list them (``get_knowledge_sources``). Finding passages is ``huf/ai/knowledge/retriever.py``."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.effects import REPEATABLE
from huf.ai.engine.tools import Tool, ToolError
from huf.ai.knowledge import retriever
from huf.ai.tools import guarded


def optional_sources(agent) -> list[str]:
	rows = [r for r in agent.get("agent_knowledge") or [] if r.mode == "Optional"]
	return [r.knowledge_source for r in sorted(rows, key=lambda r: -(r.priority or 0))]


def knowledge_tools(agent) -> list[Tool]:
	"""``knowledge_search`` and ``get_knowledge_sources`` when the agent has Optional sources.
	Both act as the run's user: a source that user may not read is neither listed nor searched."""
	bound = optional_sources(agent)
	if not bound:
		return []

	def search(args: dict):
		sources = retriever.readable(bound)
		wanted = args.get("source")
		if wanted:
			if wanted not in sources:
				raise ToolError(
					_("There is no knowledge source named {0} you can search. Sources: {1}.").format(
						wanted, ", ".join(sources) or _("none")
					)
				)
			sources = [wanted]
		if not sources:
			raise ToolError(_("You may not read any of this agent's knowledge sources."))
		hits = retriever.search(sources, args["query"], args.get("limit") or 5)
		return (
			{"results": [retriever.as_result(h) for h in hits]}
			if hits
			else {"results": [], "note": _("Nothing matched; try other words.")}
		)

	def list_sources(_args: dict):
		rows = frappe.get_all(
			"Knowledge Source",
			{"name": ("in", retriever.readable(bound) or [""])},
			["name", "description", "knowledge_type", "chunk_count", "status"],
		)
		return {
			"sources": [
				{
					"name": r.name,
					"description": r.description or "",
					"searches_by": "meaning" if r.knowledge_type != "sqlite_fts" else "words",
					"passages": r.chunk_count,
					"status": r.status,
				}
				for r in rows
			]
		}

	search_schema = {
		"type": "object",
		"properties": {
			"query": {"type": "string", "description": "What to look for, in plain words."},
			"source": {
				"type": "string",
				"description": "One source to search (from get_knowledge_sources); leave out to search all.",
			},
			"limit": {
				"type": "integer",
				"minimum": 1,
				"maximum": retriever.MAX_RESULTS,
				"description": "How many passages (default 5).",
			},
		},
		"required": ["query"],
		"additionalProperties": False,
	}
	return [
		Tool(
			"knowledge_search",
			"Search this agent's knowledge sources and return the best passages, each with where it came from "
			"(title and page, slide or sheet). Cite them in your answer.",
			search_schema,
			lambda a: guarded(lambda: search(a), False),
			effect=REPEATABLE,
		),
		Tool(
			"get_knowledge_sources",
			"List the knowledge sources you can search, with what each one holds.",
			{"type": "object", "properties": {}, "additionalProperties": False},
			lambda a: guarded(lambda: list_sources(a), False),
			effect=REPEATABLE,
		),
	]
