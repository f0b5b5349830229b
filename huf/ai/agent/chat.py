"""Chat APIs for agents that allow chat: send a message (queue-first, like run_agent_sync) and read a
conversation's messages page by page. Only the conversation's owner reads or posts."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai import agents, runs
from huf.permissions import is_manager

PAGE_MAX = 200


def _chat_agent(agent_name: str):
	agent = agents.load_agent(agent_name)
	if not agent.allow_chat:
		frappe.throw(_("The agent {0} is not open for chat. Tick Allow Chat on the agent to chat with it.").format(frappe.bold(agent.name)))
	return agent


@frappe.whitelist(methods=["POST"])
def send_agent_chat_message(agent_name: str, message: str, conversation_id: str | None = None) -> dict:
	"""Queue the user's message as a run; the answer streams on /huf/stream/run/<run>."""
	_chat_agent(agent_name)
	return runs.queue_run(agent_name, message, conversation_id=conversation_id, channel_id="chat")


@frappe.whitelist()
def get_agent_chat_messages(conversation_id: str, before_sequence: int | None = None, limit: int = 50) -> dict:
	"""Messages of one of the caller's conversations, newest page first (``before_sequence`` pages back)."""
	row = frappe.db.get_value("Agent Conversation", conversation_id, ["agent", "user", "title"], as_dict=True)
	if not row:
		frappe.throw(_("Conversation {0} was not found.").format(conversation_id), frappe.DoesNotExistError)
	if frappe.session.user == "Guest" or (row.user != frappe.session.user and not is_manager()):
		frappe.throw(_("This conversation belongs to someone else."), frappe.PermissionError)
	_chat_agent(row.agent)
	limit = max(1, min(cint(limit) or 50, PAGE_MAX))
	filters = {"conversation": conversation_id, "kind": ["in", ["Message", "Error", "Tool Call", "Tool Result"]]}
	if before_sequence:
		filters["sequence"] = ["<", cint(before_sequence)]
	messages = frappe.get_all(
		"Agent Message",
		filters=filters,
		fields=["name", "sequence", "role", "kind", "content", "tool_name", "tool_call_id", "agent_run", "creation"],
		order_by="sequence desc",
		limit=limit + 1,
		ignore_permissions=True,  # ownership was checked above, on the conversation
	)
	return {
		"conversation": conversation_id,
		"agent": row.agent,
		"title": row.title,
		"messages": list(reversed(messages[:limit])),
		"has_more": len(messages) > limit,
	}
