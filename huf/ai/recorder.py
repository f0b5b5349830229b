"""Persists a run as the loop emits it: messages and tool calls are written (and committed) when
they happen, so a crash loses at most the step in flight and other sessions see progress at once."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import frappe

from huf.ai.engine.events import AssistantEvent, ErrorEvent, Event, ToolCallEvent, ToolResultEvent
from huf.ai.rows import insert_row, next_sequence, update_row


@dataclass
class Recorder:
	run: str
	conversation: str
	agent: str
	user: str
	write_messages: bool = True  # False for sub-agent runs: they must not touch the parent's conversation
	relays: list = field(default_factory=list)  # extra sinks (live streams) that get every event
	tool_call_rows: dict[str, str] = field(default_factory=dict)  # call id -> Agent Tool Call name

	def __call__(self, event: Event) -> None:
		handler = getattr(self, f"_on_{event.type}", None)
		if handler:
			handler(event)
		for relay in self.relays:
			relay(event)

	def message(self, role: str, kind: str, content: str, **extra) -> str | None:
		if not self.write_messages:
			return None
		return insert_row(
			"Agent Message",
			{
				"conversation": self.conversation,
				"sequence": next_sequence(self.conversation, "last_message_sequence"),
				"agent_run": self.run,
				"agent": self.agent,
				"user": self.user,
				"role": role,
				"kind": kind,
				"content": content,
				"record_kind": extra.pop("record_kind", "message"),
				"context_policy": extra.pop("context_policy", "include_full"),
				**extra,
			},
		)

	def _on_assistant(self, event: AssistantEvent) -> None:
		if event.tool_calls:
			self.message(
				"agent",
				"Tool Call",
				event.content,
				record_kind="tool_call",
				tool_calls=json.dumps([call.to_openai() for call in event.tool_calls]),
			)
		else:
			self.message("agent", "Message", event.content)
			frappe.db.commit()

	def _on_tool_call(self, event: ToolCallEvent) -> None:
		self.tool_call_rows[event.call.id] = insert_row(
			"Agent Tool Call",
			{
				"agent_run": self.run,
				"conversation": self.conversation,
				"tool": event.call.name,
				"call_id": event.call.id,
				"tool_args": _json_or_text(event.call.arguments),
				"status": "Started",
				"turn": event.turn,
				**(event.origin or {}),  # e.g. is_mcp_tool, mcp_server, mcp_tool of an MCP tool
			},
		)
		frappe.db.commit()

	def _on_tool_result(self, event: ToolResultEvent) -> None:
		row = self.tool_call_rows.get(event.call.id)
		update_row(
			"Agent Tool Call",
			row,
			{
				"status": "Success" if event.ok else "Failed",
				"tool_result": json.dumps(event.result if event.ok else {"error": event.error}, default=str),
				"error_message": event.detail or event.error,  # the full text: only managers may read this field
				"duration_ms": event.duration_ms,
			},
		)
		self.message(
			"tool",
			"Tool Result",
			event.content,
			record_kind="tool_result",
			tool_call=row,
			tool_call_id=event.call.id,
			tool_name=event.call.name,
			tool_status="Success" if event.ok else "Failed",
			context_policy="include_reference" if event.truncated else "include_full",
		)
		frappe.db.commit()

	def _on_error(self, event: ErrorEvent) -> None:
		self.message("agent", "Error", event.message, record_kind="status", context_policy="exclude")


def _json_or_text(arguments: str):
	try:
		return json.loads(arguments or "{}")
	except ValueError:
		return {"unparsed_arguments": arguments}


def recorded_tool_result(call_id: str) -> str | None:
	"""The stored result of a tool call, to repair a history whose tool message went missing."""
	value = frappe.db.get_value("Agent Tool Call", {"call_id": call_id, "status": ["!=", "Started"]}, "tool_result")
	return value if value is None or isinstance(value, str) else json.dumps(value, default=str)
