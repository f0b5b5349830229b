# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class AgentOrchestrationPlan(Document):
	"""Written only by huf/ai/agent_state/planning.py (a planned run's plan and its steps)."""

	pass
