# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import flt

PRICE_FIELDS = ("input_cost_per_1m_tokens", "output_cost_per_1m_tokens", "cached_input_cost_per_1m_tokens")
WHITESPACE = re.compile(r"\s")


class AIModel(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		cached_input_cost_per_1m_tokens: DF.Float
		disabled: DF.Check
		fallback_models: DF.SmallText | None
		input_cost_per_1m_tokens: DF.Float
		model_name: DF.Data
		output_cost_per_1m_tokens: DF.Float
		provider: DF.Link
		use_custom_pricing: DF.Check

	# end: auto-generated types

	def validate(self):
		self.model_name = (self.model_name or "").strip()
		if WHITESPACE.search(self.model_name):
			frappe.throw(
				_("The model name {0} contains a space. Enter the provider's model id exactly, e.g. gpt-4o-mini.").format(
					frappe.bold(self.model_name)
				),
				title=_("Invalid Model Name"),
			)
		for fieldname in PRICE_FIELDS:
			if flt(self.get(fieldname)) < 0:
				frappe.throw(_("{0} cannot be negative.").format(_(self.meta.get_label(fieldname))), title=_("Invalid Price"))
		self.fallback_models = self.clean_fallback_models()

	def clean_fallback_models(self) -> str | None:
		"""One name per line, blank lines and repeats dropped."""
		names: list[str] = []
		for line in (self.fallback_models or "").splitlines():
			name = line.strip()
			if not name or name in names:
				continue
			if WHITESPACE.search(name):
				frappe.throw(
					_("The fallback model {0} contains a space. Write one model name per line.").format(frappe.bold(name)),
					title=_("Invalid Fallback Models"),
				)
			if name == self.model_name:
				frappe.throw(
					_("{0} cannot be its own fallback. List other models of the same provider.").format(frappe.bold(name)),
					title=_("Invalid Fallback Models"),
				)
			names.append(name)
		return "\n".join(names) or None

	def on_update(self):
		clear_prices(self.name)
		if self.is_first_enabled_model():
			from huf.ai.seeding import after_first_model

			after_first_model()  # agents that waited for a model (Huf's example, apps' seeds) get this one

	def is_first_enabled_model(self) -> bool:
		"""Newly enabled (made, or switched on), with no other enabled model on the site."""
		before = self.get_doc_before_save()
		if self.disabled or (before and not before.disabled):
			return False
		return not frappe.db.exists("AI Model", {"disabled": 0, "name": ("!=", self.name)})

	def on_trash(self):
		clear_prices(self.name)

	def after_rename(self, old, new, merge=False):
		clear_prices(old)
		clear_prices(new)


def clear_prices(model: str) -> None:
	from huf.ai.run.cost import clear_price_cache

	clear_price_cache(model)
