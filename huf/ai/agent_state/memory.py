"""Conversation memory on the site: ``Agent Conversation.conversation_data``, the three tools an
agent with Allow Conversation Data Management gets, and the chat's memory panel (owner only).

Each write is ONE statement: MariaDB's JSON_SET (or JSON_REMOVE) on the stored object, guarded by
the conversation's size limit in the same WHERE, so runs writing different keys at once never lose
each other's updates (no read-modify-write of the whole object). Limits live on Agent Settings.
"""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.engine import memory
from huf.ai.engine.tools import Tool
from huf.ai.tools.context import RunContext
from huf.capabilities import needs

STORE = "COALESCE(NULLIF(conversation_data, ''), '{}')"
PATH = "CONCAT('$.', JSON_QUOTE(%(key)s))"


def limits() -> tuple[int, int]:
	"""(bytes per value, bytes per conversation) from Agent Settings, else the defaults."""
	settings = frappe.get_cached_doc("Agent Settings")
	return (
		cint(settings.get("conversation_data_max_value_bytes")) or memory.DEFAULT_MAX_VALUE_BYTES,
		cint(settings.get("conversation_data_max_bytes")) or memory.DEFAULT_MAX_TOTAL_BYTES,
	)


def read(conversation: str) -> dict:
	raw = frappe.db.get_value("Agent Conversation", conversation, "conversation_data")
	if not raw:
		return {}
	return json.loads(raw) if isinstance(raw, str) else raw


def write(conversation: str, key: str, value, inject: bool = True) -> None:
	"""Set ``key`` (or clear it when ``value`` is None) in one statement; MemoryProblem when refused."""
	memory.check_key(key)
	per_value, total = limits()
	if value is None:
		frappe.db.sql(
			f"update `tabAgent Conversation` set conversation_data = JSON_REMOVE({STORE}, {PATH}) where name = %(name)s",
			{"key": key, "name": conversation},
		)
		return
	memory.encode_value(value, per_value)
	stored = json.dumps(memory.entry(value, inject, str(now_datetime())), ensure_ascii=False)
	new = f"JSON_SET({STORE}, {PATH}, JSON_EXTRACT(%(entry)s, '$'))"
	frappe.db.sql(
		f"update `tabAgent Conversation` set conversation_data = {new} where name = %(name)s and LENGTH({new}) <= %(total)s",
		{"key": key, "entry": stored, "name": conversation, "total": total},
	)
	if not frappe.db._cursor.rowcount:
		if not frappe.db.exists("Agent Conversation", conversation):
			raise memory.MemoryProblem(_("The conversation {0} was not found.").format(conversation))
		raise memory.MemoryProblem(
			_("This conversation's memory is full ({0} bytes). Clear keys you no longer need (set them to null).").format(total)
		)


def memory_tools(agent, ctx: RunContext) -> list[Tool]:
	"""get/set/load_conversation_data for an agent with Allow Conversation Data Management: they
	read and write only the run's own conversation."""
	if not agent.get("enable_conversation_data"):
		return []
	return memory.tools(lambda: read(ctx.conversation), lambda key, value, inject: write(ctx.conversation, key, value, inject))


def prompt_block(agent, conversation: str) -> str:
	"""The system prompt's memory section for an agent that injects it ("" otherwise: no read)."""
	if not (agent.get("enable_conversation_data") and agent.get("inject_conversation_data")):
		return ""
	return memory.prompt_block(read(conversation))


# --- the chat's memory panel: the conversation's owner only -------------------------------------


def _own(conversation: str) -> None:
	owner = frappe.db.get_value("Agent Conversation", conversation, "user")
	if not owner or owner != frappe.session.user:
		frappe.throw(_("There is no conversation {0} of yours.").format(conversation), frappe.DoesNotExistError)


@frappe.whitelist(methods=["GET"])
@needs("run.read")
def get_conversation_memory(conversation: str) -> list[dict]:
	"""What the agent remembers in one of your conversations: key, value, shown to the agent or not, when."""
	_own(conversation)
	return _listing(conversation)


def _listing(conversation: str) -> list[dict]:
	store = read(conversation)
	return [
		{"key": key, "value": item.get("value"), "inject": item.get("inject", True), "updated_at": item.get("updated_at")}
		if isinstance(item, dict) and "value" in item
		else {"key": key, "value": item, "inject": True, "updated_at": None}
		for key, item in sorted(store.items())
	]


@frappe.whitelist(methods=["POST"])
@needs("run.read")
def set_conversation_memory(conversation: str, key: str, value: str | None = None) -> list[dict]:
	"""Change one value (``value`` is JSON text; empty or null clears the key)."""
	_own(conversation)
	try:
		parsed = json.loads(value) if value not in (None, "") else None
	except json.JSONDecodeError as error:
		frappe.throw(_("The value must be JSON, e.g. \"text in quotes\", 42, true or {{\"a\": 1}}: {0}").format(error), title=_("Not JSON"))
	try:
		write(conversation, key, parsed)
	except memory.MemoryProblem as problem:
		frappe.throw(str(problem), title=_("Not saved"))
	frappe.db.commit()
	return _listing(conversation)
