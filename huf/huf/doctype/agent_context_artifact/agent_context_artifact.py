# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class AgentContextArtifact(Document):
	"""Written only by huf/ai/agent_state/artifacts.py: a tool result too long for the model, kept whole."""

	pass
