"""A run's events in a Redis stream: the worker appends as the loop emits, any number of readers
replay and follow with increasing ids (SSE ``id:``), so a closed tab never stops a run and a
reconnect with Last-Event-ID gets exactly what it missed.

Readers use the Redis client directly, never the database: an SSE response gives the request's
database connection back before it starts streaming (huf/ai/stream.py).
"""

from __future__ import annotations

import json

import frappe

from huf.ai.engine.events import CompleteEvent, DeltaEvent, ErrorEvent, Event, ToolCallEvent, ToolResultEvent

FINAL_STATUSES = {"Success", "Failed", "Cancelled"}
KEEP_SECONDS = 3600  # a finished run's events stay readable this long
OPEN_SECONDS = 86_400  # an unfinished run's log never outlives a day (a run that was rolled back)
MAX_EVENTS = 20_000
WIRE_RESULT_CHARS = 2000


def log_key(run: str) -> str:
	return frappe.cache.make_key(f"huf:run_events:{run}")


def append(run: str, event: str, data: dict) -> None:
	key = log_key(run)
	final = event == "status" and data.get("status") in FINAL_STATUSES
	pipe = frappe.cache.pipeline(transaction=False)
	pipe.xadd(key, {"event": event, "data": json.dumps(data, default=str)}, maxlen=MAX_EVENTS, approximate=True)
	pipe.expire(key, KEEP_SECONDS if final else OPEN_SECONDS)
	pipe.execute()


def read(key: str, after: str, block_ms: int) -> list[tuple[str, str, dict]]:
	"""Events after ``after`` (a stream id; "0-0" for all), waiting up to ``block_ms`` for the first."""
	entries = frappe.cache.xread({key: after}, block=block_ms, count=500) or []
	events = []
	for _key, rows in entries:
		for entry_id, fields in rows:
			entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
			name = fields.get(b"event", fields.get("event"))
			data = fields.get(b"data", fields.get("data"))
			events.append((entry_id, name.decode() if isinstance(name, bytes) else name, json.loads(data)))
	return events


def relay(run: str, conversation: str):
	"""A recorder relay: the engine's events as wire events in the run's log."""

	def on_event(event: Event) -> None:
		wire = to_wire(event, run, conversation)
		if wire:
			append(run, *wire)

	return on_event


def to_wire(event: Event, run: str, conversation: str) -> tuple[str, dict] | None:
	if isinstance(event, DeltaEvent):
		return "delta", {"type": "delta", "content": event.content, "full_response": event.full_response}
	if isinstance(event, ToolCallEvent):
		call = event.call
		return "tool_call", {"type": "tool_call", "id": call.id, "name": call.name, "arguments": call.arguments, "turn": event.turn}
	if isinstance(event, ToolResultEvent):
		return "tool_result", {
			"type": "tool_result",
			"id": event.call.id,
			"name": event.call.name,
			"ok": event.ok,
			"error": event.error,
			"content": event.content[:WIRE_RESULT_CHARS],
			"duration_ms": event.duration_ms,
		}
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
