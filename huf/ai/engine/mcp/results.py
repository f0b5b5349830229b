"""A tool's MCP result as the model gets it: a ``ToolOutput`` of text and images in order.

Text blocks as they are; structured content as JSON when there is no text (MCP asks servers to
send its JSON as text too, so text, when there is some, already says it); images as images (a
model that takes images is shown them, any other reads a note with their type and size; see
``tools.ToolOutput``); audio as a note; embedded resources as their text, or a note for binary
ones; resource links as their address.
"""

from __future__ import annotations

import json

from mcp import types

from huf.ai.engine.tools import ToolImage, ToolOutput, size_words


def render(result: types.CallToolResult) -> ToolOutput:
	parts = [_block(block) for block in result.content]
	structured = result.structuredContent
	if structured is not None and not any(isinstance(block, types.TextContent) for block in result.content):
		parts.append(json.dumps(structured, ensure_ascii=False, default=str))
	return ToolOutput(parts)


def _block(block) -> str | ToolImage:
	if isinstance(block, types.TextContent):
		return block.text
	if isinstance(block, types.ImageContent):
		return ToolImage(block.mimeType, block.data)
	if isinstance(block, types.AudioContent):
		return f"[audio: {block.mimeType}, {size_words(block.data)}; not shown to you]"
	if isinstance(block, types.ResourceLink):
		return f"[resource link: {block.uri}{f' ({block.mimeType})' if block.mimeType else ''}]"
	if isinstance(block, types.EmbeddedResource):
		resource = block.resource
		if isinstance(resource, types.TextResourceContents):
			return f"[resource {resource.uri}]\n{resource.text}"
		return f"[resource {resource.uri}: {resource.mimeType or 'binary'}, {size_words(resource.blob)}; not shown to you]"
	return f"[{getattr(block, 'type', 'unknown')} content]"
