"""Which Integration Settings a message goes through, to whom, and with which credentials.

Read without a permission check on purpose: the run's user sends through the settings an admin set
up (as a run uses its AI Provider's key) but may not read them; credentials are decrypted here, for
the one call, and never returned, logged or shown to the model."""

from __future__ import annotations

from dataclasses import dataclass

import frappe
from frappe import _
from frappe.utils.password import get_decrypted_password

from huf.ai.engine.tools import ToolError

ADD_THEM = "An admin can add them on the Integrations page of Huf."


@dataclass(frozen=True)
class Recipient:
	name: str
	recipient_id: str
	row: str | None = None  # the Integration Recipient row (its own webhook URL), None for a direct address


ANYONE = None  # who sends outside a run (a test message, another app's code): no agent to check


def find_settings(service: str, sender: str | None = ANYONE):
	"""The active Integration Settings for ``service``: a service name (its settings marked default,
	else the only active one) or one settings' title, case-insensitive. ``sender``: the agent a run
	sends for ("" for a flow's tool step, ``ANYONE`` outside a run). Settings that list Allowed Agents
	are for those agents only; settings that list none are for every sender."""
	wanted = (service or "").strip()
	rows = _active(sender)
	if not wanted:
		raise ToolError(_("Say which integration to use: {0}.").format(_known_services(rows)))
	by_title = [row for row in rows if row.name.lower() == wanted.lower()]
	if by_title:
		return _usable(by_title[0], sender)
	of_service = [row for row in rows if row.service.lower() == wanted.lower()]
	if not of_service:
		if not frappe.db.exists("Integration Service", wanted):
			raise ToolError(_("There is no integration named {0}. Use one of: {1}.").format(wanted, _known_services(rows)))
		raise ToolError(
			_("The integration service {0} has no active settings, so nothing can be sent through it. {1}").format(wanted, ADD_THEM)
		)
	usable = [row for row in of_service if row.allowed]
	if not usable:
		raise _refused(_("Every active integration of the service {0}").format(wanted), sender)
	chosen = [row for row in usable if row.is_default] or (usable if len(usable) == 1 else [])
	if not chosen:
		names = ", ".join(row.name for row in usable)
		raise ToolError(
			_("The service {0} has several settings and none is the default. Pass one of these as service: {1}.").format(wanted, names)
		)
	return _usable(chosen[0], sender)


def _active(sender: str | None) -> list:
	"""The active settings, each with ``allowed``: whether ``sender`` may send through them."""
	rows = frappe.get_all(
		"Integration Settings", filters={"is_active": 1}, fields=["name", "service", "is_default"], order_by="creation asc"
	)
	listed: dict[str, set[str]] = {}
	if sender is not ANYONE:  # outside a run every active settings may be used: nothing to read
		for row in frappe.get_all(
			"Integration Allowed Agent", filters={"parenttype": "Integration Settings"}, fields=["parent", "agent"]
		):
			listed.setdefault(row.parent, set()).add(row.agent)
	for row in rows:
		agents = listed.get(row.name)
		row.allowed = not agents or sender in agents
	return rows


def _usable(row, sender: str | None):
	if not row.allowed:
		raise _refused(_("The integration {0}").format(row.name), sender)
	return frappe.get_doc("Integration Settings", row.name)


def _refused(what: str, sender: str | None) -> ToolError:
	who = _("the agent {0}").format(sender) if sender else _("a flow")
	return ToolError(
		_("{0} is kept for the agents an admin chose, and {1} is not one of them. An admin can allow it on the Integrations page of Huf.").format(what, who)
	)


def _known_services(rows: list) -> str:
	rows = [row for row in rows if row.allowed]
	if not rows:
		return _("none is set up yet. {0}").format(ADD_THEM)
	services = sorted({row.service for row in rows})
	return ", ".join(services + sorted(row.name for row in rows if row.name not in services))


def recipient(settings, wanted: str, direct=None) -> Recipient:
	"""The recipient named ``wanted`` (case-insensitive); else ``direct(wanted)`` when the service
	takes addresses directly (it returns the id, or None). The error lists the known names."""
	text = (wanted or "").strip()
	for row in settings.recipients:
		if (row.recipient_name or "").strip().lower() == text.lower():
			return Recipient(row.recipient_name, (row.recipient_id or "").strip(), row.name if row.webhook_url else None)
	found = direct(text) if direct and text else None
	if found:
		return Recipient(text, found)
	known = ", ".join(row.recipient_name for row in settings.recipients) or _("none yet")
	raise ToolError(
		_("There is no recipient named {0} in the integration {1}. Known recipients: {2}.").format(text or '""', settings.name, known)
	)


def credential(settings, key: str) -> str | None:
	"""The credential ``key`` of ``settings``, decrypted for this call (None when it is not set)."""
	for row in settings.credentials:
		if row.key == key and row.value:
			return get_decrypted_password("Integration Credential", row.name, "value", raise_exception=False) or None
	return None


def own_webhook_url(row: str | None) -> str | None:
	if not row:
		return None
	return get_decrypted_password("Integration Recipient", row, "webhook_url", raise_exception=False) or None


def missing(settings, what: str) -> ToolError:
	return ToolError(_("The integration {0} has no {1}. {2}").format(settings.name, what, ADD_THEM))
