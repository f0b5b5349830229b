"""Planned runs on the site: an agent with Plan Before Working gets engine/planning.py's tools and
instructions, and its plan lives in one Agent Orchestration per run (``parent_run``) with a row per
step. Finishing a step is one UPDATE that only a Pending row matches, so a step's output is
recorded once even when a resumed run repeats the call. The plan follows its run's owner.
"""

from __future__ import annotations

import frappe
from frappe.utils import now_datetime

from huf.ai.engine import planning
from huf.ai.engine.tools import Tool
from huf.ai.tools.context import RunContext

DOCTYPE, STEP = "Agent Orchestration", "Agent Orchestration Plan"
STEP_FIELD = "agent_orchestration_plan"


def instructions(agent) -> str:
	return planning.INSTRUCTIONS if agent.get("enable_planning") else ""


def planning_tools(agent, ctx: RunContext) -> list[Tool]:
	if not agent.get("enable_planning"):
		return []
	return planning.tools(store(ctx))


def store(ctx: RunContext) -> planning.PlanStore:
	def load() -> planning.Plan | None:
		name = frappe.db.get_value(DOCTYPE, {"parent_run": ctx.run})
		if not name:
			return None
		rows = frappe.get_all(STEP, filters={"parent": name, "parenttype": DOCTYPE}, fields=["step_index", "instruction", "status", "output_ref"], order_by="step_index asc")
		return planning.Plan([planning.Step(r.step_index, r.instruction, r.status == "Done", r.output_ref or "") for r in rows])

	def create(steps: list[str]) -> None:
		name = frappe.db.get_value(DOCTYPE, {"parent_run": ctx.run})
		doc = frappe.get_doc(DOCTYPE, name) if name else frappe.new_doc(DOCTYPE)
		doc.update({"agent": ctx.agent, "parent_run": ctx.run, "conversation": ctx.conversation, "status": "Running", "current_step": 1, "last_run_at": now_datetime()})
		doc.set(STEP_FIELD, [{"step_index": i, "instruction": step, "status": "Pending"} for i, step in enumerate(steps, 1)])
		doc.save(ignore_permissions=True)

	def finish(index: int, output: str) -> bool:
		name = frappe.db.get_value(DOCTYPE, {"parent_run": ctx.run})
		frappe.db.sql(
			f"update `tab{STEP}` set status = 'Done', output_ref = %s where parent = %s and parenttype = %s and step_index = %s and status = 'Pending'",
			(output, name, DOCTYPE, index),
		)
		if not frappe.db._cursor.rowcount:
			return False
		left = frappe.db.sql(f"select min(step_index) from `tab{STEP}` where parent = %s and parenttype = %s and status = 'Pending'", (name, DOCTYPE))[0][0]
		frappe.db.set_value(DOCTYPE, name, {"current_step": left or 0, "status": "Running" if left else "Completed", "last_run_at": now_datetime()}, update_modified=False)
		return True

	return planning.PlanStore(load, create, finish)


def plan_of(run: str) -> dict | None:
	"""The run page's view of a run's plan (the caller has checked the run is theirs to see)."""
	name = frappe.db.get_value(DOCTYPE, {"parent_run": run})
	if not name:
		return None
	doc = frappe.get_doc(DOCTYPE, name)
	return {
		"status": doc.status,
		"current_step": doc.current_step,
		"steps": [{"step": row.step_index, "instruction": row.instruction, "status": row.status, "output": row.output_ref or ""} for row in doc.get(STEP_FIELD)],
	}

