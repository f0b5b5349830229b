"""The builder assistant's whitelisted methods. Each checks the capability first (``@needs``), then
the record (the flow the person edits, the agent, the run they read), then the input, and only then
asks the model. None saves anything: the answer is a proposal the web app shows to accept or discard.
Progress goes to the turn's event log (``turns.py``) while the call runs."""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.assistant import agent as builder, site_tools, turns
from huf.ai.engine.assistant import prompts, proposal
from huf.ai.flow.access import check_flow_run
from huf.ai.flow.definitions import parsed
from huf.capabilities import needs
from huf.permissions import check_run_access, sees_all_runs

MAX_SHOWN = 600  # characters of a step's input or output the explainer reads


def _request_text(text, what: str) -> str:
	text = (text or "").strip() if isinstance(text, str) else ""
	if not text:
		frappe.throw(_("Write what you want the assistant to {0}.").format(what), title=_("Nothing to do"))
	if len(text) > prompts.MAX_REQUEST_CHARS:
		frappe.throw(
			_("The request is {0:,} characters long; the limit is {1:,}. Shorten it and ask again.").format(
				len(text), prompts.MAX_REQUEST_CHARS
			),
			title=_("Request too long"),
		)
	return text


@frappe.whitelist()
@needs("agent.read")
def assistant_status() -> dict:
	"""Whether the assistant has a model, and whether this person could choose one."""
	return {"ready": bool(builder.assistant_model()), "can_set_up": site_tools.may_set_up()}


@frappe.whitelist(methods=["POST"])
@needs("flow.write")
def propose_flow(flow: str, request: str, canvas=None, turn: str | None = None) -> dict:
	"""A change set for the canvas of ``flow`` (the person's unsaved canvas, else the saved one),
	checked with the builder's checks as the person."""
	if not frappe.db.exists("Flow Definition", flow or ""):
		frappe.throw(_("There is no flow {0}.").format(frappe.bold(flow or "")), frappe.DoesNotExistError)
	doc = frappe.get_doc("Flow Definition", flow)
	doc.check_permission("write")
	ask = _request_text(request, "change in this flow")
	current = parsed(canvas) if canvas not in (None, "") else parsed(doc.definition_json)
	current.setdefault("id", doc.flow_id)

	def check(answer: str) -> proposal.Checked:
		checked = proposal.check_flow(answer, current, site_tools.PersonKnows())
		if checked.result is not None:
			checked.problems += site_tools.refusals(checked.result)
		return checked

	return turns.run(turn, ask, prompts.flow_messages(ask, current, builder.instructions()), site_tools.tools(), check)


@frappe.whitelist(methods=["POST"])
@needs("agent.write")
def draft_agent(description: str, agent: str | None = None, turn: str | None = None) -> dict:
	"""An agent (instructions, a model, tools) drafted from ``description``; with ``agent``, a change to it."""
	current = None
	if agent:
		doc = frappe.get_doc("Agent", agent)
		doc.check_permission("write")
		current = {
			"agent_name": doc.agent_name,
			"instructions": doc.instructions,
			"model": doc.model,
			"tools": [row.tool for row in doc.agent_tool],
		}
	ask = _request_text(description, "draft")
	model_names, tool_names = set(site_tools.models()), {tool["name"] for tool in site_tools.usable_tools()}
	return turns.run(
		turn,
		ask,
		prompts.agent_messages(ask, current, builder.instructions()),
		site_tools.tools(agent_draft=True),
		lambda answer: proposal.check_agent(answer, model_names, tool_names),
	)


def _explain(what: str, record: dict, steps: dict[str, str], turn: str | None) -> dict:
	"""``what``: the run in words (the turn's prompt); ``steps``: each step's id and the name the person knows it by."""
	def check(answer: str) -> proposal.Checked:
		found, unreadable = proposal.read_json(answer)
		if found is None:
			return proposal.Checked([unreadable])
		problems = [] if str(found.get("what_went_wrong") or "").strip() else ['"what_went_wrong" is empty.']
		if found.get("step") not in (None, "", *steps):
			problems.append(
				f"The step {found.get('step')!r} is not one of this run's steps: {', '.join(sorted(steps)) or 'none'}."
			)
		result = {key: found.get(key) for key in ("what_went_wrong", "what_to_change", "step")}
		return proposal.Checked(problems, found, {**result, "step_label": steps.get(found.get("step") or "")})

	return turns.run(turn, what, prompts.explain_messages(record, builder.instructions()), [], check)


def _cut(value) -> str:
	text = value if isinstance(value, str) else json.dumps(value, default=str)
	return (text or "")[:MAX_SHOWN]


@frappe.whitelist(methods=["POST"])
@needs("flow.read")
def explain_flow_run(flow_run: str, turn: str | None = None) -> dict:
	"""What went wrong in a flow run the person may see, and which step to change."""
	doc = check_flow_run(flow_run)
	steps = [
		{
			"step": row.node_id,
			"name": row.node_label,
			"type": row.node_type,
			"status": row.status,
			"input": _cut(row.input),
			"output": _cut(row.output),
			"error": row.error,
		}
		for row in sorted(doc.steps, key=lambda row: row.hop or 0)
	]
	record = {
		"flow": doc.flow_id,
		"status": doc.status,
		"error": doc.last_error,
		"trigger": _cut(doc.trigger_payload),
		"steps": steps,
	}
	return _explain(f"Explain the flow run {doc.name} of {doc.flow_id}.", record, {row.node_id: row.node_label or row.node_id for row in doc.steps}, turn)


@frappe.whitelist(methods=["POST"])
@needs("run.read")
def explain_run(run: str, turn: str | None = None) -> dict:
	"""What went wrong in an agent run of the person's own (or any, with run.read.all)."""
	row = check_run_access(run)
	calls = frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": run},
		fields=["call_id", "tool", "status", "tool_args", "tool_result", "error_message"],
		order_by="creation asc",
		limit=50,
	)
	full_errors = sees_all_runs()  # as the run page: a tool's failure text is for run.read.all, the result is what the model read
	steps = [
		{
			"step": call.call_id,
			"tool": call.tool,
			"status": call.status,
			"input": _cut(call.tool_args),
			"output": _cut(call.tool_result),
			"error": call.error_message if full_errors else None,
		}
		for call in calls
	]
	agent_run = frappe.db.get_value("Agent Run", run, ["agent", "prompt"], as_dict=True)
	record = {
		"agent": agent_run.agent,
		"status": row.status,
		"prompt": _cut(agent_run.prompt),
		"error": row.error_message,
		"error_kind": row.error_kind,
		"steps": steps,
	}
	return _explain(f"Explain the agent run {run} of {agent_run.agent}.", record, {call.call_id: f"the call to {call.tool}" for call in calls if call.call_id}, turn)
