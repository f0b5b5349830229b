# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.ai.engine.llm import DEFAULT_DEADLINE
from huf.ai.engine.loop import DEFAULT_MAX_RESPONSE_CHARS
from huf.ai.rate_limits import DEFAULT_GUEST_RUNS_PER_HOUR


class AgentSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		default_model: DF.Link | None
		default_provider: DF.Link | None
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
