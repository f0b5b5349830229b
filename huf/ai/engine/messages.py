"""The OpenAI message protocol: keeping a history valid whatever was trimmed, sliced or summarised.

A *tool-call group* is an assistant message with ``tool_calls`` followed by the ``tool`` messages
answering them. Providers reject a ``tool`` message whose call is not in the assistant message just
before it, and an assistant ``tool_calls`` entry with no answer. Slicing therefore only happens at
group boundaries, and ``repair_message_sequence`` runs before every model call.

Images in tool results: OpenAI's format takes no images in ``tool`` messages, so for a model that
takes images the round's images follow its tool messages in one ``user`` message
(``tool_images_message``). That message belongs to the group: it stays right after the group's
tool messages, goes when the group goes, and a history never starts with it.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

ResultLookup = Callable[[str], Optional[str]]

IMAGE_MIME_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})  # what vision models take
MAX_IMAGE_BYTES = 5 * 1024 * 1024
TOOL_IMAGES = "Images from the tool results above (images are not kept in the conversation history)."


def image_part(mime_type: str, base64_data: str) -> dict:
	"""One image as a content part of a user message (LiteLLM passes it on in each provider's form)."""
	return {"type": "image_url", "image_url": {"url": f"data:{mime_type};base64,{base64_data}"}}


def tool_images_message(results: Sequence[tuple[str, Sequence]]) -> dict:
	"""The ``user`` message carrying a round's images: ``results`` are (what gave them, e.g. the
	tool's name, and its images, each with ``mime_type`` and base64 ``data``) in call order."""
	parts: list[dict] = [{"type": "text", "text": TOOL_IMAGES}]
	for source, images in results:
		parts.append({"type": "text", "text": f"From {source}:"})
		parts.extend(image_part(image.mime_type, image.data) for image in images)
	return {"role": "user", "content": parts}


def is_tool_images(message: dict) -> bool:
	content = message.get("content")
	return (
		message.get("role") == "user"
		and isinstance(content, list)
		and bool(content)
		and isinstance(content[0], dict)
		and content[0].get("text") == TOOL_IMAGES
	)


def is_boundary(messages: list[dict], index: int) -> bool:
	"""True when the history may start at ``index`` without splitting a tool-call group (its tool
	messages and the images that follow them)."""
	if index >= len(messages):
		return True
	return messages[index].get("role") != "tool" and not is_tool_images(messages[index])


def safe_history_split(history: list[dict], split_index: int) -> tuple[list[dict], list[dict]]:
	"""Split into (older, newer) at ``split_index``, moved forward to the next group boundary."""
	index = max(0, min(split_index, len(history)))
	while not is_boundary(history, index):
		index += 1
	return history[:index], history[index:]


def safe_history_slice(history: list[dict], limit: int) -> list[dict]:
	"""The newest ``limit`` messages at most, never starting inside a tool-call group."""
	if limit <= 0:
		return []
	return safe_history_split(history, len(history) - limit)[1]


def repair_message_sequence(
	messages: list[dict], lookup_result: ResultLookup | None = None
) -> tuple[list[dict], list[str]]:
	"""Return a valid copy of ``messages`` and a note for every change made.

	- a ``tool`` message not answering a call of the assistant message before it is dropped;
	- a second answer to the same call is dropped;
	- an unanswered call gets its recorded result from ``lookup_result`` when there is one, and is
	  otherwise removed from the assistant message (the message goes when nothing is left of it);
	- a round's images stay right after its tool messages, and go with the group; anywhere else
	  they are dropped.
	"""
	repaired: list[dict] = []
	notes: list[str] = []
	index = 0
	while index < len(messages):
		message = messages[index]
		index += 1
		if message.get("role") == "tool":
			notes.append(f"dropped orphaned tool result {message.get('tool_call_id')!r}")
			continue
		if is_tool_images(message):
			notes.append("dropped tool images that did not follow their tool results")
			continue
		if message.get("role") != "assistant" or not message.get("tool_calls"):
			repaired.append(message)
			continue
		answers: dict[str, dict] = {}
		while index < len(messages) and messages[index].get("role") == "tool":
			answer = messages[index]
			index += 1
			call_id = answer.get("tool_call_id")
			wanted = any(call.get("id") == call_id for call in message["tool_calls"])
			if not wanted or call_id in answers:
				notes.append(f"dropped unmatched tool result {call_id!r}")
				continue
			answers[call_id] = answer
		group = _close_group(message, answers, lookup_result, notes)
		repaired.extend(group)
		if index < len(messages) and is_tool_images(messages[index]):
			if any(m.get("role") == "tool" for m in group):
				repaired.append(messages[index])
			else:
				notes.append("dropped tool images whose tool results are gone")
			index += 1
	return repaired, notes


def _close_group(
	assistant: dict, answers: dict[str, dict], lookup_result: ResultLookup | None, notes: list[str]
) -> list[dict]:
	kept_calls, results = [], []
	for call in assistant["tool_calls"]:
		call_id = call.get("id")
		answer = answers.get(call_id)
		if answer is None and lookup_result is not None:
			recorded = lookup_result(call_id)
			if recorded is not None:
				answer = {"role": "tool", "tool_call_id": call_id, "content": recorded}
				notes.append(f"restored tool result {call_id!r} from its record")
		if answer is None:
			notes.append(f"dropped unanswered tool call {call_id!r}")
			continue
		kept_calls.append(call)
		results.append(answer)
	if kept_calls:
		head = dict(assistant, tool_calls=kept_calls)
		return [head, *results]
	if assistant.get("content"):
		return [{key: value for key, value in assistant.items() if key != "tool_calls"}]
	return []
