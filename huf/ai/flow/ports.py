"""The engine's ports (``engine/flow/ports.py``) on the site, acting as the run's user (the hop job
has already called ``frappe.set_user``), never with more rights than that user has.

- ``run_agent``: a real Agent Run (run_kind "agent", flow_run, flow_node_id, flow_id) in the run's
  own conversation (one per Flow Run, owned by its user, made on first use), executed inside the
  hop by the conversation's drainer as a chat run would be (``runs.drain``, as ``now=1`` does).
  After a dead worker (``since``) the Agent Run that node already made is reused when it finished;
  one that did not goes on from its last recorded step (``resume.interrupted``), drained here, or
  the step fails saying it needs its owner's decision (Needs Attention).
- ``call_tool``: the Agent Tool Function built and guarded exactly as for agents (``tools.build_tool``).
- ``complete``: one model call for ``router.llm`` and the Agentic orchestrator; ``model`` names an
  AI Model or an Agent (its model). Through an Agent it is recorded as an Agent Run (run_kind
  "orchestrator"); a bare AI Model call is not recorded (an Agent Run needs an agent).
- ``http``: the SSRF-safe client's policy with the administrator's allowed hosts."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai import models, outbound
from huf.ai.run import executor, lifecycle, resume, run_setup, runs
from huf.ai.run.cost import cost_function
from huf.ai.engine import llm
from huf.ai.engine.flow.checks import ASKS_FIRST, approved_right_before
from huf.ai.engine.flow.ports import AgentResult, HttpPolicy
from huf.ai.engine.llm_errors import LLMError
from huf.ai.engine.loop import LoopResult
from huf.ai.engine.tools import ToolError
from huf.ai.run.rows import commit, next_sequence
from huf.ai.tools import build_tool
from huf.ai.tools.context import RunContext
from huf.permissions import can_run_agent

FINISHED = ("Success", "Failed", "Cancelled")


class SitePorts:
	def __init__(self, run, graph, since=None):
		self.run, self.graph, self.since = run, graph, since
		self.sent = None  # what the step sent out (kept on its step row as its input): a tool's arguments, an agent's prompt

	def run_agent(self, agent: str, prompt: str, node_id: str) -> AgentResult:
		self.sent = {"prompt": prompt}
		if self.since:
			earlier = self._earlier_run(node_id)
			if earlier:
				return earlier
		doc = run_setup.load_agent(agent)
		if not can_run_agent(doc, self.run.user):
			raise ToolError(_("{0} may not run the agent {1}.").format(self.run.user, doc.name))
		prompt = runs.check_prompt(prompt)
		models.check_provider(doc.model)
		conversation = self.conversation(doc)
		sequence = next_sequence(conversation, "last_run_sequence")
		run = lifecycle.create(
			"agent", doc, self.run.user, prompt, conversation, channel="flow", sequence=sequence,
			flow_run=self.run.name, flow_node_id=node_id, flow_id=self.run.flow_id,
		)  # fmt: skip
		commit()
		known = frappe._dict(
			name=run.name, agent=doc.name, conversation=conversation, user=self.run.user, prompt=prompt,
			attachments=None, run_kind="agent", sequence=sequence, turns=0, started_at=None,
		)  # fmt: skip
		return self._drained(conversation, run.name, doc.name, known)

	def _drained(self, conversation: str, run: str, agent: str, known=None) -> AgentResult:
		status = runs.drain(conversation, until=run, wait=runs.INLINE_LOCK_WAIT, known=known)
		if status is None:
			raise ToolError(_("The agent {0} could not start: its conversation stayed busy.").format(agent))
		return AgentResult(status.get("response") or "", run, status["status"] == "Success", status.get("error"))

	def _earlier_run(self, node_id: str) -> AgentResult | None:
		"""The Agent Run this node made before its worker died: reused when it finished; one still
		Started lost its worker with the hop, and goes on from its last recorded step, drained here
		(``resume.interrupted``); None when it never began. A ToolError when it needs its owner's
		decision (a call that may act only once was in flight)."""
		filters = {"flow_run": self.run.name, "flow_node_id": node_id, "creation": [">=", self.since], "run_kind": "agent"}
		fields = ["name", "agent", "conversation", "status", "response", "error_message"]
		row = frappe.db.get_value("Agent Run", filters, fields, as_dict=True, order_by="creation desc")
		if not row:
			return None
		if row.status == "Started":
			resume.interrupted(row.name)
			row = frappe.db.get_value("Agent Run", row.name, fields, as_dict=True)
		if row.status == "Queued":
			return self._drained(row.conversation, row.name, row.agent)
		if row.status == resume.ATTENTION:
			call = frappe.db.get_value("Agent Tool Call", {"agent_run": row.name, "status": resume.INTERRUPTED}, "tool")
			raise ToolError(
				_(
					"The agent's run {0} was interrupted while it was using {1}, which may or may not have done what it was "
					"asked. It needs its owner's decision (retry, skip or end) before it can go on."
				).format(row.name, call)
			)
		if row.status in FINISHED:
			return AgentResult(row.response or "", row.name, row.status == "Success", row.error_message)
		return AgentResult(row.response or "", row.name, False, _("The agent's run {0} is {1}.").format(row.name, _(row.status)))

	def conversation(self, agent) -> str:
		"""The run's conversation, made on first use (owned by the run's user) and kept on the run."""
		if not self.run.conversation:
			from huf.ai.run.conversations import new_conversation_for

			self.run.conversation = new_conversation_for(agent.name, self.run.user, "flow")
			frappe.db.set_value("Flow Run", self.run.name, "conversation", self.run.conversation, update_modified=False)
		return self.run.conversation

	def call_tool(self, tool: str, arguments: dict):
		self.sent = arguments
		if not frappe.db.exists("Agent Tool Function", tool or ""):
			raise ToolError(_("There is no tool {0}.").format(tool))
		ctx = RunContext(
			run=self.run.last_agent_run or "", conversation=self.run.conversation or "", agent="", user=self.run.user,
			run_subagent=executor.run_subagent,
			step_key=f"{self.run.name}-{(self.run.hop_count or 0) - (self.run.attempt or 0)}",  # as http_request steps key it
		)  # fmt: skip
		doc = frappe.get_cached_doc("Agent Tool Function", tool)
		if doc.requires_approval and not approved_right_before(self.graph, self.run.current_node_id):
			raise ToolError(ASKS_FIRST.format(tool=tool))  # marked after this version of the flow was saved
		built = build_tool(doc, ctx)
		built.validate(arguments)
		return built.handler(arguments)

	def complete(self, prompt: str, model: str | None) -> str:
		model = model or self.graph.orchestrator_model
		if not model:
			raise ToolError(_("Name the model to ask: config.model on the step, or orchestrator.model on the flow."))
		if frappe.db.exists("AI Model", model):
			return llm.stream_turn(_request(model, prompt)).content
		doc = run_setup.load_agent(model)
		if not can_run_agent(doc, self.run.user):
			raise ToolError(_("{0} may not use the agent {1}.").format(self.run.user, doc.name))
		run = lifecycle.create(
			"orchestrator", doc, self.run.user, prompt, self.conversation(doc), status="Started", channel="flow",
			flow_run=self.run.name, flow_id=self.run.flow_id, depth=1,
		)  # fmt: skip
		commit()
		try:
			turn = llm.stream_turn(_request(doc.model, prompt))
		except LLMError as error:
			lifecycle.fail(run, error.message, error.kind)
			raise
		cost = cost_function(doc.model)(turn.model, turn.usage)
		lifecycle.finish(run, LoopResult(status="success", response=turn.content, usage=turn.usage, cost=cost, turns=1, model=turn.model))
		return turn.content

	def http(self) -> HttpPolicy:
		return HttpPolicy(allow=outbound.allowed_hosts())


def _request(model: str, prompt: str) -> llm.LLMRequest:
	return llm.LLMRequest(model=models.model_spec(model), messages=[{"role": "user", "content": prompt}], max_retries=1)
