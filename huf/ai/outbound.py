"""Where Huf may send requests inside the site's network.

Addresses a person or a model can aim go through the SSRF-safe client (``engine/safe_http.py``):
only public addresses, unless an administrator lists the host in ``huf_allowed_hosts`` in
site_config.json. The same list serves knowledge URLs, model servers (an AI Provider's API Base), HTTP tools and
MCP servers: pass ``allowed_hosts()`` as the engine client's ``allow``."""

from __future__ import annotations

from urllib.parse import urlparse, urlsplit

import frappe
from frappe import _

from huf.ai.engine.safe_http import resolve


def allowed_hosts() -> frozenset[str]:
	"""``huf_allowed_hosts`` in site_config.json: "host" or "host:port" entries an administrator lets
	Huf reach even though they are private addresses (an intranet wiki, a model server on the LAN)."""
	return frozenset(frappe.conf.get("huf_allowed_hosts") or ())


def check_model_server(url: str, provider: str) -> None:
	"""Refuse ``url`` (an AI Provider's API Base) when Huf may not send the provider's key there."""
	check_address(url, _("The API Base of the AI Provider {0}").format(frappe.bold(provider)), _("model requests and the provider's key"))


def check_address(url: str, subject: str, sent: str) -> None:
	"""Refuse ``url`` when its host is not found, or resolves to a non-public address that is not on
	the allow-list. ``subject`` names the address in the message, ``sent`` says what would go there."""
	parts = urlsplit(url)
	host = parts.hostname or ""
	port = parts.port or (443 if parts.scheme == "https" else 80)
	try:
		_ips, refused = resolve(host, port, allowed_hosts())
	except (OSError, UnicodeError):
		frappe.throw(
			_("{0} cannot be reached: the host {1} was not found. Check the address.").format(subject, frappe.bold(host)),
			title=_("Server Not Found"),
		)
	if refused:
		frappe.throw(
			_(
				"{0} points to {1}, a private network address. Huf sends {2} to such an address only when an administrator "
				"allows it: add {3} to huf_allowed_hosts in the site's site_config.json."
			).format(subject, refused[0], sent, frappe.bold(host)),
			title=_("Address Not Allowed"),
		)


def normalize_url(value: str | None, label: str) -> str | None:
	"""``value`` without surrounding spaces and trailing slashes; an error a Desk user can act on when
	it is not an http(s) URL. Empty stays empty."""
	value = (value or "").strip()
	if not value:
		return None
	parsed = urlparse(value)
	if parsed.scheme not in ("http", "https") or not parsed.netloc or " " in value:
		frappe.throw(
			_("{0} must be a full URL that starts with http:// or https://, e.g. http://localhost:11434. {1} is not.").format(
				label, frappe.bold(value)
			),
			title=_("Invalid URL"),
		)
	try:
		parsed.port  # noqa: B018 - raises ValueError for a port that is not a number
	except ValueError:
		frappe.throw(_("The port in {0} is not a number.").format(frappe.bold(value)), title=_("Invalid URL"))
	return value.rstrip("/")
