"""The built-in Integration Services, seeded after install and migrate (``install.ensure_setup``).

Each service's ``required_credentials`` is a JSON list of ``{key, label, type, required, help}``
(type ``password`` or ``text``): what its Integration Settings may hold, checked on save. A built-in
row the code changes is brought up to date; a service an admin added is left alone."""

from __future__ import annotations

import json

import frappe

EMAIL, WEBHOOK, NOTIFICATION = "email", "webhook", "frappe_notification"

SERVICES: list[dict] = [
	{
		"service_name": EMAIL,
		"title": "Email",
		"category": "Communication",
		"description": "Sends email through this site's outgoing email account, queued and retried like any email the site sends. "
		"Recipients map names to email addresses.",
		"documentation_url": "https://docs.frappe.io/framework/user/en/email-account",
		"recipient_label": "Email address",
		"required_credentials": [
			{
				"key": "email_account", "label": "Email account", "type": "text", "required": 0,
				"help": "The outgoing email account to send from. Leave empty for the site's default outgoing account.",
			},
		],
	},
	{
		"service_name": WEBHOOK,
		"title": "Chat webhook",
		"category": "Communication",
		"description": "Posts to a team chat's incoming webhook in the format Slack uses, which Mattermost, Rocket.Chat and "
		"Microsoft Teams accept too. Recipients map names to channels, or have a webhook URL of their own.",
		"documentation_url": "https://api.slack.com/messaging/webhooks",
		"recipient_label": "Channel",
		"required_credentials": [
			{
				"key": "webhook_url", "label": "Webhook URL", "type": "password", "required": 0,
				"help": "The incoming webhook's address. Needed unless every recipient has a webhook URL of its own.",
			},
		],
	},
	{
		"service_name": NOTIFICATION,
		"title": "Site notification",
		"category": "Communication",
		"description": "Puts a notification in a user's notification list on this site (the bell). Recipients map names to users; "
		"a user's ID or email works too.",
		"documentation_url": "https://docs.frappe.io/framework/user/en/notifications",
		"recipient_label": "User",
		"required_credentials": [],
	},
]  # fmt: skip

FIELDS = ("title", "category", "description", "documentation_url", "recipient_label", "required_credentials")


def ensure_services() -> None:
	"""Insert the built-in services that are missing and update those whose fields the code changed."""
	for service in SERVICES:
		wanted = {**service, "required_credentials": json.dumps(service["required_credentials"], indent=1), "is_builtin": 1}
		name = service["service_name"]
		if not frappe.db.exists("Integration Service", name):
			frappe.get_doc({"doctype": "Integration Service", **wanted}).insert(ignore_permissions=True)
			continue
		doc = frappe.get_doc("Integration Service", name)
		if any(_same(doc.get(field), wanted[field]) is False for field in FIELDS) or not doc.is_builtin:
			doc.update(wanted)
			doc.save(ignore_permissions=True)


def _same(stored, wanted) -> bool:
	if isinstance(wanted, str) and wanted.startswith("["):
		try:
			return json.loads(stored or "[]") == json.loads(wanted)
		except ValueError:
			return False
	return (stored or "") == (wanted or "")


def schema_of(service: str) -> list[dict]:
	"""The credentials a service takes, as its row says (an unreadable value: none)."""
	raw = frappe.get_cached_value("Integration Service", service, "required_credentials")
	try:
		value = json.loads(raw) if isinstance(raw, str) else (raw or [])
	except ValueError:
		return []
	return [item for item in value if isinstance(item, dict) and item.get("key")] if isinstance(value, list) else []
