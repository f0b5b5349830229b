"""Moved to ``huf/ai/tools/knowledge.py``; ``huf/ai/agents.py`` still imports it from here."""

from huf.ai.tools.knowledge import knowledge_tools

__all__ = ["knowledge_tools"]
