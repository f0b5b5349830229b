"""A tool's MCP result as text the model reads.

Text blocks as they are; structured content as JSON when there is no text (MCP asks servers to
send its JSON as text too, so text, when there is some, already says it);
images and audio as a note with their type and size (the engine's tool results are text); embedded
resources as their text, or a note for binary ones; resource links as their address.
"""

from __future__ import annotations

import base64
import binascii
import json

from mcp import types


def render(result: types.CallToolResult) -> str:
	parts = [_block(block) for block in result.content]
	structured = result.structuredContent
	if structured is not None and not any(isinstance(block, types.TextContent) for block in result.content):
		parts.append(json.dumps(structured, ensure_ascii=False, default=str))
	return "\n".join(part for part in parts if part)


def _block(block) -> str:
	if isinstance(block, types.TextContent):
		return block.text
	if isinstance(block, types.ImageContent | types.AudioContent):
		kind = "image" if isinstance(block, types.ImageContent) else "audio"
		return f"[{kind}: {block.mimeType}, {_size(block.data)}; not shown to you]"
	if isinstance(block, types.ResourceLink):
		return f"[resource link: {block.uri}{f' ({block.mimeType})' if block.mimeType else ''}]"
	if isinstance(block, types.EmbeddedResource):
		resource = block.resource
		if isinstance(resource, types.TextResourceContents):
			return f"[resource {resource.uri}]\n{resource.text}"
		return f"[resource {resource.uri}: {resource.mimeType or 'binary'}, {_size(resource.blob)}; not shown to you]"
	return f"[{getattr(block, 'type', 'unknown')} content]"


def _size(data: str) -> str:
	try:
		count = len(base64.b64decode(data, validate=False))
	except (binascii.Error, ValueError):
		count = len(data)
	return f"{count} bytes" if count < 1024 else f"{count / 1024:.1f} KB"

