from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from huf.ai.engine.tools import current_call


@dataclass(frozen=True)
class RunContext:
	"""Who and what a tool call belongs to. Tools act as ``user``, with that user's permissions.

	``run_subagent(agent, prompt, ctx)`` runs another agent as a sub-run of this one and returns its
	answer (the Run Agent tool); whoever executes the run provides it (``huf.ai.run.executor``), so the
	tools never import the code that runs agents.

	``tool_call_id``: the id of the model's tool call whose handler is running; a run resumed after
	its worker died runs an unfinished call again with the same id, so
	``effects.idempotency_key(ctx.run, ctx.tool_call_id)`` is the same key both times. A flow's tool
	step has no model call: its ``step_key`` (the flow run and the hop of the step's first attempt)
	stands in. None outside a call. Handlers reach their context as ``frappe.flags.huf_tool_context``
	(set by ``tools.build_tool``)."""

	run: str
	conversation: str
	agent: str
	user: str
	depth: int = 0
	chain: tuple[str, ...] = ()
	max_depth: int = 2
	run_subagent: Callable[[str, str, RunContext], str] | None = None
	step_key: str = ""

	@property
	def tool_call_id(self) -> str | None:
		call = current_call()
		return call.id if call else (self.step_key or None)
