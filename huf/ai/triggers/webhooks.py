"""Webhook triggers: another system POSTs to
``/api/method/huf.ai.triggers.webhooks.receive?slug=<webhook slug>`` and the trigger's agent runs.

Authenticated by an HMAC-SHA256 signature of the timestamp and the raw body (``X-Huf-Timestamp``,
``X-Huf-Signature: sha256=<hex>``; older than five minutes is refused) or, for simple senders, by
the key itself in ``X-Huf-Webhook-Key``. Never by anything in the query string. Rate-limited per
trigger and per sender address (429 with Retry-After). An ``Idempotency-Key`` header makes a
retried delivery answer with the first run instead of starting a second one."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import frappe
from frappe import _
from werkzeug.wrappers import Response

from huf.ai.triggers import identity

MAX_BODY_BYTES = 64 * 1024
MAX_SKEW_SECONDS = 300
TRIGGER_PER_MINUTE = 60
ADDRESS_PER_MINUTE = 120
IDEMPOTENCY_SECONDS = 24 * 3600


def reply(status: int, body: dict, headers: dict | None = None) -> Response:
	return Response(json.dumps(body), status=status, headers=headers or {}, content_type="application/json")


def over_limit(bucket: str, limit: int) -> int | None:
	"""Seconds until the window frees up when ``bucket`` is over ``limit`` requests this minute."""
	window = int(time.time() // 60)
	key = frappe.cache.make_key(f"huf:webhook_rate:{bucket}:{window}")
	count = frappe.cache.incr(key)
	if count == 1:
		frappe.cache.expire(key, 120)
	return 60 - int(time.time() % 60) if count > limit else None


def signature_ok(key: str, headers, body: bytes, mode: str) -> str | None:
	"""None when the delivery is authentic; otherwise what is wrong, for the sender's log."""
	if mode == "Secret Header":
		given = headers.get("X-Huf-Webhook-Key") or ""
		return None if given and hmac.compare_digest(given.encode(), key.encode()) else _("The X-Huf-Webhook-Key header is missing or wrong.")
	stamp, signature = headers.get("X-Huf-Timestamp") or "", headers.get("X-Huf-Signature") or ""
	if not stamp.isdigit() or not signature.startswith("sha256="):
		return _("Send X-Huf-Timestamp (Unix seconds) and X-Huf-Signature (sha256=<hex HMAC of timestamp.body>).")
	if abs(time.time() - int(stamp)) > MAX_SKEW_SECONDS:
		return _("The timestamp is more than five minutes off; sign each delivery when it is sent.")
	expected = hmac.new(key.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
	return None if hmac.compare_digest(signature[7:], expected) else _("The signature does not match the body.")


@frappe.whitelist(allow_guest=True, methods=["POST"])
def receive(**_payload) -> Response:
	"""Start the webhook trigger named by the ``slug`` query argument; 202 with the queued run's id.
	(Frappe also hands the JSON body over as arguments: the raw body is what counts here.)"""
	request = frappe.request
	slug = request.args.get("slug") or ""
	address = request.headers.get("X-Forwarded-For", request.remote_addr or "").split(",")[0].strip()
	wait = over_limit(f"ip:{address}", ADDRESS_PER_MINUTE)
	if wait:
		return reply(429, {"error": _("Too many deliveries from this address; try again in {0} s.").format(wait)}, {"Retry-After": str(wait)})
	row = frappe.db.get_value(
		"Agent Trigger",
		{"webhook_slug": slug, "trigger_type": "Webhook", "disabled": 0},
		["name", "agent", "webhook_auth", "metadata"],
		as_dict=True,
	)
	if not row:
		return reply(404, {"error": _("No enabled webhook has this address.")})
	limit = int((json.loads(row.metadata) if row.metadata else {}).get("rate_limit_per_minute") or TRIGGER_PER_MINUTE)
	wait = over_limit(f"trigger:{row.name}", limit)
	if wait:
		return reply(429, {"error": _("This webhook takes {0} deliveries a minute; try again in {1} s.").format(limit, wait)}, {"Retry-After": str(wait)})
	body = request.get_data(cache=True)
	if len(body) > MAX_BODY_BYTES:
		return reply(413, {"error": _("The body is {0} KB; a webhook takes up to {1} KB.").format(len(body) // 1024, MAX_BODY_BYTES // 1024)})
	key = frappe.utils.password.get_decrypted_password("Agent Trigger", row.name, "webhook_key", raise_exception=False) or ""
	problem = signature_ok(key, request.headers, body, row.webhook_auth or "HMAC Signature") if key else _("The webhook has no key set.")
	if problem:
		return reply(401, {"error": problem})
	return queue_delivery(row, slug, body, request.headers.get("Idempotency-Key"))


def queue_delivery(row, slug: str, body: bytes, idempotency_key: str | None, run_as: str | None = None) -> Response:
	"""Queue the delivery's run as ``run_as`` (a test delivery: its sender) or the trigger's Run As."""
	from huf.ai.runs import queue_run
	from huf.ai.triggers.fire import MAX_SNAPSHOT_CHARS

	marker = None
	if idempotency_key:
		marker = frappe.cache.make_key(f"huf:webhook_idem:{row.name}:{hashlib.sha256(idempotency_key.encode()).hexdigest()}")
		if not frappe.cache.set(marker, "pending", nx=True, ex=IDEMPOTENCY_SECONDS):
			first = frappe.safe_decode(frappe.cache.get(marker))
			if first == "pending":
				return reply(409, {"error": _("A delivery with this Idempotency-Key is still being taken; retry in a moment.")}, {"Retry-After": "2"})
			return reply(200, {"run": first, "status": "Queued", "replayed": True})
	text = body.decode("utf-8", errors="replace")
	try:
		text = json.dumps(json.loads(text), indent=1)
	except ValueError:
		pass
	prompt = f"Webhook {slug} received:\n```\n{text[:MAX_SNAPSHOT_CHARS]}\n```"
	caller = frappe.session.user
	try:
		frappe.set_user(run_as or identity.run_as(row.name, None))  # nobody signed in sent it
		queued = queue_run(row.agent, prompt, channel_id="trigger", external_id=row.name, trigger=row.name)
	except Exception:
		if marker:
			frappe.cache.delete(marker)
		raise
	finally:
		frappe.set_user(caller)
	frappe.db.commit()
	if marker:
		frappe.cache.set(marker, queued["run"], ex=IDEMPOTENCY_SECONDS)
	return reply(202, {"run": queued["run"], "status": "Queued"})
