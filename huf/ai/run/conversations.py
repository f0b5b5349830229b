"""Conversations: one per session (agent + channel + the calling user, and within that user an
optional external id), and their history as OpenAI messages.

A session always belongs to the user who calls: an external id is a name inside that caller's own
namespace (an integration speaking for many outside people), never another user's conversation.
Channels Huf uses for its own runs cannot be named by callers."""

from __future__ import annotations

import json
import re

import frappe
from frappe import _

from huf.ai.engine.attachments import with_attachments
from huf.ai.run.rows import insert_row

ROLE_TO_OPENAI = {"user": "user", "agent": "assistant", "tool": "tool", "system": "system"}


# Channels of Huf's own runs: triggers (and webhooks), conversation titles, sub-agents, flows.
INTERNAL_CHANNELS = frozenset({"trigger", "title", "subagent", "flow", "webhook", "schedule", "system"})
CHANNEL = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_EXTERNAL_ID = 140


def session_id(agent: str, channel: str, user: str, external_id: str | None = None) -> str:
	"""The key of the one active conversation of (agent, channel, user[, external id])."""
	key = f"{agent}:{channel}:{user}"
	return f"{key}:ext:{external_id}" if external_id else key


def caller_channel(channel_id: str | None, external_id: str | None) -> tuple[str, str | None]:
	"""The channel and external id a caller of a public endpoint may use, or a clear refusal."""
	channel = (channel_id or "api").strip().lower()
	if not CHANNEL.match(channel):
		frappe.throw(_("Channel must be 1 to 40 lowercase letters, digits, - or _, e.g. chat or my-app."))
	if channel in INTERNAL_CHANNELS:
		frappe.throw(_("The channel {0} is used by Huf itself; pick another name, e.g. api or your app's name.").format(frappe.bold(channel)))
	external_id = (external_id or "").strip() or None
	if external_id and len(external_id) > MAX_EXTERNAL_ID:
		frappe.throw(_("External ID is {0} characters long; the limit is {1}.").format(len(external_id), MAX_EXTERNAL_ID))
	return channel, external_id


def resolve_conversation(
	agent: str, user: str, conversation_id: str | None, channel_id: str | None, external_id: str | None, persist: bool
) -> tuple[str, bool]:
	"""The conversation a new run belongs to, created when needed, and whether it was created here:
	then it has no messages yet and the run being queued is its first (``last_run_sequence`` is
	already 1, so the caller takes no number from the counter).

	An explicit ``conversation_id`` must be the caller's own (nobody posts into another person's
	conversation, managers included) and of the same agent. Otherwise the caller's active
	conversation of that session is reused, never one of another user. Guests, and agents that do
	not persist conversations, get a fresh conversation per run unless they pass its id back.
	"""
	if conversation_id:
		row = frappe.db.get_value("Agent Conversation", conversation_id, ["agent", "user"], as_dict=True)
		if not row:
			frappe.throw(_("Conversation {0} was not found.").format(conversation_id), frappe.DoesNotExistError)
		if row.agent != agent:
			frappe.throw(_("Conversation {0} belongs to another agent.").format(conversation_id))
		if row.user != user:
			frappe.throw(_("This conversation belongs to someone else."), frappe.PermissionError)
		return conversation_id, False
	channel = channel_id or "api"
	if user == "Guest" or not persist:
		return _create(agent, user, channel, external_id, session=None, runs=1), True
	session = session_id(agent, channel, user, external_id)
	existing = _session_conversation(agent, user, session, active_only=True)
	if existing:
		return existing, False
	try:
		return _create(agent, user, channel, external_id, session, runs=1), True
	except frappe.DuplicateEntryError:  # created by a concurrent request of the same caller
		return _session_conversation(agent, user, session), False


def _session_conversation(agent: str, user: str, session: str, active_only: bool = False) -> str | None:
	rows = frappe.db.sql(
		f"""select name from `tabAgent Conversation` where session_id = %s and user = %s and agent = %s
		{"and is_active = 1" if active_only else ""} order by modified desc limit 1""",
		(session, user, agent),
	)
	return rows[0][0] if rows else None


def new_conversation_for(agent: str, user: str, channel: str, external_id: str | None = None) -> str:
	"""A fresh conversation, never reused by session (its session id is random)."""
	return _create(agent, user, channel, external_id, session=None)


def _create(agent: str, user: str, channel: str, external_id: str | None, session: str | None, runs: int = 0) -> str:
	"""``runs``: run numbers already taken (1: the run its caller is queueing)."""
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
			"last_run_sequence": runs,
		},
	)


def load_history(
	conversation: str, after_sequence: int = 0, limit: int | None = None, before_sequence: int = 0
) -> list[tuple[int, dict]]:
	"""(sequence, OpenAI message) pairs in order; ``limit`` takes the newest ones only;
	``before_sequence``: only those before it (a resumed run's history ends before its own messages)."""
	rows = frappe.db.sql(
		f"""select sequence, role, kind, content, tool_call_id, tool_calls, raw_payload
		from `tabAgent Message`
		where conversation = %(conversation)s and sequence > %(after)s and context_policy != 'exclude'
		{"and sequence < %(before)s" if before_sequence else ""}
		order by sequence desc {"limit %(limit)s" if limit else ""}""",
		{"conversation": conversation, "after": after_sequence, "limit": limit, "before": before_sequence},
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
