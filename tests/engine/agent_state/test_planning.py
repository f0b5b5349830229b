"""Orchestration plans as engine code: the plan's rules, a planned run against the scripted model
server, and a run that goes on after a crash without doing a finished step again."""

import json

import pytest

from huf.ai.engine import planning
from huf.ai.engine.events import ToolResultEvent
from huf.ai.engine.llm import LLMRequest, ModelSpec
from huf.ai.engine.loop import run_loop
from huf.ai.engine.tools import Tool
from tests.support.scripted_llm import text, tool_calls


class Kept:
	"""A dict standing in for Agent Orchestration; ``finish`` is once-only as the site's UPDATE is."""

	def __init__(self):
		self.plan: planning.Plan | None = None

	def store(self) -> planning.PlanStore:
		return planning.PlanStore(self.load, self.create, self.finish)

	def load(self):
		return None if self.plan is None else planning.Plan([planning.Step(s.index, s.instruction, s.done, s.output) for s in self.plan.steps])

	def create(self, steps):
		self.plan = planning.Plan([planning.Step(i, step) for i, step in enumerate(steps, 1)])

	def finish(self, index, output):
		step = self.plan.steps[index - 1]
		if step.done:
			return False
		step.done, step.output = True, output
		return True


def request(server) -> LLMRequest:
	spec = ModelSpec(model="scripted-model", provider="OpenAI", api_key="sk-test", api_base=server.base_url)
	system = "You help.\n\n" + planning.INSTRUCTIONS
	return LLMRequest(model=spec, messages=[{"role": "system", "content": system}, {"role": "user", "content": "Count the orders, then mail the total."}])


def call(id_, name, **args):
	return tool_calls([(id_, name, json.dumps(args))])


def results(events):
	return [json.loads(e.content) for e in events if isinstance(e, ToolResultEvent)]


@pytest.mark.parametrize(
	("steps", "says"),
	[([], "at least one step"), (["a"] * 51, "at most 50 steps; this one has 51"), (["ok", " "], "Step 2 is empty"), ("one", "at least one step")],
)
def test_a_plan_is_one_to_50_instructions(steps, says):
	with pytest.raises(planning.PlanProblem, match=says):
		planning.check_steps(steps)


def test_a_planned_run_does_each_step_once_in_order_and_refusals_reach_the_model(llm):
	kept = Kept()
	counted = []
	count = Tool("count_orders", "Count orders", {"type": "object", "properties": {}}, lambda _a: counted.append(1) or {"orders": 42})
	llm.script(
		call("p", "write_plan", steps=["Count the orders", "Mail the total"]),
		call("early", "complete_step", step=2, output="mailed"),
		call("c", "count_orders"),
		call("s1", "complete_step", step=1, output="42 orders"),
		call("again", "complete_step", step=1, output="42 orders"),
		call("s2", "complete_step", step=2, output="mailed 42"),
		call("show", "get_plan"),
		text("There are 42 orders; the total is mailed."),
	)
	events = []
	result = run_loop(request(llm), [count, *planning.tools(kept.store())], events.append)
	assert result.status == "success" and len(counted) == 1
	planned, early, _count, first, again, second, shown = results(events)
	assert planned == {"planned": 2, "next_step": 1, "note": "Now do step 1: Count the orders"}
	assert early == {"error": "Do step 1 first: steps are done in order."}
	assert first["next_step"] == 2 and "Mail the total" in first["note"]
	assert again == {"error": "Step 1 is already done and its output is recorded; go on with step 2."}
	assert second == {"done": 2, "next_step": None, "note": "Every step is done. Give your answer."}
	assert shown["status"] == "Completed" and [s["output"] for s in shown["steps"]] == ["42 orders", "mailed 42"]
	assert planning.INSTRUCTIONS in llm.chat_requests[0]["body"]["messages"][0]["content"]


def test_a_run_going_on_after_a_crash_reads_the_plan_and_starts_at_the_first_unfinished_step(llm):
	kept = Kept()
	kept.create(["Count", "Mail", "Archive"])
	kept.finish(1, "42 orders")  # done before the worker died
	llm.script(
		call("g", "get_plan"),
		call("redo", "complete_step", step=1, output="42 again"),
		call("s2", "complete_step", step=2, output="mailed"),
		call("s3", "complete_step", step=3, output="archived"),
		text("Done."),
	)
	events = []
	run_loop(request(llm), planning.tools(kept.store()), events.append)
	shown, redo, *_rest = results(events)
	assert shown["next_step"] == 2 and shown["steps"][0] == {"step": 1, "instruction": "Count", "done": True, "output": "42 orders"}
	assert "already done" in redo["error"] and kept.plan.steps[0].output == "42 orders"
	assert [s.output for s in kept.plan.steps] == ["42 orders", "mailed", "archived"]


def test_a_plan_under_way_is_not_rewritten_but_one_not_started_may_be():
	kept = Kept()
	write, complete, _show = planning.tools(kept.store())
	write.handler({"steps": ["a", "b"]})
	write.handler({"steps": ["x", "y", "z"]})
	assert [s.instruction for s in kept.plan.steps] == ["x", "y", "z"]
	complete.handler({"step": 1, "output": "done x"})
	with pytest.raises(Exception, match="under way already"):
		write.handler({"steps": ["q"]})
