"""Live events of a flow run, sent after the commit to the people who may see it: its owner, and
its named approvers while it waits for them (users named, and the users holding a named role).

- ``flow_node_started`` {flow_run, node_id, label, type, status: "Running", hop}
- ``flow_node_finished`` {flow_run, node_id, label, type, status, output, error, hop}
- ``flow_run_status`` {flow_run, status, node_id, hop, error, waiting}"""

from __future__ import annotations

import frappe

from huf.ai.flow.definitions import parsed


def audience(user: str, waiting: dict | None = None) -> list[str]:
	people = {user} if user and user != "Guest" else set()
	approvers = (waiting or {}).get("approvers") or {}
	people.update(approvers.get("users") or [])
	roles = approvers.get("roles") or []
	if roles:
		people.update(
			frappe.get_all("Has Role", filters={"role": ["in", roles], "parenttype": "User"}, pluck="parent", distinct=True)
		)
	return sorted(people - {"Guest"})


def _send(event: str, message: dict, people: list[str]) -> None:
	for person in people:
		frappe.publish_realtime(event, message, user=person, after_commit=True)


def node_started(run, node, hop: int) -> None:
	message = {
		"flow_run": run.name, "node_id": run.current_node_id, "label": node.label if node else None,
		"type": node.type if node else None, "status": "Running", "hop": hop,
	}  # fmt: skip
	_send("flow_node_started", message, audience(run.user))


def node_finished(run, result, node, status: str, output: str | None, hop: int) -> None:
	message = {
		"flow_run": run.name, "node_id": result.node_id, "label": node.label if node else None,
		"type": node.type if node else None, "status": status, "output": output, "error": result.error, "hop": hop,
	}  # fmt: skip
	_send("flow_node_finished", message, audience(run.user))


def run_status(flow_run: str, user: str, status: str, node_id: str | None, hop: int, error: str | None = None, waiting=None) -> None:
	waiting = parsed(waiting) if isinstance(waiting, str) else waiting
	message = {"flow_run": flow_run, "status": status, "node_id": node_id, "hop": hop, "error": error, "waiting": waiting}
	_send("flow_run_status", message, audience(user, waiting))


def notify_attention(run, waiting: dict) -> None:
	"""A notification (the Desk's bell, and e-mail where the person gets those) to the run's owner and
	the flow's approvers: a step may or may not have acted, and they decide what happens next."""
	from frappe.desk.doctype.notification_log.notification_log import make_notification_logs

	subject = frappe._("Flow run {0} needs attention at the step '{1}'").format(run.name, waiting.get("label") or "")
	notice = {
		"type": "Alert", "document_type": "Flow Run", "document_name": run.name, "subject": subject,
		"email_content": waiting.get("message"), "from_user": "Administrator",
	}  # fmt: skip
	make_notification_logs(frappe._dict(notice), audience(run.user, waiting))
