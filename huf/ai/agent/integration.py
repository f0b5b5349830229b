"""The public way to run an agent, for users, scripts and other Frappe apps.

Queue-first: ``run_agent_sync`` records the run and returns at once; a background worker executes
it. ``now=True`` (or the agent's Run Immediately setting) executes it inside the request, still in
the conversation's order.
"""

from __future__ import annotations

import frappe
from frappe.utils import cint

from huf.ai.run import lifecycle, runs
from huf.ai.run.conversations import caller_channel
from huf.capabilities import needs, open_to
from huf.permissions import check_run_access, require


@frappe.whitelist(allow_guest=True, methods=["POST"])
@open_to("Guests reach the agents that allow guests (runs.queue_run checks); a signed-in caller needs agent.run, checked here.")
def run_agent_sync(
	agent_name: str,
	prompt: str,
	conversation_id: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	now: bool | int | str = False,
) -> dict:
	"""Queue a run of ``agent_name`` for the current user; returns ``{run, conversation, status}``.

	Guests get through only to agents that allow guests (checked in ``queue_run``). ``channel_id``
	and ``external_id`` name a conversation within the caller's own ones (see ``caller_channel``)."""
	if frappe.session.user != "Guest":
		require("agent.run")
	channel_id, external_id = caller_channel(channel_id, external_id)
	return runs.queue_run(
		agent_name,
		prompt,
		conversation_id=conversation_id,
		channel_id=channel_id,
		external_id=external_id,
		now=_truthy(now),
	)


@frappe.whitelist()
@needs("run.read")
def get_agent_run_status(run: str) -> dict:
	"""Status, answer or error of one of the caller's runs (with run.read.all: any run)."""
	check_run_access(run)
	return lifecycle.status_of(run)


@frappe.whitelist(methods=["POST"])
@needs("agent.run")
def cancel_agent_run(run: str) -> dict:
	"""Stop one of the caller's runs (with run.read.all: any run)."""
	check_run_access(run)
	return lifecycle.cancel(run)


def _truthy(value) -> bool:
	if isinstance(value, str):
		return value.strip().lower() in {"1", "true", "yes", "on"}
	return bool(cint(value))
