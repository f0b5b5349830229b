"""Persists a run as the loop emits it, one round at a time: the rows a model round makes (its
assistant message, its tool calls, their results) are written in one INSERT per table and committed
together when the round's last tool returns, before the next model call. A crash loses at most the
round in flight (whose tools' own writes are not committed either), and other sessions see each
round as soon as it is done. The run's last rows are committed with its final status (lifecycle).

A round that acts outside the database (a call whose tool's effect is not DATABASE,
``engine/effects.py``) commits more, so that a run going on after its worker died (``resume.py``)
knows what may have acted:
- its assistant message, before any call runs: a resumed run repeats these very calls (the same
  ids, so the same idempotency keys), not calls a second model answer might ask for;
- before a call that may act only once (ONCE): what the round did so far, and the call's row as
  Started. A committed Started row without a result is a call that may or may not have acted;
- after such a call: its result.
Rounds of database tools only stay one commit. Each assistant message keeps the usage of its model
call in ``raw_payload``, so the tokens of rounds recorded before an interruption are still counted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Mapping

import frappe

from huf.ai.engine.effects import DATABASE, ONCE
from huf.ai.engine.events import AssistantEvent, ErrorEvent, Event, ToolApprovalEvent, ToolCall, ToolCallEvent, ToolResultEvent
from huf.ai.run.rows import commit as commit_transaction
from huf.ai.run.rows import counted_messages, insert_rows, new_name, next_sequence, update_rows

# What a later write changes on an Agent Tool Call row that is already in the database.
RESULT_COLUMNS = ("status", "tool_result", "error_message", "duration_ms")


@dataclass
class Recorder:
	run: str
	conversation: str
	agent: str
	user: str
	write_messages: bool = True  # False for sub-agent runs: they must not touch the parent's conversation
	relays: list = field(default_factory=list)  # extra sinks (live streams) that get every event
	messages: list[dict] = field(default_factory=list)  # Agent Message rows not written yet
	tool_calls: dict[str, dict] = field(default_factory=dict)  # call id -> Agent Tool Call row not written yet
	waiting: int = 0  # tool calls of the current round still without a result
	known: dict[str, str] = field(default_factory=dict)  # call id -> Agent Tool Call already written (a paused round)
	effects: Mapping[str, str] = field(default_factory=dict)  # tool name -> effect; a tool not named here: DATABASE
	# Message numbers: the first flush takes them from the conversation's counter; later ones number on
	# from ``numbered`` and the counter catches up when the run ends (``counts``) or stops (``sync``).
	numbered: int = 0  # the last number this recorder gave
	uncounted: int = 0  # messages numbered here that the conversation's counter does not count yet
	committed: tuple[int, int] = (0, 0)  # (numbered, uncounted) at the recorder's last commit
	own_numbers: bool = False  # a conversation made for this run: its numbers start at 1, none taken yet
	has_committed: bool = False

	def __call__(self, event: Event) -> None:
		handler = HANDLERS.get(event.type)
		if handler:
			handler(self, event)
		for relay in self.relays:
			relay(event)

	def message(self, role: str, kind: str, content: str, **extra) -> None:
		"""Add a message to the conversation with the next ``flush``."""
		if self.write_messages:
			self.messages.append(
				{
					"conversation": self.conversation,
					"agent_run": self.run,
					"agent": self.agent,
					"user": self.user,
					"role": role,
					"kind": kind,
					"content": content,
					"record_kind": extra.pop("record_kind", "message"),
					"context_policy": extra.pop("context_policy", "include_full"),
					**extra,
				}
			)

	def flush(self, commit: bool = False) -> None:
		"""Write what is waiting: the messages (numbered with one counter update) and the tool calls."""
		if self.messages:
			if self.numbered or self.own_numbers:  # the conversation's lock is held: nobody else numbers its messages
				first = self.numbered + 1
				self.uncounted += len(self.messages)
			else:
				first = next_sequence(self.conversation, "last_message_sequence", len(self.messages))
			self.numbered = first + len(self.messages) - 1
			for number, row in enumerate(self.messages):
				row["sequence"] = first + number
			insert_rows("Agent Message", self.messages)
		if self.tool_calls:
			written = set(self.known.values())
			insert_rows("Agent Tool Call", [row for row in self.tool_calls.values() if row["name"] not in written])
			update_rows("Agent Tool Call", [row for row in self.tool_calls.values() if row["name"] in written], RESULT_COLUMNS)
		self.messages, self.tool_calls = [], {}
		if commit:
			commit_transaction()
			self.committed, self.has_committed = (self.numbered, self.uncounted), True

	def counts(self) -> tuple[int, int]:
		"""(last number, how many) of the messages the counter does not count yet, for the statement
		that ends the run (``lifecycle.finish``); they are counted from then on."""
		pending = (self.numbered, self.uncounted)
		self.uncounted, self.committed = 0, (self.numbered, 0)
		return pending

	def sync(self, committed_only: bool = False) -> None:
		"""Bring the counter up to date where the run does not end through ``finish`` (a pause), or
		after a rollback (``committed_only``: what the last commit kept)."""
		last, count = self.committed if committed_only else (self.numbered, self.uncounted)
		counted_messages(self.conversation, last, count)
		self.numbered, self.uncounted, self.committed = last, 0, (last, 0)

	def effect(self, call: ToolCall) -> str:
		return self.effects.get(call.name, DATABASE)

	def _on_assistant(self, event: AssistantEvent) -> None:
		spent = json.dumps({"usage": event.usage.to_dict(), "model": event.model})  # resume.py counts it after an interruption
		if event.tool_calls:
			self.waiting = len(event.tool_calls)
			calls = json.dumps([call.to_openai() for call in event.tool_calls])
			self.message("agent", "Tool Call", event.content, record_kind="tool_call", tool_calls=calls, raw_payload=spent)
			if any(self.effect(call) != DATABASE for call in event.tool_calls):
				self.flush(commit=True)  # the calls as asked, before any of them acts outside
		else:
			self.message("agent", "Message", event.content, raw_payload=spent)
			self.flush()  # committed with the run's final status

	def _on_tool_call(self, event: ToolCallEvent) -> None:
		known = self.known.get(event.call.id)
		row = {"name": known, "status": "Started"} if known else self._row(event, "Started")
		if self.effect(event.call) == ONCE:
			# What the round did so far and this call's Started row, before it acts: after a dead worker a
			# Started row without a result is a call that may or may not have acted (resume.py).
			self.tool_calls[event.call.id] = row
			self.flush(commit=True)
			self.known[event.call.id] = row["name"]
			row = {"name": row["name"], "status": "Started"}
		self.tool_calls[event.call.id] = row

	def _on_tool_approval(self, event: ToolApprovalEvent) -> None:
		"""A call waiting for a person: its row says so (committed with the run's pause)."""
		self.tool_calls[event.call.id] = self._row(event, "Awaiting Approval")

	def _row(self, event: ToolCallEvent | ToolApprovalEvent, status: str) -> dict:
		return {
			"name": new_name(),
			"agent_run": self.run,
			"conversation": self.conversation,
			"tool": event.call.name,
			"call_id": event.call.id,
			"tool_args": _json_or_text(event.call.arguments),
			"status": status,
			"turn": event.turn,
			**(event.origin or {}),  # e.g. is_mcp_tool, mcp_server, mcp_tool of an MCP tool
		}

	def _on_tool_result(self, event: ToolResultEvent) -> None:
		row = self.tool_calls[event.call.id]
		row.update(
			status="Rejected" if event.declined else "Success" if event.ok else "Failed",
			tool_result=json.dumps(event.result if event.ok else {"error": event.error}, default=str),
			error_message=event.detail or event.error,  # the full text: for who sees every run (run_detail hides it from others)
			duration_ms=event.duration_ms,
		)
		self.message(
			"tool",
			"Tool Result",
			event.content,
			record_kind="tool_result",
			tool_call=row["name"],
			tool_call_id=event.call.id,
			tool_name=event.call.name,
			tool_status=row["status"],
			context_policy="include_reference" if event.truncated else "include_full",
		)
		self.waiting -= 1
		if self.waiting <= 0:  # the round is done: its rows and its tools' writes, before the next model call
			self.flush(commit=True)
		elif self.effect(event.call) == ONCE:  # it acted: say so before the round's next call
			self.flush(commit=True)

	def _on_error(self, event: ErrorEvent) -> None:
		self.message("agent", "Error", event.message, record_kind="status", context_policy="exclude")
		self.flush()  # committed with the run's final status


# What the recorder does with each event type; other events (deltas, usage, complete) only go to the relays.
HANDLERS: dict[str, Callable[[Recorder, Event], None]] = {
	"assistant": Recorder._on_assistant,
	"tool_call": Recorder._on_tool_call,
	"tool_approval": Recorder._on_tool_approval,
	"tool_result": Recorder._on_tool_result,
	"error": Recorder._on_error,
}


def _json_or_text(arguments: str) -> dict:
	try:
		value = json.loads(arguments or "{}")
	except ValueError:
		value = None
	return value if isinstance(value, dict) else {"unparsed_arguments": arguments}


def recorded_tool_result(call_id: str) -> str | None:
	"""The stored result of a tool call, to repair a history whose tool message went missing."""
	done = ["in", ["Success", "Failed", "Rejected"]]
	value = frappe.db.get_value("Agent Tool Call", {"call_id": call_id, "status": done}, "tool_result")
	return value if value is None or isinstance(value, str) else json.dumps(value, default=str)
