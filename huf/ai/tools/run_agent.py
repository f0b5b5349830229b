"""Run Agent: hand a task to another agent inside the same turn (nested, not a handoff).

The sub-run itself is executed by whoever runs this run (``ctx.run_subagent``, from
``huf.ai.run.executor``): a tool does not import the code that runs agents and builds their tools."""

from __future__ import annotations

from frappe import _

from huf.ai.engine.tools import ToolError
from huf.ai.tools.context import RunContext


def run_agent(agent: str, args: dict, ctx: RunContext) -> dict:
	if ctx.depth >= ctx.max_depth:
		raise ToolError(
			_("Run Agent can only nest {0} agents deep; finish this part yourself or raise Max Agent Depth on the agent.").format(
				ctx.max_depth
			)
		)
	if agent in ctx.chain:
		raise ToolError(
			_("{0} is already working on this request; an agent cannot call itself or an agent that called it.").format(agent)
		)
	if not ctx.run_subagent:
		raise ToolError(_("Run Agent works only inside an agent run."))
	return {"agent": agent, "response": ctx.run_subagent(agent, args["prompt"], ctx)}
