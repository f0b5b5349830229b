"""Orchestration plans: an agent with planning on writes a plan first, then works it step by step.

Planning is three tools and a paragraph of instructions, so a planned run is an ordinary run: the
same loop, recorder and resume. ``write_plan(steps)`` records the plan; ``complete_step(step,
output)`` records one step's output, only for the first unfinished step and only once;
``get_plan()`` says where the work stands (what a run resumed after its worker died reads). A step
finished before a crash is never done again: its output is recorded, and the run that goes on is
told to go on from the first unfinished step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from huf.ai.engine.effects import REPEATABLE
from huf.ai.engine.tools import Tool, refusing

MAX_STEPS = 50
MAX_INSTRUCTION_CHARS = 2000

INSTRUCTIONS = (
	"Work by plan. First call write_plan with the steps the request needs, each one instruction, in order "
	f"(at most {MAX_STEPS}). Then do the steps one at a time, in order: when a step is done, call complete_step "
	"with its number and what it produced, before starting the next. If you are unsure where the work stands, "
	"call get_plan. When every step is done, give your answer."
)


class PlanProblem(ValueError):
	"""A plan or a step the rules refuse; the message is for the model."""


@dataclass
class Step:
	index: int
	instruction: str
	done: bool = False
	output: str = ""


@dataclass
class Plan:
	steps: list[Step] = field(default_factory=list)

	@property
	def current(self) -> Step | None:
		return next((step for step in self.steps if not step.done), None)

	def view(self) -> dict:
		current = self.current
		return {
			"steps": [{"step": s.index, "instruction": s.instruction, "done": s.done, **({"output": s.output} if s.done else {})} for s in self.steps],
			"next_step": current.index if current else None,
			"status": "Completed" if current is None else "Running",
		}


def check_steps(steps) -> list[str]:
	if not isinstance(steps, list) or not steps:
		raise PlanProblem("A plan needs at least one step.")
	if len(steps) > MAX_STEPS:
		raise PlanProblem(f"A plan can have at most {MAX_STEPS} steps; this one has {len(steps)}. Merge some steps.")
	cleaned = []
	for number, step in enumerate(steps, 1):
		if not isinstance(step, str) or not step.strip():
			raise PlanProblem(f"Step {number} is empty; each step is one instruction in words.")
		if len(step) > MAX_INSTRUCTION_CHARS:
			raise PlanProblem(f"Step {number} is {len(step)} characters; a step can be at most {MAX_INSTRUCTION_CHARS}.")
		cleaned.append(step.strip())
	return cleaned


def check_completion(plan: Plan | None, index) -> Step:
	"""The step ``index`` when it may be completed now; PlanProblem saying what to do otherwise."""
	if plan is None:
		raise PlanProblem("There is no plan yet: call write_plan first.")
	current = plan.current
	if current is None:
		raise PlanProblem("Every step is done already. Give your answer.")
	step = next((s for s in plan.steps if s.index == index), None)
	if step is None:
		raise PlanProblem(f"There is no step {index}; the plan has steps 1 to {len(plan.steps)}.")
	if step.done:
		raise PlanProblem(f"Step {index} is already done and its output is recorded; go on with step {current.index}.")
	if step.index != current.index:
		raise PlanProblem(f"Do step {current.index} first: steps are done in order.")
	return step


@dataclass
class PlanStore:
	"""Where a run's plan lives. ``load()``: the plan or None; ``create(steps)``: the plan's steps are
	these (a new plan, or one replacing a plan with no step done); ``finish(index, output)``: record
	one step's output, False when it was recorded already (a concurrent repeat)."""

	load: Callable[[], Plan | None]
	create: Callable[[list[str]], None]
	finish: Callable[[int, str], bool]


def tools(store: PlanStore) -> list[Tool]:
	def write(args: dict):
		plan = store.load()
		if plan is not None and any(step.done for step in plan.steps):
			raise PlanProblem("A plan is under way already; its finished steps stand. Call get_plan and go on.")
		steps = check_steps(args.get("steps"))
		store.create(steps)  # a plan none of whose steps is done yet may be written again
		return {"planned": len(steps), "next_step": 1, "note": f"Now do step 1: {steps[0]}"}

	def complete(args: dict):
		step = check_completion(store.load(), args.get("step"))
		if not store.finish(step.index, str(args.get("output") or "")):
			raise PlanProblem(f"Step {step.index} is already done and its output is recorded.")
		current = store.load().current
		return {"done": step.index, "next_step": current.index if current else None, "note": f"Now do step {current.index}: {current.instruction}" if current else "Every step is done. Give your answer."}

	def show(_args: dict):
		plan = store.load()
		if plan is None:
			return {"steps": [], "next_step": None, "status": "No plan yet: call write_plan."}
		return plan.view()

	steps_schema = {
		"type": "object",
		"properties": {"steps": {"type": "array", "items": {"type": "string"}, "description": "The steps, in order, each one instruction."}},
		"required": ["steps"],
		"additionalProperties": False,
	}
	complete_schema = {
		"type": "object",
		"properties": {
			"step": {"type": "integer", "minimum": 1, "description": "The step's number (the first unfinished one)."},
			"output": {"type": "string", "description": "What the step produced: facts found, records made, the result."},
		},
		"required": ["step", "output"],
		"additionalProperties": False,
	}
	return [
		Tool("write_plan", "Write the plan: the steps the request needs, in order.", steps_schema, refusing(write, PlanProblem), effect=REPEATABLE),
		Tool("complete_step", "Record that a step is done, with what it produced.", complete_schema, refusing(complete, PlanProblem), effect=REPEATABLE),
		Tool("get_plan", "Where the work stands: every step, done or not, with the outputs so far.", {"type": "object", "properties": {}}, refusing(show, PlanProblem), effect=REPEATABLE),
	]
