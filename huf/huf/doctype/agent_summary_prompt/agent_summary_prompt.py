# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from huf.ai.prompts import VersionedPrompt


class AgentSummaryPrompt(VersionedPrompt):
	"""A lineage of versions in the prompt library: see huf/ai/prompts.py."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		category: DF.Link | None
		description: DF.SmallText | None
		is_active: DF.Check
		is_latest: DF.Check
		is_system: DF.Check
		prompt_body: DF.Code
		slug: DF.Data | None
		title: DF.Data
		version: DF.Int
		visibility: DF.Literal["Public", "App", "Private"]

	# end: auto-generated types
