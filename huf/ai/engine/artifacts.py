"""Tool results too long for the model: kept whole as an artifact, shown as a reference.

A result longer than the agent's Max Context Characters is handed to a ``Store`` (the site keeps it
as an Agent Context Artifact and returns its id; ``stasher`` makes the loop's ``overflow``). The model reads a short reference instead of a
silently cut text: how big the result is, its shape, its beginning, and how to page through it
with ``read_artifact(id, offset, limit)``. The reference stays small whatever the result's size
(``HEAD_CHARS`` + ``OUTLINE_CHARS`` and a few words), so a 1 MB result costs a turn about as much
as a short one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from huf.ai.engine.effects import REPEATABLE
from huf.ai.engine.tools import Tool, ToolError

HEAD_CHARS = 1500
OUTLINE_CHARS = 1200
CHARS_PER_TOKEN = 4
DEFAULT_PAGE = 4000
PAGE_HEADER = 200  # a page's first line: where it is in the artifact
READ_TOOL = "read_artifact"

# (the call's name, the whole result text) -> the artifact's id, or None when it could not be kept
Store = Callable[[str, str], "str | None"]


class ArtifactMissing(LookupError):
	"""No artifact by that id that this run may read."""


def token_estimate(text: str) -> int:
	return -(-len(text) // CHARS_PER_TOKEN)


def outline(text: str) -> str:
	"""The shape of a JSON result (keys, types, list lengths), or its size in lines for plain text."""
	try:
		value = json.loads(text)
	except ValueError:
		return f"text, {len(text):,} characters in {text.count(chr(10)) + 1:,} lines"
	return _shape(value, 0)[:OUTLINE_CHARS]


def _shape(value: Any, depth: int) -> str:
	if isinstance(value, dict):
		if depth >= 3:
			return f"object with {len(value)} keys"
		inner = ", ".join(f"{key}: {_shape(item, depth + 1)}" for key, item in list(value.items())[:20])
		more = f", … {len(value) - 20} more keys" if len(value) > 20 else ""
		return "{" + inner + more + "}"
	if isinstance(value, list):
		first = f" of {_shape(value[0], depth + 1)}" if value else ""
		return f"list of {len(value):,} items{first}"
	return type(value).__name__ if value is not None else "null"


def reference(artifact: str, text: str, max_chars: int) -> str:
	"""What the model reads in place of ``text`` (kept as ``artifact``)."""
	head = min(HEAD_CHARS, max(max_chars // 2, 200))
	page = max(min(DEFAULT_PAGE, max_chars), 500) if max_chars > 0 else DEFAULT_PAGE
	return json.dumps(
		{
			"artifact": artifact,
			"note": f"The result is {len(text):,} characters (about {token_estimate(text):,} tokens), too long to show here. "
			f'It is kept whole: read it with read_artifact(id="{artifact}", offset, limit), at most {page:,} characters a call.',
			"shape": outline(text),
			"beginning": text[:head],
			"next_offset": head,
		},
		ensure_ascii=False,
	)


def stasher(store: Store) -> Callable[[str, str, int], str | None]:
	"""The loop's ``overflow``: keep the text with ``store``, show the model its reference (or, when
	it could not be kept, None: the text is cut as before)."""

	def overflow(name: str, text: str, max_chars: int) -> str | None:
		if name == READ_TOOL:  # a page is sized to fit; never an artifact of an artifact
			return None
		artifact = store(name, text)
		return reference(artifact, text, max_chars) if artifact else None

	return overflow


def read_tool(read: Callable[[str], str], max_page: int) -> Tool:
	"""``read_artifact``: ``read(id)`` gives the artifact's whole text or raises ArtifactMissing."""
	page_limit = max(min(max_page - PAGE_HEADER, 20_000), 500) if max_page > 0 else DEFAULT_PAGE

	def handler(args: dict):
		try:
			text = read(args["id"])
		except ArtifactMissing:
			raise ToolError(f"There is no artifact {args['id']!r} in this conversation.") from None
		offset = args.get("offset") or 0
		limit = min(args.get("limit") or DEFAULT_PAGE, page_limit)
		if offset >= len(text) and text:
			raise ToolError(f"The artifact has {len(text):,} characters; offset {offset:,} is past its end.")
		end = min(offset + limit, len(text))
		where = {"id": args["id"], "offset": offset, "total": len(text), "next_offset": end if end < len(text) else None}
		return json.dumps(where) + "\n" + text[offset:end]  # text, not JSON: a page is not made longer by escaping

	schema = {
		"type": "object",
		"properties": {
			"id": {"type": "string", "description": "The artifact's id, from the result that mentioned it."},
			"offset": {"type": "integer", "minimum": 0, "description": "Where to start, in characters (0: the beginning)."},
			"limit": {"type": "integer", "minimum": 1, "description": f"How many characters (at most {page_limit:,})."},
		},
		"required": ["id"],
		"additionalProperties": False,
	}
	description = "Read part of a tool result that was too long to show whole, by its artifact id."
	return Tool(READ_TOOL, description, schema, handler, effect=REPEATABLE)
