"""A run's events as clients see them (the SSE event name and its JSON data), and what a reader
attaching to a run gets first.

- ``delta`` carries only its own ``content``: a long answer costs its length once, not its length
  squared. The whole text is on ``complete`` (``response`` and ``full_response``) and on
  ``snapshot`` (``full_response``).
- ``resumed`` (a run going on after an interruption) carries the text the run goes on from in
  ``full_response``: readers replace their text with it, as for a snapshot, and the event log
  resets the run's text to it in the same transaction.
- A reader that has none of the text yet (it attached from the start, or the log no longer holds
  the event it saw last) gets the deltas it missed folded into one ``snapshot`` carrying the text
  so far, at the place of the last of them; the deltas after it follow one by one. A reader that
  reconnects with a Last-Event-ID the log still holds gets exactly the events it missed.
"""

from __future__ import annotations

from huf.ai.engine.events import (
	CompleteEvent,
	DeltaEvent,
	ErrorEvent,
	Event,
	ResumedEvent,
	ToolApprovalEvent,
	ToolCallEvent,
	ToolResultEvent,
)

WIRE_RESULT_CHARS = 2000

Entry = tuple[str | None, str, dict]  # (log id, event name, data)


def to_wire(event: Event, run: str, conversation: str) -> tuple[str, dict] | None:
	"""(event name, data) for an engine event, or None for events clients do not get."""
	if isinstance(event, DeltaEvent):
		return "delta", {"type": "delta", "content": event.content}
	if isinstance(event, ToolCallEvent):
		call = event.call
		return "tool_call", {"type": "tool_call", "id": call.id, "name": call.name, "arguments": call.arguments, "turn": event.turn}
	if isinstance(event, ToolApprovalEvent):  # the model's own arguments: no secret of the tool is in them
		call = event.call
		return "tool_approval", {
			"type": "tool_approval",
			"run": run,
			"id": call.id,
			"name": call.name,
			"arguments": call.arguments,
			"turn": event.turn,
		}
	if isinstance(event, ToolResultEvent):
		return "tool_result", {
			"type": "tool_result",
			"id": event.call.id,
			"name": event.call.name,
			"ok": event.ok,
			"declined": event.declined,
			"error": event.error,
			"content": event.content[:WIRE_RESULT_CHARS],
			"duration_ms": event.duration_ms,
		}
	if isinstance(event, ResumedEvent):
		return "resumed", {"type": "resumed", "run": run, "full_response": event.text}
	if isinstance(event, CompleteEvent):
		return "complete", {
			"type": "complete",
			"run": run,
			"conversation": conversation,
			"response": event.response,
			"full_response": event.response,
			"usage": event.usage.to_dict(),
			"cost": event.cost,
			"duration_seconds": event.duration_seconds,
		}
	if isinstance(event, ErrorEvent):
		return "error", {"type": "error", "kind": event.kind, "message": event.message}
	return None


def fold(missed: list[Entry], text: str, whole: bool) -> list[Entry]:
	"""The events a reader gets first. ``missed``: the log's entries after its position, oldest
	first; ``text``: the run's text up to the last of them; ``whole``: the reader has none of the
	text, so a snapshot stands in for the deltas (which may also be partly trimmed from the log)."""
	if not whole:
		return missed
	deltas = [index for index, (_id, name, _data) in enumerate(missed) if name == "delta"]
	text = text or "".join(missed[index][2].get("content", "") for index in deltas)  # a log without its text key
	snapshot = {"type": "snapshot", "full_response": text}
	if not deltas:
		return ([(None, "snapshot", snapshot)] if text else []) + missed
	last = deltas[-1]
	before = [entry for entry in missed[:last] if entry[1] != "delta"]
	return [*before, (missed[last][0], "snapshot", snapshot), *missed[last + 1 :]]
