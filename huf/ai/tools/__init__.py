"""An Agent's tools as engine ``Tool`` objects whose handlers act in Frappe as the run's user."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import frappe
from frappe import _

from huf.ai.engine.tools import Tool, ToolError
from huf.ai.tools import custom, doctype_tools, http, run_agent
from huf.ai.tools.context import RunContext
from huf.ai.tools.effects import tool_effect


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

	def handler(args: dict):
		frappe.flags.huf_tool_context = ctx  # which run a built-in tool works for (ocr_document's model)
		return guarded(lambda: target(args, ctx), writes)

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
	frappe.throw(_("Tools of type {0} are not available yet; remove {1} from the agent.").format(doc.types, frappe.bold(doc.name)))


def guarded(call, writes: bool):
	"""Run a tool call so that a failure leaves nothing half-written and reads as plain words.

	Writes happen inside a savepoint that is rolled back on failure. Frappe's messages (which carry
	HTML and also land in the response's message log) become a clean ToolError. Any other exception is
	logged in full in the Error Log and goes on to the engine, which shows the model only a general
	message."""
	savepoint = f"huf_tool_{frappe.generate_hash(length=8)}" if writes else None
	messages_before = len(frappe.local.message_log)
	if savepoint:
		frappe.db.savepoint(savepoint)
	try:
		result = call()
	except ToolError:
		_undo(savepoint, messages_before)
		raise
	except frappe.PermissionError as error:
		_undo(savepoint, messages_before)
		raise ToolError(_clean(error) or _("You do not have permission to do that.")) from None
	except frappe.DoesNotExistError as error:
		_undo(savepoint, messages_before)
		raise ToolError(_clean(error) or _("That document was not found.")) from None
	except frappe.ValidationError as error:
		_undo(savepoint, messages_before)
		raise ToolError(_clean(error) or type(error).__name__) from None
	except Exception:
		_undo(savepoint, messages_before)
		_log_unexpected()
		raise  # the engine gives the model a general message; the row keeps the full one
	if savepoint:
		frappe.db.release_savepoint(savepoint)
	return result


def _log_unexpected() -> None:
	"""The failure in full, with its traceback, in the Error Log (System Managers read it there)."""
	ctx = frappe.flags.get("huf_tool_context")
	frappe.log_error(title="Huf tool failed", reference_doctype="Agent Run" if ctx else None, reference_name=ctx.run if ctx else None)


def _undo(savepoint: str | None, messages_before: int) -> None:
	if savepoint:
		frappe.db.rollback(save_point=savepoint)
	del frappe.local.message_log[messages_before:]


def _clean(error: Exception) -> str:
	return re.sub(r"<[^>]+>", "", str(error)).strip()
