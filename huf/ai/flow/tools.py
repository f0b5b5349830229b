"""Agent tools for flows, declared through the ``huf_tools`` hook with Huf's own tools
(``huf/ai/tools/builtin.py``). Each calls the endpoint of the same name in ``huf/ai/flow/api.py``
(approve_flow_run through ``tool_handlers.py``, for both decisions), so an agent has exactly the
rights of the run's user: the same permission checks, and only a named approver may decide.
Declarations only: the functions are reached by their dotted paths, so nothing here imports the
run code (``tests/engine/house/test_import_cycles.py``)."""

from __future__ import annotations

FLOW_RUN = {"fieldname": "flow_run", "type": "string", "required": 1, "description": "The Flow Run's ID, e.g. as run_flow returned it."}
FLOW_TOOLS = [
	{
		"tool_name": "run_flow",
		"description": "Start a flow (a business process of several steps) as the current user. Returns the Flow Run's ID "
		"and its status; use get_flow_run to follow it.",
		"function_path": "huf.ai.flow.api.run_flow",
		"effect": "database",  # the Flow Run row commits with the round; its first step is queued after that
		"parameters": [
			{"fieldname": "flow_id", "type": "string", "required": 1, "description": "The flow's ID, e.g. qualify-leads."},
			{"fieldname": "payload", "type": "object", "description": "The flow's input: name and value pairs its steps read."},
			{"fieldname": "mode", "type": "string", "description": "Normal (the default) or Agentic."},
		],
	},
	{
		"tool_name": "get_flow_run",
		"description": "A flow run's status, current step, what each step did, and who may approve it while it waits.",
		"function_path": "huf.ai.flow.api.get_flow_run",
		"effect": "repeatable",
		"parameters": [FLOW_RUN],
	},
	{
		"tool_name": "resume_flow_run",
		"description": "Let a flow run that stopped go on from its last saved step (its owner, or someone who manages flows, only).",
		"function_path": "huf.ai.flow.api.resume_flow_run",
		"effect": "repeatable",  # a second call finds nothing to do and says so
		"parameters": [FLOW_RUN],
	},
	{
		"tool_name": "approve_flow_run",
		"description": "Approve or reject a flow run that waits for approval. Only someone the flow names as an approver may decide.",
		"function_path": "huf.ai.flow.tool_handlers.approve_flow_run",
		"effect": "repeatable",  # a second call finds nothing to do and says so
		"parameters": [
			FLOW_RUN,
			{"fieldname": "decision", "type": "string", "required": 1, "description": "approve or reject."},
			{"fieldname": "comment", "type": "string", "description": "Why, kept with the decision."},
		],
	},
]
