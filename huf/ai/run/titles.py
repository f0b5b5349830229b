"""Conversation titles named by the model, for agents with "Autonaming of Conversation Title".

After a conversation's first successful run, a background job asks the agent's model for a short
title from the first question and answer. The call is recorded as its own Agent Run (channel
"title", run_kind "title", parent_run = the run it names; ``huf.ai.run.lifecycle``), so its tokens and
cost show like any other, though it does not count as one of the agent's runs. The title is
only written while the conversation still has its default one: a title a person typed is kept."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai import models
from huf.ai.run import lifecycle
from huf.ai.run.cost import cost_function
from huf.ai.engine import llm
from huf.ai.engine.events import ErrorEvent
from huf.ai.engine.llm_errors import LLMError
from huf.ai.engine.loop import LoopResult

MAX_TITLE_CHARS = 80
EXCERPT_CHARS = 1500
INSTRUCTION = (
	"Write a title of at most six words for the conversation below. Use the language of the user's message. "
	"Answer with the title only: no quotes, no punctuation at the end."
)


def default_titles() -> set[str]:
	return {"", "New conversation", _("New conversation")}


def after_run(run) -> None:
	"""Queue the naming job when ``run`` succeeded in a conversation that still has its default title."""
	agent = frappe.get_cached_doc("Agent", run.agent)
	if not agent.autonaming_of_conversation_title or not run.conversation:
		return
	if (frappe.db.get_value("Agent Conversation", run.conversation, "title") or "") not in default_titles():
		return
	frappe.enqueue(
		"huf.ai.run.titles.name_conversation",
		queue="short",
		conversation=run.conversation,
		run=run.name,
		enqueue_after_commit=True,
	)
	frappe.db.commit()


def name_conversation(conversation: str, run: str) -> str | None:
	"""RQ job: ask the model for a title and set it; returns the title (None when nothing was set)."""
	source = frappe.db.get_value("Agent Run", run, ["agent", "user", "prompt", "response"], as_dict=True)
	if not source or (frappe.db.get_value("Agent Conversation", conversation, "title") or "") not in default_titles():
		return None
	agent = frappe.get_cached_doc("Agent", source.agent)
	excerpt = f"User: {source.prompt[:EXCERPT_CHARS]}\n\nAssistant: {(source.response or '')[:EXCERPT_CHARS]}"
	request = llm.LLMRequest(
		model=models.model_spec(agent.model),
		messages=[{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": excerpt}],
		max_tokens=30,
		max_retries=1,
	)
	title_run = lifecycle.create(
		"title", agent, source.user, excerpt, conversation, status="Started", channel="title", parent_run=run, depth=1
	)
	frappe.db.commit()
	try:
		turn = llm.stream_turn(request)
	except LLMError as error:
		lifecycle.fail(title_run, error.message, error.kind)
		return None
	title = clean_title(turn.content)
	result = LoopResult(
		status="success" if title else "failed",
		response=turn.content,
		usage=turn.usage,
		cost=cost_function(agent.model)(turn.model, turn.usage),
		turns=1,
		model=turn.model,
		error=None if title else ErrorEvent(kind="no_title", message=_("The model gave no title.")),
	)
	lifecycle.finish(title_run, result)
	if not title:
		return None
	placeholders = tuple(default_titles())
	frappe.db.sql(
		f"""update `tabAgent Conversation` set title = %s
		where name = %s and ifnull(title, '') in ({", ".join(["%s"] * len(placeholders))})""",
		(title, conversation, *placeholders),
	)
	frappe.db.commit()
	if source.user != "Guest":
		frappe.publish_realtime("agent_conversation_title", {"conversation": conversation, "title": title}, user=source.user)
	return title


def clean_title(text: str) -> str:
	"""The first line, without quotes, a "Title:" label or a trailing full stop, at most MAX_TITLE_CHARS."""
	line = next((part.strip() for part in (text or "").splitlines() if part.strip()), "")
	if line.lower().startswith("title:"):
		line = line[6:].strip()
	line = line.strip("\"'“”‘’*# ").rstrip(".").strip()
	return line[:MAX_TITLE_CHARS].rstrip()

