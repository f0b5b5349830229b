"""Conversations: one per session (agent + channel + user or external id), and their history as
OpenAI messages."""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.engine.attachments import with_attachments
from huf.ai.rows import insert_row

ROLE_TO_OPENAI = {"user": "user", "agent": "assistant", "tool": "tool", "system": "system"}


def session_id(agent: str, channel: str, who: str) -> str:
	return f"{agent}:{channel}:{who}"


def resolve_conversation(
	agent: str, user: str, conversation_id: str | None, channel_id: str | None, external_id: str | None, persist: bool
) -> str:
	"""The conversation a new run belongs to, created when needed.

	An explicit ``conversation_id`` must be the caller's own (nobody posts into another person's
	conversation, managers included) and of the same agent. Guests, and agents that do not persist
	conversations, get a fresh conversation per run unless they pass its id back.
	"""
	if conversation_id:
		row = frappe.db.get_value("Agent Conversation", conversation_id, ["agent", "user"], as_dict=True)
		if not row:
			frappe.throw(_("Conversation {0} was not found.").format(conversation_id), frappe.DoesNotExistError)
		if row.agent != agent:
			frappe.throw(_("Conversation {0} belongs to another agent.").format(conversation_id))
		if row.user != user:
			frappe.throw(_("This conversation belongs to someone else."), frappe.PermissionError)
		return conversation_id
	channel = channel_id or "api"
	if user == "Guest" or not persist:
		return new_conversation_for(agent, user, channel, external_id)
	session = session_id(agent, channel, external_id or user)
	existing = frappe.db.get_value("Agent Conversation", {"session_id": session, "is_active": 1}, "name")
	if existing:
		return existing
	try:
		return _create(agent, user, channel, external_id, session)
	except frappe.DuplicateEntryError:
		return frappe.db.get_value("Agent Conversation", {"session_id": session}, "name")


def new_conversation_for(agent: str, user: str, channel: str, external_id: str | None = None) -> str:
	"""A fresh conversation, never reused by session (its session id is random)."""
	return _create(agent, user, channel, external_id, session=None)


def _create(agent: str, user: str, channel: str, external_id: str | None, session: str | None) -> str:
	return insert_row(
		"Agent Conversation",
		{
			"agent": agent,
			"user": user,
			"channel": channel,
			"external_id": external_id,
			"session_id": session or frappe.generate_hash(length=20),
			"title": _("New conversation"),
			"is_active": 1,
			"total_messages": 0,
			"last_message_sequence": 0,
			"last_run_sequence": 0,
		},
	)


def load_history(conversation: str, after_sequence: int = 0, limit: int | None = None) -> list[tuple[int, dict]]:
	"""(sequence, OpenAI message) pairs in order; ``limit`` takes the newest ones only."""
	rows = frappe.db.sql(
		f"""select sequence, role, kind, content, tool_call_id, tool_calls, raw_payload
		from `tabAgent Message`
		where conversation = %(conversation)s and sequence > %(after)s and context_policy != 'exclude'
		order by sequence desc {"limit %(limit)s" if limit else ""}""",
		{"conversation": conversation, "after": after_sequence, "limit": limit},
		as_dict=True,
	)
	return [(row.sequence, to_openai(row)) for row in reversed(rows)]


def to_openai(row) -> dict:
	message = {"role": ROLE_TO_OPENAI.get(row.role, "user"), "content": row.content or ""}
	if row.role == "user" and row.get("raw_payload"):  # files attached to it are read again with it
		message["content"] = with_attachments(message["content"], json.loads(row.raw_payload).get("attachments") or [])
	if row.role == "tool":
		message["tool_call_id"] = row.tool_call_id
	elif row.role == "agent" and row.tool_calls:
		calls = row.tool_calls if isinstance(row.tool_calls, list) else json.loads(row.tool_calls)
		if calls:
			message["tool_calls"] = calls
	return message
