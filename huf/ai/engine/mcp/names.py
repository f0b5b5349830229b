"""An MCP server's tools as Huf lists them: namespaced names every provider accepts, and back.

The name is ``ns__tool``, made by ``engine/tool_names.namespaced`` as app tools' names are; a name
made equal to another by that gets a short hash of the original name. ``ToolSpec.tool`` keeps the
server's own name.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from huf.ai.engine.tool_names import hashed, namespaced


@dataclass(frozen=True)
class ToolSpec:
	"""``read_only``/``destructive``/``idempotent`` are the server's hints (None when it gave none);
	MCP says a tool that gives no hints may be destructive."""

	name: str
	tool: str
	description: str
	input_schema: dict
	title: str | None = None
	read_only: bool | None = None
	destructive: bool | None = None
	idempotent: bool | None = None

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
		name = namespaced(namespace, tool.name)
		if name in taken:
			name = hashed(name, tool.name)
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
				idempotent=hints.idempotentHint if hints else None,
			)
		)
	return specs


def object_schema(schema: dict | None) -> dict:
	"""The tool's input schema as providers take it: a JSON object schema."""
	schema = dict(schema or {})
	schema.setdefault("type", "object")
	if schema["type"] == "object":
		schema.setdefault("properties", {})
	return schema

