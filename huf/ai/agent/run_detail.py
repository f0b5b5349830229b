"""One run as the web app's run page shows it: the run, and its timeline of model rounds and tool
calls with their timing. Only the run's owner and whoever sees every run (``run.read.all``) may read it."""

from __future__ import annotations

from datetime import timedelta

import frappe
from frappe.utils import get_datetime

from huf.ai.flow.api import flow_name
from huf.ai.run.resume import ATTENTION, INTERRUPTED
from huf.ai.agent_state.planning import plan_of
from huf.capabilities import needs
from huf.permissions import check_run_access, sees_all_runs

RUN_FIELDS = [
	"name", "agent", "user", "status", "run_kind", "conversation", "channel", "parent_run", "prompt", "response",
	"error_message", "error_kind", "provider", "model", "model_used", "turns", "input_tokens", "output_tokens",
	"cached_tokens", "total_tokens", "total_cost", "started_at", "ended_at", "duration_seconds", "creation", "resumed_count",
	"interrupted_at", "flow_run", "flow_id",
]


@frappe.whitelist()
@needs("run.read")
def get_run_detail(run: str) -> dict:
	"""The run, its child runs and a timeline: each answer the model gave and each tool call, in order;
	for a run in Needs Attention, the call it stopped on."""
	check_run_access(run)
	doc = frappe.db.get_value("Agent Run", run, RUN_FIELDS, as_dict=True)
	doc.flow_name = flow_name(doc.flow_id) if doc.flow_run else None  # a step of a flow's run: the flow's name
	messages = frappe.get_all(
		"Agent Message",
		filters={"agent_run": run, "role": "agent", "kind": ["in", ["Message", "Tool Call"]]},
		fields=["name", "sequence", "kind", "content", "creation"],
		order_by="sequence asc",
		ignore_permissions=True,  # access was checked on the run
	)
	calls = frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": run},
		fields=["name", "tool", "status", "call_id", "turn", "duration_ms", "tool_args", "tool_result", "error_message", "creation"],
		order_by="creation asc",
		ignore_permissions=True,
	)
	if not sees_all_runs():  # the full text of a tool's failure is for run.read.all; the result says what the model read
		for call in calls:
			call.error_message = None
	children = frappe.get_all(
		"Agent Run",
		filters={"parent_run": run},
		fields=["name", "agent", "channel", "status", "total_tokens", "total_cost", "duration_seconds"],
		order_by="creation asc",
		ignore_permissions=True,
	)
	# the call a run in Needs Attention stopped on: the page offers Retry / Skip / End for it
	stopped = [
		{"call_id": c.call_id, "tool": c.tool, "tool_args": c.tool_args} for c in calls if c.status == INTERRUPTED
	] if doc.status == ATTENTION else []  # fmt: skip
	return {"run": doc, "timeline": timeline(doc, messages, calls), "children": children, "needs_attention": stopped, "plan": plan_of(run)}


def timeline(run: dict, messages: list[dict], calls: list[dict]) -> list[dict]:
	"""Model rounds and tool calls in the order they happened. A round lasts from the previous step's
	end (or the run's start) until its answer was recorded; a tool call carries its own duration."""
	steps = [
		{"kind": "model", "at": get_datetime(m.creation), "content": m.content or "", "requested_tools": m.kind == "Tool Call"}
		for m in messages
	] + [
		{
			"kind": "tool", "at": get_datetime(c.creation), "tool": c.tool, "status": c.status, "turn": c.turn, "call_id": c.call_id,
			"duration_ms": c.duration_ms, "arguments": c.tool_args, "result": c.tool_result, "error": c.error_message,
		}
		for c in calls
	]
	steps.sort(key=lambda step: step["at"])
	cursor = get_datetime(run.started_at or run.creation)
	for step in steps:
		if step["kind"] == "model":
			step["duration_ms"] = max(0.0, (step["at"] - cursor).total_seconds() * 1000)
			cursor = step["at"]
		else:
			cursor = max(cursor, step["at"] + timedelta(milliseconds=step["duration_ms"] or 0))
		step["at"] = str(step["at"])
	return steps
