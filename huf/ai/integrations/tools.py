"""The tools ``send_message`` and ``notify`` (declared in ``huf/ai/tools/builtin.py``). Flows send
through the same tools (a flow's tool step builds them with ``tools.build_tool``). The Agent Tool
Call row records each call; the result is a short summary with the queue, message or notification
id, never a credential."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.tools import ToolError
from huf.ai.integrations import senders
from huf.ai.integrations import settings as found
from huf.ai.integrations.catalog import EMAIL, NOTIFICATION, WEBHOOK

SENDERS = {EMAIL: senders.send_email, WEBHOOK: senders.post_webhook}


def send_message(service: str, recipient: str, text: str, subject: str | None = None) -> dict:
	"""Send a message through an integration an admin set up (email, a chat webhook, a site notification).

	Args:
		service: The integration: a service (email, webhook, frappe_notification) or the name of its settings.
		recipient: A recipient's name as the integration's settings list it, e.g. Sales team.
		text: The message.
		subject: A subject line (email) or heading (chat, notification).
	"""
	text = senders.checked_text(text)
	settings = found.find_settings(service, _sender())
	if settings.service == NOTIFICATION:
		to, user = _site_recipient(settings, recipient, direct=senders.site_user)
		result = senders.notify_user(user, text, subject)
	elif settings.service in SENDERS:
		to = found.recipient(settings, recipient)
		result = SENDERS[settings.service](settings, to, text, subject)
	else:
		raise ToolError(_("Huf cannot send through the service {0} yet: only email, webhook and frappe_notification.").format(settings.service))
	return {**result, "service": settings.service, "integration": settings.name, "recipient": to.name}


def notify(user: str, text: str, subject: str | None = None) -> dict:
	"""Put a notification in a site user's notification list (the bell).

	Args:
		user: The user's ID or email, or a recipient's name from the site notification integration.
		text: The notification's text.
		subject: Its heading; the first line of the text when empty.
	"""
	text = senders.checked_text(text)
	person = senders.site_user(user)
	if not person:
		person = _mapped(user)
	return {**senders.notify_user(person, text, subject), "service": NOTIFICATION}


def _sender() -> str | None:
	"""The agent whose run calls the tool ("" for a flow's tool step); ANYONE outside a run."""
	ctx = frappe.flags.get("huf_tool_context")
	return ctx.agent if ctx is not None else found.ANYONE


def _mapped(user: str) -> str:
	"""A recipient's name from the site notification settings, when there are any."""
	try:
		settings = found.find_settings(NOTIFICATION, _sender())
	except ToolError:
		raise ToolError(_("There is no active user {0} on this site. Pass a user's ID or email.").format(user or '""')) from None
	return _site_recipient(settings, user)[1]


def _site_recipient(settings, name: str, direct=None):
	"""The recipient ``name`` of the site notification ``settings`` and its active user."""
	to = found.recipient(settings, name, direct=direct)
	user = senders.site_user(to.recipient_id)
	if not user:
		raise ToolError(_("The recipient {0} of {1} is not an active user of this site.").format(to.name, settings.name))
	return to, user
