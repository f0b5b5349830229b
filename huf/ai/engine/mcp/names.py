"""An MCP server's tools as Huf lists them: namespaced names every provider accepts, and back.

The name is ``ns.tool`` in spirit, spelt ``ns__tool``: OpenAI and Anthropic accept only
``^[a-zA-Z0-9_-]{1,64}$`` and Gemini wants a letter or underscore first, so anything else becomes
``_``, and a name cut to 64 characters or made equal to another by that gets a short hash of the
original name. ``ToolSpec.tool`` keeps the server's own name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass

MAX_NAME = 64
SEPARATOR = "__"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class ToolSpec:
	"""``read_only``/``destructive`` are the server's hints (None when it gave none); MCP says a
	tool that gives no hints may be destructive."""

	name: str
	tool: str
	description: str
	input_schema: dict
	title: str | None = None
	read_only: bool | None = None
	destructive: bool | None = None

	def to_dict(self) -> dict:
		return asdict(self)

	@classmethod
	def from_dict(cls, data: dict) -> ToolSpec:
		return cls(**{key: data.get(key) for key in cls.__dataclass_fields__})


def specs_from(namespace: str, tools: list) -> list[ToolSpec]:
	"""ToolSpecs for the SDK's ``types.Tool`` list, names unique within the list."""
	taken: set[str] = set()
	specs = []
	for tool in sorted(tools, key=lambda t: t.name):
		name = safe_name(namespace, tool.name)
		if name in taken:
			name = _hashed(name, tool.name)
		taken.add(name)
		hints = tool.annotations
		specs.append(
			ToolSpec(
				name=name,
				tool=tool.name,
				description=f"[MCP:{namespace}] {tool.description or tool.title or tool.name}".strip(),
				input_schema=object_schema(tool.inputSchema),
				title=tool.title or (hints.title if hints else None),
				read_only=hints.readOnlyHint if hints else None,
				destructive=hints.destructiveHint if hints else None,
			)
		)
	return specs


def safe_name(namespace: str, tool: str) -> str:
	raw = f"{_UNSAFE.sub('_', namespace)}{SEPARATOR}{_UNSAFE.sub('_', tool)}"
	if not (raw[0].isalpha() or raw[0] == "_"):
		raw = "_" + raw
	return raw if len(raw) <= MAX_NAME else _hashed(raw, f"{namespace}.{tool}")


def object_schema(schema: dict | None) -> dict:
	"""The tool's input schema as providers take it: a JSON object schema."""
	schema = dict(schema or {})
	schema.setdefault("type", "object")
	if schema["type"] == "object":
		schema.setdefault("properties", {})
	return schema


def _hashed(name: str, original: str) -> str:
	digest = hashlib.sha256(original.encode()).hexdigest()[:8]
	return f"{name[: MAX_NAME - 9]}_{digest}"
