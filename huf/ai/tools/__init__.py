"""An Agent's tools as engine ``Tool`` objects whose handlers act in Frappe as the run's user."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

import frappe
from frappe import _

from huf.ai.engine.tools import Tool, ToolError
from huf.ai.tools import custom, doctype_tools, http, run_agent
from huf.ai.tools.context import RunContext
from huf.ai.tools.effects import tool_effect

MAX_REASON = 600  # characters of Frappe's words a failed call passes on


def load_agent_tools(agent, ctx: RunContext) -> list[Tool]:
	"""One Tool per row of the agent's tool table (cached documents: no SQL when warm)."""
	return [build_tool(frappe.get_cached_doc("Agent Tool Function", row.tool), ctx) for row in agent.agent_tool]


def build_tool(doc, ctx: RunContext) -> Tool:
	definition = json.loads(doc.function_definition) if isinstance(doc.function_definition, str) else doc.function_definition
	if not definition:
		frappe.throw(_("The tool {0} has no function definition. Open it and save it again.").format(frappe.bold(doc.name)))
	# Run Agent is not rolled back: its sub-run is a run of its own, recorded (and committed) as it goes
	writes = doc.types not in doctype_tools.READ_ONLY and doc.types != "Run Agent"
	target = _target(doc)
	action = doctype_tools.action(doc.types, doc.reference_doctype)

	def handler(args: dict):
		outer = frappe.flags.get("huf_tool_context")  # a sub-agent's tools run inside its caller's Run Agent call
		frappe.flags.huf_tool_context = ctx  # which run a built-in tool works for (ocr_document's model, send_message's agent)
		try:
			return guarded(lambda: target(args, ctx), writes, action)
		finally:
			frappe.flags.huf_tool_context = outer

	description = definition.get("description") or doc.description
	return Tool(
		doc.tool_name, description, definition["parameters"], handler,
		requires_approval=bool(doc.get("requires_approval")), effect=tool_effect(doc),
	)  # fmt: skip


def _target(doc) -> Callable[[dict, RunContext], object]:
	"""What a call of the tool does with its arguments and the context of the call in progress."""
	if doc.types in doctype_tools.HANDLERS:
		handle = doctype_tools.HANDLERS[doc.types]
		return lambda args, _ctx: handle(doc.reference_doctype, args)
	if doc.types in ("Custom Function", "App Provided"):
		app = (doc.provider_app or "") if doc.types == "App Provided" else None
		return lambda args, _ctx: custom.call_function(doc.function_path, args, bool(doc.pass_parameters_as_json), app)
	if doc.types == "Run Agent":
		return lambda args, ctx: run_agent.run_agent(doc.agent, args, ctx)
	if doc.types in ("GET", "POST"):
		return lambda args, ctx: http.call(doc, args, ctx)
	if doc.types == "Speech to Text":
		from huf.ai.media.speech_to_text import transcribe_file

		return lambda args, _ctx: transcribe_file(**args)
	frappe.throw(_("Tools of type {0} are not available yet; remove {1} from the agent.").format(doc.types, frappe.bold(doc.name)))


def guarded(call, writes: bool, action: str | None = None):
	"""Run a tool call so that a failure leaves nothing half-written and reads as plain words.

	Writes happen inside a savepoint that is rolled back on failure (and ends with the transaction). Frappe's messages (which carry
	HTML and also land in the response's message log) become a clean ToolError: the exception's own
	text or, when it has none (Frappe's PermissionError usually has none), the last message Frappe
	logged since the call began (or the error message it set), so the model reads Frappe's reason. ``action`` (e.g. "create ToDo") is
	what a permission error says was refused. Any other exception is logged in full in the Error Log
	and goes on to the engine, which shows the model only a general message."""
	savepoint = f"huf_tool_{frappe.generate_hash(length=8)}" if writes else None
	mark = _Mark()
	if savepoint:
		frappe.db.savepoint(savepoint)
	try:
		result = call()
	except ToolError:
		_undo(savepoint, mark)
		raise
	except frappe.PermissionError as error:
		reason = mark.reason(error)
		_undo(savepoint, mark)
		refused = _("You do not have permission to {0}").format(action or _("do that"))
		raise ToolError(f"{refused}: {reason}" if reason else f"{refused}.") from None
	except frappe.DoesNotExistError as error:
		reason = mark.reason(error)
		_undo(savepoint, mark)
		raise ToolError(reason or _("That document was not found.")) from None
	except frappe.ValidationError as error:
		reason = mark.reason(error)
		_undo(savepoint, mark)
		raise ToolError(reason or type(error).__name__) from None
	except Exception:
		_undo(savepoint, mark)
		_log_unexpected()
		raise  # the engine gives the model a general message; the row keeps the full one
	return result  # the savepoint is not released: the round's commit ends it (one statement less per call)


class _Mark:
	"""Frappe's message log and error flag as they were when a tool call began. A failed permission
	check can leave ``frappe.local.message_log`` replaced by a new list (``check_doctype_permission``),
	so the list itself is kept, not only its length."""

	def __init__(self):
		self.log = frappe.local.message_log
		self.length = len(self.log)
		self.error_message = frappe.flags.get("error_message")

	def last_logged(self) -> str:
		"""The last message Frappe logged since, as plain text: its final word before raising (a
		failed permission check logs the document's check first, then the DocType's)."""
		entries = list(self.log[self.length :])
		if frappe.local.message_log is not self.log:
			entries += frappe.local.message_log
		for entry in reversed(entries):
			message = entry.get("message") if isinstance(entry, dict) else entry
			if isinstance(message, list | tuple):
				message = " ".join(str(part) for part in message)
			text = _clean(message or "")
			if text:
				return text
		return ""

	def reason(self, error: Exception) -> str:
		"""Frappe's words for ``error``: its own text, else the last message logged since, else the
		error message Frappe set since (``frappe.flags.error_message``, e.g. "No permission for ToDo")."""
		flagged = frappe.flags.get("error_message")
		flagged = flagged if flagged != self.error_message else None
		reason = _clean(error) or self.last_logged() or _clean(flagged or "")
		return reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 1] + "…"

	def restore(self) -> None:
		del self.log[self.length :]
		frappe.local.message_log = self.log
		frappe.flags.error_message = self.error_message


def _log_unexpected() -> None:
	"""The failure in full, with its traceback, in the Error Log (System Managers read it there)."""
	ctx = frappe.flags.get("huf_tool_context")
	frappe.log_error(title="Huf tool failed", reference_doctype="Agent Run" if ctx else None, reference_name=ctx.run if ctx else None)


def _undo(savepoint: str | None, mark: _Mark) -> None:
	if savepoint:
		frappe.db.rollback(save_point=savepoint)
	mark.restore()


def _clean(message) -> str:
	"""Frappe's HTML message as one line of text (line breaks between its parts kept as "; ")."""
	text = re.sub(r"(?i)<br\s*/?>", "; ", str(message))
	text = html.unescape(re.sub(r"<[^>]+>", "", text))
	return re.sub(r"\s+", " ", text).strip(" ;")
