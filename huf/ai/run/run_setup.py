"""Setting a run up: Agent document -> engine inputs (model, settings, tools, knowledge and the
messages of the next run). The model and its provider come from ``huf/ai/models.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.agent_state import memory, planning
from huf.ai.agent_state.artifacts import artifact_tools, keeper
from huf.ai.run.conversations import load_history
from huf.ai.run.cost import cost_function
from huf.ai.engine import llm
from huf.ai.engine.artifacts import stasher
from huf.ai.engine.context import ContextSettings, build_context
from huf.ai.engine.events import Usage
from huf.ai.engine.loop import DEFAULT_MAX_RESPONSE_CHARS, LoopSettings
from huf.ai.engine.tools import Tool
from huf.ai.knowledge.context_builder import KnowledgeUse, build_knowledge_context
from huf.ai.mcp.client import create_mcp_tools
from huf.ai.models import fallback_models, model_spec
from huf.ai.prompts import PROMPT, SUMMARY, resolve
from huf.ai.tools import load_agent_tools
from huf.ai.tools.context import RunContext
from huf.ai.tools.knowledge import knowledge_tools

if TYPE_CHECKING:
	from huf.ai.engine.mcp import MCPPool


@dataclass
class PreparedRun:
	request: llm.LLMRequest
	tools: list[Tool]
	settings: LoopSettings
	summary_usage: Usage
	summary_cost: float  # priced like every model call: the summary model's own AI Model prices
	knowledge: KnowledgeUse
	mcp_pool: MCPPool | None = None  # this run's MCP sessions
	recorded: dict = field(default_factory=dict)  # Agent Run fields: the library prompts the run used

	def close(self) -> None:
		"""End the run's MCP sessions (stdio servers' processes too); the run calls it whatever happened."""
		if self.mcp_pool is not None:
			self.mcp_pool.close()


def load_agent(agent_name: str):
	"""The Agent, or a clear error when it is missing or disabled."""
	try:
		agent = frappe.get_cached_doc("Agent", agent_name or "")
	except frappe.DoesNotExistError:
		frappe.clear_last_message()
		frappe.throw(_("There is no agent named {0}.").format(frappe.bold(agent_name or "")), frappe.DoesNotExistError)
	if agent.disabled:
		frappe.throw(_("The agent {0} is disabled. Enable it on its form to run it.").format(frappe.bold(agent_name)))
	return agent


def prepare_run(
	agent, conversation: str, prompt, ctx: RunContext, with_history: bool = True, query: str = "", history_before: int = 0
) -> PreparedRun:
	"""Everything the loop needs for one run of ``agent`` in ``conversation``. ``query`` is what
	the person asked, for picking Mandatory knowledge (``prompt`` may carry files and images).
	``history_before``: the history ends before this message sequence (a resumed run's own messages)."""
	spec = model_spec(agent.model)
	summary_usage, summary_cost = Usage(), 0.0
	recorded: dict = {}
	model = llm.normalize_model_name(spec.model, spec.provider, spec.api_base)
	knowledge = build_knowledge_context(agent, query or (prompt if isinstance(prompt, str) else ""), model)
	template = resolve(agent, PROMPT)  # None (and no read at all) for an agent with its own instructions
	if template:
		recorded.update(template.recorded(PROMPT))
	instructions = template.body if template else agent.instructions
	remembered = memory.prompt_block(agent, conversation)  # "" (and no read) unless the agent injects its memory
	system = "\n\n".join(part for part in (instructions, planning.instructions(agent), knowledge.text, remembered) if part)
	messages: list[dict] = [{"role": "system", "content": system}] if system else []
	if with_history and agent.persist_conversation:
		plan, summary_usage, summary_cost = _history(agent, conversation, history_before, recorded)
		messages.extend(plan)
	messages.append({"role": "user", "content": prompt})
	limits = frappe.get_cached_doc("Agent Settings")
	request = llm.LLMRequest(
		model=spec,
		messages=messages,
		temperature=agent.temperature,
		top_p=agent.top_p or None,
		fallback_models=fallback_models(agent.model),
		deadline=cint(limits.get("model_call_timeout")) or llm.DEFAULT_DEADLINE,
		prompt_caching=bool(agent.get("enable_prompt_caching")),  # markers where the model has a cached price (engine/prompt_cache.py)
	)
	max_chars = agent.max_context_chars or 0
	settings = LoopSettings(
		max_turns=agent.max_turns or 10,
		max_context_chars=max_chars,
		max_response_chars=cint(limits.get("max_response_chars")) or DEFAULT_MAX_RESPONSE_CHARS,
		overflow=stasher(keeper(ctx)) if max_chars else None,  # a longer result is kept whole as an artifact
	)
	tools = load_agent_tools(agent, ctx) + knowledge_tools(agent) + memory.memory_tools(agent, ctx) + planning.planning_tools(agent, ctx)
	mcp_tools, pool = create_mcp_tools(agent)  # last: nothing after it can fail and leave the pool open
	tools = mcp_tools + tools + artifact_tools(ctx, max_chars, bool(mcp_tools or tools))
	return PreparedRun(request, tools, settings, summary_usage, summary_cost, knowledge, pool, recorded)


def _history(agent, conversation: str, before: int = 0, recorded: dict | None = None) -> tuple[list[dict], Usage, float]:
	"""The history messages to send, and the usage and cost of summarizing it (when that happened).
	A summary written with a library summary prompt goes into ``recorded`` (the run's fields)."""
	strategy = agent.context_strategy or "None"
	limit = agent.history_limit or 20
	if strategy == "FIFO":
		# one extra group's worth so the boundary-safe slice can still fill the limit
		pairs = load_history(conversation, limit=limit + 10, before_sequence=before)
		return build_context([m for _, m in pairs], ContextSettings("FIFO", limit)).messages, Usage(), 0.0
	row = frappe.db.get_value("Agent Conversation", conversation, ["summary", "summarized_until"], as_dict=True)
	pairs = load_history(conversation, after_sequence=row.summarized_until or 0, before_sequence=before)
	template = resolve(agent, SUMMARY) if strategy == "Summarize" else None
	settings = ContextSettings(strategy, limit, agent.summary_ratio or 0.7, template.body if template else agent.summary_prompt)
	spent: list[llm.ModelTurn] = []
	plan = build_context([m for _, m in pairs], settings, row.summary, _summarizer(agent, spent))
	if plan.folded:
		if template and recorded is not None:
			recorded.update(template.recorded(SUMMARY))
		frappe.db.set_value(
			"Agent Conversation",
			conversation,
			{"summary": plan.summary, "summarized_until": pairs[plan.folded - 1][0]},
			update_modified=False,
		)
	usage = sum((turn.usage for turn in spent), Usage())
	cost_of = cost_function(agent.summary_model or agent.model)
	return plan.messages, usage, sum(cost_of(turn.model, turn.usage) for turn in spent)


def _summarizer(agent, spent: list) -> Callable[[str], str]:
	def summarize(prompt: str) -> str:
		model = agent.summary_model or agent.model
		request = llm.LLMRequest(model=model_spec(model), messages=[{"role": "user", "content": prompt}])
		turn = llm.stream_turn(request)
		spent.append(turn)
		return turn.content

	return summarize
