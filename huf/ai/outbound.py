"""Where Huf may send requests inside the site's network.

Addresses a person or a model can aim go through the SSRF-safe client (``engine/safe_http.py``):
only public addresses, unless an administrator lists the host in ``huf_allowed_hosts`` in
site_config.json. The same list serves knowledge URLs, model servers (an AI Provider's API Base), HTTP tools and
MCP servers: pass ``allowed_hosts()`` as the engine client's ``allow``."""

from __future__ import annotations

from urllib.parse import urlsplit

import frappe
from frappe import _

from huf.ai.engine.safe_http import resolve


def allowed_hosts() -> frozenset[str]:
	"""``huf_allowed_hosts`` in site_config.json: "host" or "host:port" entries an administrator lets
	Huf reach even though they are private addresses (an intranet wiki, a model server on the LAN)."""
	return frozenset(frappe.conf.get("huf_allowed_hosts") or ())


def check_model_server(url: str, provider: str) -> None:
	"""Refuse ``url`` (an AI Provider's API Base) when its host is not found, or resolves to a
	non-public address that is not on the allow-list: the provider's key would be sent there."""
	parts = urlsplit(url)
	host = parts.hostname or ""
	port = parts.port or (443 if parts.scheme == "https" else 80)
	try:
		_ips, refused = resolve(host, port, allowed_hosts())
	except (OSError, UnicodeError):
		frappe.throw(
			_("The API Base of the AI Provider {0} cannot be reached: the host {1} was not found. Check the address.").format(
				frappe.bold(provider), frappe.bold(host)
			),
			title=_("Server Not Found"),
		)
	if refused:
		frappe.throw(
			_(
				"The API Base of the AI Provider {0} points to {1}, a private network address. Huf sends model requests and "
				"the provider's key to such an address only when an administrator allows it: add {2} to huf_allowed_hosts "
				"in the site's site_config.json."
			).format(frappe.bold(provider), refused[0], frappe.bold(host)),
			title=_("Address Not Allowed"),
		)
