# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt

MAX_TURNS_LIMIT = 50


class Agent(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF
		from huf.huf.doctype.agent_role.agent_role import AgentRole
		from huf.huf.doctype.agent_tool.agent_tool import AgentTool
		from huf.huf.doctype.agent_user.agent_user import AgentUser

		agent_name: DF.Data
		agent_roles: DF.Table[AgentRole]
		agent_tool: DF.Table[AgentTool]
		agent_users: DF.Table[AgentUser]
		allow_chat: DF.Check
		allow_file_attachments: DF.Check
		allow_guest: DF.Check
		autonaming_of_conversation_title: DF.Check
		context_strategy: DF.Literal["None", "FIFO", "Summarize"]
		description: DF.SmallText | None
		disabled: DF.Check
		enable_conversation_data: DF.Check
		enable_prompt_caching: DF.Check
		history_limit: DF.Int
		inject_conversation_data: DF.Check
		instructions: DF.Code | None
		last_run: DF.Datetime | None
		max_agent_depth: DF.Int
		max_context_chars: DF.Int
		max_turns: DF.Int
		model: DF.Link
		persist_conversation: DF.Check
		persist_user_history: DF.Check
		prompt_mode: DF.Literal["Local", "Template"]
		prompt_template: DF.Link | None
		prompt_version_locked: DF.Check
		provider: DF.Link
		run_immediately: DF.Check
		summary_model: DF.Link | None
		summary_prompt: DF.Code | None
		summary_prompt_mode: DF.Literal["Local", "Template"]
		summary_prompt_template: DF.Link | None
		summary_prompt_version_locked: DF.Check
		summary_ratio: DF.Float
		summary_template_version_at_attach: DF.Int
		temperature: DF.Float
		template_version_at_attach: DF.Int
		top_p: DF.Float
		total_run: DF.Int

	# end: auto-generated types

	def on_update(self):
		if self.disabled and self.has_value_changed("disabled"):
			stop_triggers(self.name, _("The agent {0} was disabled.").format(self.name))

	def on_trash(self):
		stop_triggers(self.name, _("The agent {0} was deleted.").format(self.name), unlink=True)

	def validate(self):
		self.validate_model()
		self.validate_sampling()
		self.validate_limits()
		self.validate_tools()
		self.validate_mcp_servers()
		self.validate_knowledge()
		self.validate_prompts()

	def validate_prompts(self):
		from huf.ai.prompts import PROMPT, SUMMARY, attach

		attach(self, PROMPT)
		attach(self, SUMMARY)

	def validate_knowledge(self):
		if cint(self.max_knowledge_tokens) < 0 or (self.agent_knowledge and cint(self.max_knowledge_tokens) == 0):
			frappe.throw(_("Max Knowledge Tokens must be above 0, e.g. 4000."), title=_("Invalid Max Knowledge Tokens"))
		seen: set[tuple[str, str]] = set()
		for row in self.agent_knowledge or []:
			if (row.knowledge_source, row.mode) in seen:
				frappe.throw(
					_("Knowledge row {0}: {1} is already bound as {2}. Remove one of the rows.").format(
						row.idx, frappe.bold(row.knowledge_source), _(row.mode)
					),
					title=_("Duplicate Knowledge Source"),
				)
			if row.mode == "Mandatory" and cint(row.token_budget) < 1:
				frappe.throw(
					_("Knowledge row {0}: a Mandatory source needs a Token Budget above 0, e.g. 1000.").format(row.idx),
					title=_("Invalid Token Budget"),
				)
			seen.add((row.knowledge_source, row.mode))

	def validate_model(self):
		model = frappe.db.get_value("AI Model", self.model, ["provider", "disabled"], as_dict=True)
		if model and model.provider != self.provider:
			frappe.throw(
				_("The model {0} belongs to provider {1}; pick a model of {2} or change the provider.").format(
					frappe.bold(self.model), frappe.bold(model.provider), frappe.bold(self.provider)
				),
				title=_("Model and provider do not match"),
			)
		for fieldname in ("model", "summary_model"):
			name = self.get(fieldname)
			if name and self.has_value_changed(fieldname) and frappe.db.get_value("AI Model", name, "disabled"):
				frappe.throw(
					_("The model {0} is disabled. Pick another model, or enable it on its AI Model form.").format(
						frappe.bold(name)
					),
					title=_("Model Disabled"),
				)

	def validate_sampling(self):
		temperature, top_p = flt(self.temperature), flt(self.top_p)
		if not 0 <= temperature <= 2:
			frappe.throw(_("Temperature must be between 0 and 2; it is {0}.").format(temperature), title=_("Invalid Temperature"))
		if not 0 < top_p <= 1:
			frappe.throw(_("Top P must be above 0 and at most 1; it is {0}.").format(top_p), title=_("Invalid Top P"))

	def validate_limits(self):
		if not 1 <= cint(self.max_turns) <= MAX_TURNS_LIMIT:
			frappe.throw(
				_("Max Turns must be between 1 and {0}; it is {1}.").format(MAX_TURNS_LIMIT, cint(self.max_turns)),
				title=_("Invalid Max Turns"),
			)
		strategy = self.context_strategy or "None"
		if strategy != "None" and cint(self.history_limit) < 1:
			frappe.throw(
				_("History Limit must be at least 1 with the {0} context strategy. Set it, or pick None to always send the whole history.").format(
					strategy
				),
				title=_("Invalid History Limit"),
			)
		if strategy == "Summarize" and not 0 < flt(self.summary_ratio) < 1:
			frappe.throw(
				_("Summary Ratio must be above 0 and below 1, e.g. 0.7 to fold the oldest 70% of the history; it is {0}.").format(
					flt(self.summary_ratio)
				),
				title=_("Invalid Summary Ratio"),
			)
		for fieldname in ("max_context_chars", "max_agent_depth"):
			if cint(self.get(fieldname)) < 0:
				frappe.throw(_("{0} cannot be negative.").format(_(self.meta.get_label(fieldname))))

	def validate_tools(self):
		seen: set[str] = set()
		for row in self.agent_tool or []:
			if row.tool in seen:
				frappe.throw(
					_("Tools row {0}: {1} is already in the list. Remove one of the rows.").format(row.idx, frappe.bold(row.tool)),
					title=_("Duplicate Tool"),
				)
			if not frappe.db.exists("Agent Tool Function", row.tool):
				frappe.throw(
					_("Tools row {0}: there is no tool named {1}.").format(row.idx, frappe.bold(row.tool)),
					title=_("Unknown Tool"),
				)
			seen.add(row.tool)

	def validate_mcp_servers(self):
		from huf.ai.mcp.client import enabled_tool_count

		seen: set[str] = set()
		for row in self.get("agent_mcp_server") or []:
			if row.mcp_server in seen:
				frappe.throw(
					_("MCP Servers row {0}: {1} is already in the list. Remove one of the rows.").format(row.idx, frappe.bold(row.mcp_server)),
					title=_("Duplicate MCP Server"),
				)
			seen.add(row.mcp_server)
			row.server_url = None  # people who may only read the agent never see where its servers are
			row.tool_count = enabled_tool_count(row.mcp_server)


def stop_triggers(agent: str, reason: str, unlink: bool = False) -> None:
	"""Disable the agent's triggers and say why, rather than leave them to fail at every event."""
	names = frappe.get_all("Agent Trigger", filters={"agent": agent}, pluck="name")
	for name in names:
		values = {"disabled": 1, "disabled_reason": reason, **({"agent": None} if unlink else {})}
		frappe.db.set_value("Agent Trigger", name, values, update_modified=False)
	if names:
		from huf.ai.triggers import index

		index.changed()
