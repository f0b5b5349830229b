"""The approve_flow_run agent tool (declared in ``huf/ai/flow/tools.py``): one tool for both
decisions, over the endpoints ``approve_flow_run`` / ``reject_flow_run``, so only a named approver
may decide, exactly as in the Desk and the API. Reached by its dotted path only, like every tool."""

from __future__ import annotations

from huf.ai.flow import api


def approve_flow_run(flow_run: str, decision: str = "approve", comment: str | None = None) -> dict:
	if decision not in ("approve", "reject"):
		raise ValueError(f"decision must be approve or reject, not {decision!r}.")
	decide = api.approve_flow_run if decision == "approve" else api.reject_flow_run
	return decide(flow_run, comment=comment)
