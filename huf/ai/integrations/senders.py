"""One sender per built-in service. Each returns a short summary of what was sent (never a
credential) and raises ToolError, in words the model can act on, when it cannot send."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import escape_html, validate_email_address

from huf.ai.engine import safe_http
from huf.ai.engine.effects import IDEMPOTENCY_HEADER, idempotency_key
from huf.ai.engine.tools import ToolError
from huf.ai.integrations import settings as found
from huf.ai.outbound import allowed_hosts

WEBHOOK_TIMEOUT = 10.0  # seconds a webhook may stay silent
WEBHOOK_DEADLINE = 20.0  # seconds a whole webhook post may take
MAX_ANSWER = 64 * 1024  # bytes of a webhook's answer read
MAX_TEXT = 40_000  # characters of a message


def checked_text(text: str) -> str:
	text = (text or "").strip()
	if not text:
		raise ToolError(_("The message is empty. Pass the text to send."))
	if len(text) > MAX_TEXT:
		raise ToolError(_("The message is {0} characters long; at most {1} can be sent.").format(len(text), MAX_TEXT))
	return text


def send_email(settings, to: found.Recipient, text: str, subject: str | None) -> dict:
	address = validate_email_address(to.recipient_id)
	if not address:
		raise ToolError(_("The recipient {0} of {1} has no valid email address. {2}").format(to.name, settings.name, found.ADD_THEM))
	account = found.credential(settings, "email_account")
	sender = None
	if account:
		sender = frappe.db.get_value("Email Account", {"name": account, "enable_outgoing": 1}, "email_id")
		if not sender:
			raise ToolError(
				_("The email account {0} set in {1} does not exist or does not send email. {2}").format(account, settings.name, found.ADD_THEM)
			)
	body = "<br>".join(escape_html(line) for line in text.splitlines())
	try:
		queued = frappe.sendmail(
			recipients=[address], sender=sender or "", subject=subject or _("Message from Huf"), message=body,
			delayed=True, expose_recipients="header",
		)  # fmt: skip
	except frappe.OutgoingEmailError:
		raise ToolError(_("This site has no outgoing email account to send from. An admin must set one up first.")) from None
	if not queued:
		raise ToolError(_("The email to {0} was not queued: the address unsubscribed or was refused.").format(to.name))
	return {"sent": True, "queued": True, "queue_id": queued.name, "to": address}


def post_webhook(settings, to: found.Recipient, text: str, subject: str | None) -> dict:
	"""POST ``{"text": ...}`` (and ``channel`` when the recipient names one) to the recipient's own
	webhook URL, else the settings' one, through the SSRF-safe client. The URL is a secret (a
	Slack webhook's path is its key): no message here carries it."""
	own = found.own_webhook_url(to.row)
	url = own or found.credential(settings, "webhook_url")
	if not url:
		raise found.missing(settings, _("webhook URL"))
	payload: dict = {"text": f"*{subject}*\n{text}" if subject else text}
	if to.recipient_id and not own:
		payload["channel"] = to.recipient_id
	message_id = _message_id()
	try:
		answer = safe_http.request(
			"POST", url, allow=allowed_hosts(), max_bytes=MAX_ANSWER, json=payload, headers={IDEMPOTENCY_HEADER: message_id},
			timeout=WEBHOOK_TIMEOUT, deadline=WEBHOOK_DEADLINE, max_redirects=0,
		)  # fmt: skip
	except safe_http.SafeHTTPError as error:
		raise ToolError(_webhook_failure(settings, error)) from None
	if answer.status >= 400:
		said = answer.body[:300].decode("utf-8", "replace").strip()
		raise ToolError(
			_("The webhook of {0} answered {1}; the message was not posted.{2}").format(
				settings.name, answer.status, f" It said: {said}" if said else ""
			)
		)
	return {"sent": True, "status": answer.status, "message_id": message_id, "to": to.name}


def _webhook_failure(settings, error: safe_http.SafeHTTPError) -> str:
	reasons = {
		"deadline": _("took longer than {0:g} seconds; the message may not have been posted").format(WEBHOOK_DEADLINE),
		"timeout": _("did not answer within {0:g} seconds; the message may not have been posted").format(WEBHOOK_TIMEOUT),
		"invalid": _("is not a web address that starts with http:// or https://"),
		"refused": _("points to a private network address, which Huf does not post to unless an administrator allows it"),
		"not_found": _("could not be reached: its host was not found"),
		"redirects": _("answered with a redirect, which Huf does not follow for a webhook"),
		"tls": _("could not be reached securely: its certificate was not accepted"),
		"too_large": _("answered with more than {0} KB; the message was probably posted").format(MAX_ANSWER // 1024),
	}
	reason = reasons.get(error.kind) or _("could not be reached ({0})").format(error.kind)
	return _("The webhook of {0} {1}. {2}").format(settings.name, reason, _("An admin can check it on the Integrations page of Huf."))


def _message_id() -> str:
	"""The run and the model's call id when there is one (the same on a retry), else a fresh id."""
	ctx = frappe.flags.get("huf_tool_context")
	call = ctx.tool_call_id if ctx else None
	return idempotency_key(ctx.run, call) if ctx and call else idempotency_key("msg", frappe.generate_hash(length=12))


def notify_user(user: str, text: str, subject: str | None) -> dict:
	"""A Notification Log for ``user`` (a site user's ID or email), from the run's user."""
	log = frappe.get_doc(
		{
			"doctype": "Notification Log", "for_user": user, "from_user": frappe.session.user, "type": "Alert",
			"subject": escape_html(subject or text.splitlines()[0][:140]), "email_content": escape_html(text),
		}
	)  # fmt: skip
	log.insert(ignore_permissions=True)  # Frappe's own notifications do the same: the log belongs to its reader
	return {"sent": True, "notification_id": log.name, "to": user}


def site_user(value: str) -> str | None:
	"""The enabled user whose ID or email is ``value``."""
	value = (value or "").strip()
	if not value:
		return None
	return frappe.db.get_value("User", {"name": value, "enabled": 1}) or frappe.db.get_value("User", {"email": value, "enabled": 1})
