"""What the web app's Integrations page calls. Every method needs ``integration.write``; stored
credentials and recipients' own webhook URLs are never returned, only whether each is set."""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils.password import remove_encrypted_password

from huf.ai.engine.tools import ToolError
from huf.ai.integrations import tools
from huf.ai.integrations.catalog import schema_of
from huf.capabilities import needs

SERVICE_FIELDS = ["name", "title", "category", "description", "documentation_url", "recipient_label", "is_builtin"]


@frappe.whitelist(methods=["GET"])
@needs("integration.write")
def list_integrations() -> dict:
	"""The services with the credentials each takes, the settings made for them, and the agents
	(names only) settings can be kept for."""
	services = frappe.get_list("Integration Service", fields=SERVICE_FIELDS, order_by="is_builtin desc, name asc")
	for service in services:
		service["credentials"] = schema_of(service["name"])
	settings = frappe.get_list(
		"Integration Settings", fields=["name", "service", "is_active", "is_default", "modified"], order_by="name asc"
	)
	counts = dict(
		frappe.get_all(
			"Integration Recipient", filters={"parenttype": "Integration Settings"}, fields=["parent", "count(name) as n"],
			group_by="parent", as_list=True,
		)
	)  # fmt: skip
	for row in settings:
		row["recipients"] = counts.get(row["name"], 0)
	agents = frappe.get_all("Agent", pluck="name", order_by="name asc")  # names only: whom settings may be kept for
	return {"services": services, "settings": settings, "agents": agents}


@frappe.whitelist(methods=["GET"])
@needs("integration.write")
def get_integration_settings(name: str) -> dict:
	doc = frappe.get_doc("Integration Settings", name)
	doc.check_permission("read")
	return view(doc)


def view(doc) -> dict:
	"""The settings as the page shows them: which credentials are set, never their values."""
	return {
		"name": doc.name, "service": doc.service, "is_active": doc.is_active, "is_default": doc.is_default,
		"credentials": [{"key": row.key, "is_set": bool(row.value)} for row in doc.credentials],
		"recipients": [
			{"row": row.name, "recipient_name": row.recipient_name, "recipient_id": row.recipient_id or "", "has_webhook_url": bool(row.webhook_url)}
			for row in doc.recipients
		],
		"allowed_agents": [row.agent for row in doc.allowed_agents],
	}  # fmt: skip


@frappe.whitelist(methods=["POST"])
@needs("integration.write")
def save_integration_settings(settings: str | dict) -> dict:
	"""Create or change settings (a title and service for new ones; what is left out stays as it
	is). ``credentials``: key -> new value (an empty value keeps the stored
	one); ``clear_credentials``: keys to remove; ``allowed_agents``: the agents that alone may send
	through them (empty: every agent). Each recipient with its ``row`` id keeps its stored
	webhook URL unless a new ``webhook_url`` is given or ``clear_webhook_url`` is set."""
	data = frappe._dict(json.loads(settings) if isinstance(settings, str) else settings)
	if data.get("name"):
		doc = frappe.get_doc("Integration Settings", data.name)
		doc.check_permission("write")
	else:
		doc = frappe.new_doc("Integration Settings")
		doc.title = (data.get("title") or "").strip()
		doc.service = data.get("service")
	for flag in ("is_active", "is_default"):  # what the call leaves out stays as it is
		if flag in data or doc.is_new():
			doc.set(flag, int(bool(data.get(flag, flag == "is_active"))))
	dropped = _credentials(doc, data.get("credentials") or {}, set(data.get("clear_credentials") or ()))
	gone = _recipients(doc, data.recipients) if "recipients" in data else []
	if "allowed_agents" in data:  # none: every agent may send through them
		doc.set("allowed_agents", [{"agent": agent} for agent in dict.fromkeys(data.allowed_agents or ())])
	doc.save()
	for row in dropped:  # what was removed is gone from the encrypted store too
		remove_encrypted_password("Integration Credential", row, "value")
	for row in gone:
		remove_encrypted_password("Integration Recipient", row, "webhook_url")
	return view(frappe.get_doc("Integration Settings", doc.name))


def _credentials(doc, typed: dict, cleared: set[str]) -> list[str]:
	"""Set the credentials; returns the stored rows removed."""
	rows = {row.key: row for row in doc.credentials}
	for key, value in typed.items():
		value = (value or "").strip() if isinstance(value, str) else value
		if not value:
			continue
		if key in rows:
			rows[key].value = value
		else:
			rows[key] = doc.append("credentials", {"key": key, "value": value})
	doc.set("credentials", [row for key, row in rows.items() if key not in cleared])
	return [row.name for key, row in rows.items() if key in cleared and row.name]


def _recipients(doc, wanted: list[dict]) -> list[str]:
	"""Set the recipients; returns the rows whose stored webhook URL is to be removed."""
	stored = {row.name: row for row in doc.recipients}
	rows, cleared = [], []
	for item in wanted:
		values = {"recipient_name": item.get("recipient_name") or "", "recipient_id": item.get("recipient_id") or ""}
		row = stored.get(item.get("row") or "")
		if row is None:
			row = frappe._dict(values)
		else:
			row.update(values)
		if (item.get("webhook_url") or "").strip():
			row.webhook_url = item["webhook_url"].strip()
		elif item.get("clear_webhook_url") and row.get("webhook_url"):
			row.webhook_url = None
			cleared.append(row.name)
		rows.append(row)
	doc.set("recipients", rows)
	kept = {row.get("name") for row in rows}
	return cleared + [name for name in stored if name not in kept]


@frappe.whitelist(methods=["POST"])
@needs("integration.write")
def delete_integration_settings(name: str) -> None:
	frappe.delete_doc("Integration Settings", name)  # settings already gone: nothing to do (ignore_missing)


@frappe.whitelist(methods=["POST"])
@needs("integration.write")
def send_test_message(settings: str, recipient: str, text: str | None = None) -> dict:
	"""Send a message through saved settings as an agent would; a failure comes back in the same words."""
	doc = frappe.get_doc("Integration Settings", settings)
	doc.check_permission("write")
	if not doc.is_active:
		frappe.throw(_("{0} is turned off. Turn it on to send through it.").format(doc.name))
	try:
		return tools.send_message(doc.name, recipient, text or _("A test message from Huf: this integration works."), _("Test message"))
	except ToolError as error:
		frappe.throw(str(error), title=_("Not sent"))
