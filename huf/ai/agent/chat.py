"""Chat APIs for agents that allow chat: send a message (queue-first, like run_agent_sync) and read a
conversation's messages page by page. Only the conversation's owner reads or posts."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import cint, sbool

from huf.ai.run import run_setup, runs
from huf.ai.agent.feedback import ratings_of
from huf.ai.media.attachments import shown
from huf.ai.run.conversations import new_conversation_for
from huf.ai.run.lifecycle import HELD
from huf.ai.run.resume import ATTENTION, INTERRUPTED
from huf.capabilities import needs
from huf.permissions import runnable_agents, sees_all_runs

PAGE_MAX = 200


def _chat_agent(agent_name: str):
	agent = run_setup.load_agent(agent_name)
	if not agent.allow_chat:
		frappe.throw(_("The agent {0} is not open for chat. Tick Allow Chat on the agent to chat with it.").format(frappe.bold(agent.name)))
	return agent


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def send_agent_chat_message(
	agent_name: str,
	message: str,
	conversation_id: str | None = None,
	new_conversation: bool | int | str = False,
	attachments: list[str] | str | None = None,
) -> dict:
	"""Queue the user's message as a run; the answer streams on /huf/stream/run/<run>.

	Without ``conversation_id`` it goes to the user's current chat with the agent, or to a new one
	when ``new_conversation`` is set (a refusal rolls the request back, the new conversation with it).
	``attachments``: names of Files the caller uploaded, when the agent takes files."""
	agent = _chat_agent(agent_name)
	if not conversation_id and sbool(new_conversation) and frappe.session.user != "Guest":
		conversation_id = new_conversation_for(agent.name, frappe.session.user, "chat")
	return runs.queue_run(agent_name, message, conversation_id=conversation_id, channel_id="chat", attachments=attachments)


@frappe.whitelist()
@needs("agent.run")
def get_chat_agents() -> list[dict]:
	"""The agents open for chat that the caller may use; ``conversation_memory`` says whether the chat
	shows the memory panel (the agent has Allow Conversation Data Management)."""
	agents = runnable_agents(chat_only=True)
	for agent in agents:
		agent["conversation_memory"] = cint(frappe.get_cached_doc("Agent", agent["name"]).get("enable_conversation_data"))
	return agents


@frappe.whitelist()
@needs("run.read")
def get_chat_conversations(agent_name: str, limit: int = 50) -> list[dict]:
	"""The caller's own chats with one agent, newest first."""
	_chat_agent(agent_name)
	return frappe.get_all(
		"Agent Conversation",
		filters={"agent": agent_name, "user": frappe.session.user, "channel": "chat"},
		fields=["name", "title", "creation", "total_messages"],
		order_by="creation desc",
		limit=max(1, min(cint(limit) or 50, PAGE_MAX)),
		ignore_permissions=True,  # filtered to the caller's own rows
	)


@frappe.whitelist()
@needs("run.read")
def get_agent_chat_messages(conversation_id: str, before_sequence: int | None = None, limit: int = 50) -> dict:
	"""Messages of one of the caller's conversations, newest page first (``before_sequence`` pages back)."""
	row = frappe.db.get_value("Agent Conversation", conversation_id, ["agent", "user", "title"], as_dict=True)
	if not row:
		frappe.throw(_("Conversation {0} was not found.").format(conversation_id), frappe.DoesNotExistError)
	if frappe.session.user == "Guest" or (row.user != frappe.session.user and not sees_all_runs()):
		frappe.throw(_("This conversation belongs to someone else."), frappe.PermissionError)
	_chat_agent(row.agent)
	limit = max(1, min(cint(limit) or 50, PAGE_MAX))
	filters = {"conversation": conversation_id, "kind": ["in", ["Message", "Error", "Tool Call", "Tool Result"]]}
	if before_sequence:
		filters["sequence"] = ["<", cint(before_sequence)]
	messages = frappe.get_all(
		"Agent Message",
		filters=filters,
		fields=[
			"name", "sequence", "role", "kind", "content", "tool_name", "tool_call_id", "tool_calls", "tool_status", "agent_run", "creation",
			"raw_payload",
		],
		order_by="sequence desc",
		limit=limit + 1,
		ignore_permissions=True,  # ownership was checked above, on the conversation
	)
	has_more = len(messages) > limit
	messages = list(reversed(messages[:limit]))
	ratings = ratings_of(frappe.session.user, [m.name for m in messages if m.role == "agent"])
	for message in messages:
		message["feedback"] = ratings.get(message.name)
		message["attachments"] = shown(message.pop("raw_payload")) if message.role == "user" else []
	run_names = list({m.agent_run for m in messages if m.agent_run})
	usage = frappe.get_all(
		"Agent Run",
		filters={"name": ["in", run_names]},
		fields=[
			"name", "status", "response", "error_message", "input_tokens", "output_tokens", "total_tokens", "total_cost", "duration_seconds",
			"resumed_count",
		],
		ignore_permissions=True,  # the conversation's runs; ownership was checked above
	) if run_names else []
	active = frappe.db.get_value(
		"Agent Run",
		{"conversation": conversation_id, "status": ["in", ["Queued", "Started", *HELD]], "parent_run": ["is", "not set"]},
		["name", "status"],
		as_dict=True,
		order_by="sequence asc",  # a paused run comes before the runs it holds
	)
	return {
		"conversation": conversation_id,
		"agent": row.agent,
		"title": row.title,
		"mine": row.user == frappe.session.user,  # a manager may read others' chats; only the owner's memory is shown
		"messages": messages,
		"has_more": has_more,
		# the reply text of a run is in its messages; only a stopped or failed one may have none
		"runs": {row.name: {**row, "response": None if row.status == "Success" else row.response} for row in usage},
		"active_run": active.name if active else None,
		# the calls a paused run waits on: the chat shows Approve / Reject for each again after a reload
		"awaiting_approval": frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": active.name, "status": "Awaiting Approval"},
			fields=["call_id", "tool", "tool_args"],
			ignore_permissions=True,  # the conversation's run; ownership was checked above
		)
		if active and active.status == "Awaiting Approval"
		else [],
		# the call a run stopped on when its worker died: the chat shows Retry / Skip / End for it again
		"needs_attention": frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": active.name, "status": INTERRUPTED},
			fields=["call_id", "tool", "tool_args"],
			ignore_permissions=True,  # the conversation's run; ownership was checked above
		)
		if active and active.status == ATTENTION
		else [],
	}
