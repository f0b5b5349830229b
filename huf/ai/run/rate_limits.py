"""Limits for requests from people who do not sign in: webhook deliveries and guests' runs.

Counted per sender address, and the address is the socket's peer (REMOTE_ADDR), never a header the
sender writes: Frappe's ``frappe.local.request_ip`` trusts the first X-Forwarded-For entry, which
any client can set to a new value on every request. A site behind reverse proxies says how many sit
in front of it with the site config ``huf_trusted_proxies`` (1 for bench's nginx)."""

from __future__ import annotations

import math

import frappe
from frappe import _
from frappe.utils import cint

DEFAULT_GUEST_RUNS_PER_HOUR = 60


def peer_address() -> str | None:
	"""The address the request came from; None outside a web request.

	Each proxy appends the peer it saw to X-Forwarded-For, so with ``huf_trusted_proxies`` = N the
	sender is the N-th entry from the right; whatever the sender wrote itself stays further left."""
	request = getattr(frappe.local, "request", None)
	if not request:
		return None
	hops = cint(frappe.conf.get("huf_trusted_proxies"))
	if hops > 0:
		seen = [part.strip() for part in (request.headers.get("X-Forwarded-For") or "").split(",") if part.strip()]
		if len(seen) >= hops:
			return seen[-hops]
	return request.remote_addr or "unknown"


def over_limit(bucket: str, limit: int, seconds: int) -> int | None:
	"""Count one request in ``bucket``; seconds until its window ends when it is over ``limit``.

	The window starts with the bucket's first request. One MULTI sets it up and counts, so a window
	always has its expiry (a crash between the two steps would otherwise block the bucket forever)."""
	key = frappe.cache.make_key(f"huf:rate:{bucket}")
	pipe = frappe.cache.pipeline()
	pipe.set(key, 0, ex=seconds, nx=True)
	pipe.incr(key)
	pipe.ttl(key)
	_created, count, ttl = pipe.execute()
	return max(1, ttl) if count > limit else None


def check_guest_run() -> None:
	"""A guest (on an agent that allows guests) starts at most Agent Settings' Guest Runs per Hour
	from one address; over it, RateLimitExceededError (HTTP 429, with Retry-After)."""
	if frappe.session.user != "Guest" or not (address := peer_address()):
		return
	limit = cint(frappe.db.get_single_value("Agent Settings", "guest_runs_per_hour")) or DEFAULT_GUEST_RUNS_PER_HOUR
	wait = over_limit(f"guest_run:{address}", limit, 3600)
	if wait:
		frappe.flags.huf_retry_after = wait
		frappe.throw(
			_("Too many messages from your network: without signing in, {0} messages an hour can be sent. Try again in {1} minutes, or sign in.").format(
				limit, math.ceil(wait / 60)
			),
			frappe.RateLimitExceededError,
			title=_("Please wait a little"),
		)


def add_retry_after(response=None, request=None) -> None:
	"""``after_request`` hook: a refusal above sets how long to wait; the answer carries it."""
	if response is not None and frappe.flags.get("huf_retry_after"):
		response.headers["Retry-After"] = str(frappe.flags.huf_retry_after)
