# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt

from huf.ai.engine.llm import DEFAULT_DEADLINE
from huf.ai.engine.loop import DEFAULT_MAX_RESPONSE_CHARS
from huf.ai.flow.runs import TIME_SLICE
from huf.ai.run.rate_limits import DEFAULT_GUEST_RUNS_PER_HOUR


class AgentSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		default_model: DF.Link | None
		default_provider: DF.Link | None
		flow_time_slice: DF.Float
		guest_runs_per_hour: DF.Int
		max_prompt_chars: DF.Int
		max_response_chars: DF.Int
		model_call_timeout: DF.Int

	# end: auto-generated types

	def validate(self):
		if self.default_model and self.default_provider:
			provider = frappe.db.get_value("AI Model", self.default_model, "provider")
			if provider and provider != self.default_provider:
				frappe.throw(
					_("The model {0} belongs to provider {1}; pick a model of {2} or change the default provider.").format(
						frappe.bold(self.default_model), frappe.bold(provider), frappe.bold(self.default_provider)
					),
					title=_("Model and provider do not match"),
				)
		if cint(self.max_prompt_chars) < 1:
			frappe.throw(_("Max Prompt Characters must be at least 1."))
		if cint(self.guest_runs_per_hour) < 1:  # empty (a site from before the setting): the default, shown
			self.guest_runs_per_hour = DEFAULT_GUEST_RUNS_PER_HOUR
		# left empty (or a site from before these fields): the defaults, never "no limit"
		self.max_response_chars = cint(self.max_response_chars) or DEFAULT_MAX_RESPONSE_CHARS
		self.model_call_timeout = cint(self.model_call_timeout) or int(DEFAULT_DEADLINE)
		self.validate_flow_time_slice()

	def on_update(self):
		from huf.ai.assistant.agent import follow

		follow(self.get("assistant_model") or None)  # the Builder Assistant agent shows the assistant's model

	def validate_flow_time_slice(self):
		"""0 is a real choice (a job per step), so only a value never filled in becomes the default.
		Past MAX_FLOW_TIME_SLICE a job would near the time the queue gives one job (25 minutes)."""
		if self.flow_time_slice is None or self.flow_time_slice == "":
			self.flow_time_slice = TIME_SLICE
		if not 0 <= flt(self.flow_time_slice) <= MAX_FLOW_TIME_SLICE:
			frappe.throw(
				_("Flow time slice must be between 0 and {0} seconds. Use 0 to run every flow step as a job of its own.").format(
					MAX_FLOW_TIME_SLICE
				),
				title=_("Flow time slice out of range"),
			)


MAX_FLOW_TIME_SLICE = 600  # seconds
