"""Thumbs up or down on an agent's reply, with an optional comment. One rating per person and
reply: rating again changes it. Only the owner of the conversation rates its replies."""

from __future__ import annotations

import frappe
from frappe import _

from huf.capabilities import needs

RATINGS = ("Thumbs Up", "Thumbs Down")
MAX_COMMENT_CHARS = 2000


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def rate_agent_message(agent_message: str, feedback: str, comments: str | None = None) -> dict:
	"""Record (or change) the caller's rating of one agent reply; returns the saved rating."""
	user = frappe.session.user
	message = frappe.db.get_value("Agent Message", agent_message or "", ["conversation", "role"], as_dict=True)
	if not message:
		frappe.throw(_("The reply you rated was not found. Reload the conversation and try again."), frappe.DoesNotExistError)
	if user == "Guest" or frappe.db.get_value("Agent Conversation", message.conversation, "user") != user:
		frappe.throw(_("You can only rate replies in your own conversations."), frappe.PermissionError)
	if feedback not in RATINGS:
		frappe.throw(_("A rating is {0} or {1}.").format(*RATINGS))
	if comments and len(comments) > MAX_COMMENT_CHARS:
		frappe.throw(_("The comment is {0} characters long; keep it under {1}.").format(len(comments), MAX_COMMENT_CHARS))
	existing = frappe.db.get_value("Agent Run Feedback", {"agent_message": agent_message, "owner": user}, "name")
	doc = frappe.get_doc("Agent Run Feedback", existing) if existing else frappe.new_doc("Agent Run Feedback")
	doc.update({"agent_message": agent_message, "feedback": feedback, "comments": comments or None})
	doc.save(ignore_permissions=True)  # ownership of the conversation was checked above
	return {"name": doc.name, "agent_message": agent_message, "feedback": doc.feedback, "comments": doc.comments}


def ratings_of(user: str, messages: list[str]) -> dict[str, str]:
	"""{agent message: the user's rating} for the messages they rated."""
	if not messages:
		return {}
	rows = frappe.get_all(
		"Agent Run Feedback",
		filters={"agent_message": ["in", messages], "owner": user},
		fields=["agent_message", "feedback"],
		ignore_permissions=True,
	)
	return {row.agent_message: row.feedback for row in rows}
