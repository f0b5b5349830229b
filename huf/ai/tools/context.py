from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class RunContext:
	"""Who and what a tool call belongs to. Tools act as ``user``, with that user's permissions.

	``run_subagent(agent, prompt, ctx)`` runs another agent as a sub-run of this one and returns its
	answer (the Run Agent tool); whoever executes the run provides it (``huf.ai.executor``), so the
	tools never import the code that runs agents.

	``tool_call_id``: the Agent Tool Call id of the call in progress, set by the loop's handler (a
	flow's tool step: its flow run, step and hop); empty outside a call. It keys what a call sends
	out (the ``Idempotency-Key`` of a POST tool), so a call repeated after a dead worker sends the
	same key."""

	run: str
	conversation: str
	agent: str
	user: str
	depth: int = 0
	chain: tuple[str, ...] = ()
	max_depth: int = 2
	run_subagent: Callable[[str, str, RunContext], str] | None = None
	tool_call_id: str = ""
