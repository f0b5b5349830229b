"""A run's events in a Redis stream: the worker appends as the loop emits, any number of readers
replay and follow with increasing ids (SSE ``id:``), so a closed tab never stops a run and a
reconnect with Last-Event-ID gets exactly what it missed.

Deltas carry only their piece of text; beside the stream, the run's text so far is one Redis
string that each delta extends in the same step (APPEND), so a reader attaching mid-run
gets the text once, as a snapshot (``engine/wire.py``), however many deltas there were and even
when the stream has been trimmed. An append is one command (a Lua script: the event, the text and
both keys' expiry, applied at once), so it costs one round trip and no pipeline.

Readers use the Redis client directly, never the database: an SSE response gives the request's
database connection back before it starts streaming (huf/ai/run/stream.py).
"""

from __future__ import annotations

import hashlib
import json
import re

import frappe
import redis

from huf.ai.engine.events import Event
from huf.ai.engine.wire import Entry, fold, to_wire

FINAL_STATUSES = {"Success", "Failed", "Cancelled"}
KEEP_SECONDS = 3600  # a finished run's events stay readable this long
OPEN_SECONDS = 86_400  # an unfinished run's log never outlives a day (a run that was rolled back)
MAX_EVENTS = 20_000
PAGE = 500
STREAM_ID = re.compile(r"\d+-\d+")


def log_key(run: str) -> str:
	return frappe.cache.make_key(f"huf:run_events:{run}")


def text_key(run: str) -> str:
	return frappe.cache.make_key(f"huf:run_text:{run}")


# KEYS: the log, the text. ARGV: the keys' lifetime, the log's length, then per event its name, its
# data, and what it does to the text ("append" a delta's piece, "set" the text a resumed run goes on
# from, or ""), and that text. A script runs whole: a delta and the text it adds move together, as
# "resumed" and its text do, and events sent together arrive together, in order.
APPEND = """
for i = 3, #ARGV, 4 do
	redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'event', ARGV[i], 'data', ARGV[i + 1])
	if ARGV[i + 2] == 'append' then redis.call('APPEND', KEYS[2], ARGV[i + 3])
	elseif ARGV[i + 2] == 'set' then redis.call('SET', KEYS[2], ARGV[i + 3]) end
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
"""
APPEND_SHA = hashlib.sha1(APPEND.encode()).hexdigest()


def append(run: str, event: str, data: dict) -> None:
	append_many(run, [(event, data)])


def append_many(run: str, events: list[tuple[str, dict]]) -> None:
	"""``events`` (name, data) in one round trip; the keys' lifetime is set by the last of them."""
	args = _arguments(run, events)
	try:
		frappe.cache.evalsha(APPEND_SHA, 2, *args)
	except redis.exceptions.NoScriptError:  # the server's script cache was emptied (a restart): send it whole
		frappe.cache.eval(APPEND, 2, *args)


def append_in(pipe, run: str, events: list[tuple[str, dict]]) -> None:
	"""``append_many`` as one command of ``pipe`` (a pipeline of the cache Redis), in the round trip of
	the caller's own commands. The script is sent whole (a pipeline cannot fall back on NOSCRIPT)."""
	pipe.eval(APPEND, 2, *_arguments(run, events))


def _arguments(run: str, events: list[tuple[str, dict]]) -> list:
	event, data = events[-1]
	final = event == "status" and data.get("status") in FINAL_STATUSES
	args: list = [log_key(run), text_key(run), KEEP_SECONDS if final else OPEN_SECONDS, MAX_EVENTS]
	for event, data in events:
		if event == "delta":
			text_op, text = "append", data["content"]
		elif event == "resumed":
			text_op, text = "set", data["full_response"]
		else:
			text_op, text = "", ""
		args += (event, json.dumps(data, default=str), text_op, text)
	return args


def read(key: str, after: str, block_ms: int) -> list[Entry]:
	"""Events after ``after`` (a stream id; "0-0" for all), waiting up to ``block_ms`` for the first."""
	entries = frappe.cache.xread({key: after}, block=block_ms, count=PAGE) or []
	return [event for _key, rows in entries for event in _decode(rows)]


def attach(run: str, after: str) -> tuple[list[Entry], str]:
	"""What a reader attaching after ``after`` (its Last-Event-ID, or "0-0") gets first, and the id
	to follow from. Read in one transaction, so the snapshot's text is the text of exactly the
	deltas up to that id."""
	key = log_key(run)
	after = after if STREAM_ID.fullmatch(after or "") else "0-0"
	pipe = frappe.cache.pipeline(transaction=True)
	pipe.get(text_key(run))
	pipe.xrevrange(key, count=1)
	pipe.xrange(key, after, after)
	text, newest, held = pipe.execute()
	if not newest:
		return [], after
	last = _text(newest[0][0])
	missed: list[Entry] = []
	start = _next_id(after)
	while rows := frappe.cache.xrange(key, start, last, count=PAGE):
		missed.extend(_decode(rows))
		start = _next_id(missed[-1][0])
		if missed[-1][0] == last:
			break
	whole = after == "0-0" or not held  # the reader has no text, or lost track of it
	return fold(missed, _text(text or b""), whole), last


def relay(run: str, conversation: str):
	"""A recorder relay: the engine's events as wire events in the run's log. A tool's result whose
	round has calls left (``more``) waits for the next call's event, which the loop emits at once,
	and both go in one round trip; ``on_event.flush()`` sends a result still waiting (the run was
	stopped between two calls): call it before the run's final status. A run's ``complete`` (its
	answer, the loop's last event: no step of the run follows it) waits for the run's final status,
	sent once the run's end is committed: ``on_event.take()`` hands it to ``lifecycle.finish``, which
	sends both in one round trip (or ``flush()`` sends it alone)."""
	held: list[tuple[str, dict]] = []

	def on_event(event: Event) -> None:
		wire = to_wire(event, run, conversation)
		if not wire:
			return
		held.append(wire)
		if not getattr(event, "more", False) and event.type != "complete":
			flush()

	def flush() -> None:
		if held:
			append_many(run, take())

	def take() -> list[tuple[str, dict]]:
		events = held[:]
		held.clear()
		return events

	on_event.flush, on_event.take, on_event.run = flush, take, run
	return on_event


def _decode(rows) -> list[Entry]:
	events = []
	for entry_id, fields in rows:
		name = fields.get(b"event", fields.get("event"))
		data = fields.get(b"data", fields.get("data"))
		events.append((_text(entry_id), _text(name), json.loads(data)))
	return events


def _text(value) -> str:
	return value.decode() if isinstance(value, bytes) else value


def _next_id(entry_id: str) -> str:
	"""The smallest stream id after ``entry_id`` (XRANGE's start is inclusive)."""
	ms, seq = entry_id.split("-")
	return f"{ms}-{int(seq) + 1}"
