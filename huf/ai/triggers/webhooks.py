"""Webhook triggers: another system POSTs to
``/api/method/huf.ai.triggers.webhooks.receive?slug=<webhook slug>`` and the trigger's agent runs.

Authenticated by an HMAC-SHA256 signature of the timestamp and the raw body (``X-Huf-Timestamp``,
``X-Huf-Signature: sha256=<hex>``; older than five minutes is refused) or, for simple senders, by
the key itself in ``X-Huf-Webhook-Key``. Never by anything in the query string. A signed delivery
is taken once: sent again while its timestamp is still accepted, it is refused (409). Rate-limited
per sender address (the real peer, see ``rate_limits.peer_address``) before anything else, and per
trigger only once the delivery is authentic, so forged requests cannot use up a webhook's deliveries
(429 with Retry-After). An ``Idempotency-Key`` header makes a retried delivery answer with the first
run instead of starting a second one."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from contextlib import contextmanager

import frappe
from frappe import _
from werkzeug.wrappers import Response

from huf.ai.run.rate_limits import over_limit, peer_address
from huf.ai.triggers import identity
from huf.capabilities import open_to

MAX_BODY_BYTES = 64 * 1024
MAX_SKEW_SECONDS = 300
TRIGGER_PER_MINUTE = 60
ADDRESS_PER_MINUTE = 120
IDEMPOTENCY_SECONDS = 24 * 3600


def reply(status: int, body: dict, headers: dict | None = None) -> Response:
	return Response(json.dumps(body), status=status, headers=headers or {}, content_type="application/json")


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
@open_to("A webhook trigger: anyone may deliver, and only a delivery signed with the trigger's key starts a run.")
def receive(**_payload) -> Response:
	"""Start the webhook trigger named by the ``slug`` query argument; 202 with the queued run's id.
	(Frappe also hands the JSON body over as arguments: the raw body is what counts here.)"""
	request = frappe.request
	slug = request.args.get("slug") or ""
	wait = over_limit(f"webhook_address:{peer_address()}", ADDRESS_PER_MINUTE, 60)
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
	body = request.get_data(cache=True)
	if len(body) > MAX_BODY_BYTES:
		return reply(413, {"error": _("The body is {0} KB; a webhook takes up to {1} KB.").format(len(body) // 1024, MAX_BODY_BYTES // 1024)})
	mode = row.webhook_auth or "HMAC Signature"
	key = frappe.utils.password.get_decrypted_password("Agent Trigger", row.name, "webhook_key", raise_exception=False) or ""
	problem = signature_ok(key, request.headers, body, mode) if key else _("The webhook has no key set.")
	if problem:
		return reply(401, {"error": problem})
	held: list[str] = []  # Redis markers this delivery set: they record its run, or go if it is not taken
	refusal = (
		taken_before(row.name, request.headers.get("Idempotency-Key"), held)
		or (replayed(row.name, request.headers, held) if mode == "HMAC Signature" else None)
		or over_trigger_limit(row)
	)
	if refusal:
		release(held)
		return refusal
	return queue_delivery(row, slug, body, held)


def taken_before(trigger: str, idempotency_key: str | None, held: list[str], answer: str = "run") -> Response | None:
	"""A delivery whose Idempotency-Key was seen answers with the first delivery's run (under ``answer``)."""
	if not idempotency_key:
		return None
	marker = frappe.cache.make_key(f"huf:webhook_idem:{trigger}:{hashlib.sha256(idempotency_key.encode()).hexdigest()}")
	if frappe.cache.set(marker, "pending", nx=True, ex=IDEMPOTENCY_SECONDS):
		held.append(marker)
		return None
	first = frappe.safe_decode(frappe.cache.get(marker))
	if first == "pending":
		return reply(409, {"error": _("A delivery with this Idempotency-Key is still being taken; retry in a moment.")}, {"Retry-After": "2"})
	return reply(200, {answer: first, "status": "Queued", "replayed": True})


def replayed(trigger: str, headers, held: list[str]) -> Response | None:
	"""A signature is taken once: its marker lives as long as its timestamp is accepted. 409, not
	401: the sender's key is right, this exact delivery was already taken (one that only lost our
	answer should be retried with an Idempotency-Key, or signed again)."""
	stamp, signature = int(headers.get("X-Huf-Timestamp")), headers.get("X-Huf-Signature")[7:]
	marker = frappe.cache.make_key(f"huf:webhook_seen:{trigger}:{signature}")
	alive = max(1, stamp + MAX_SKEW_SECONDS + 1 - int(time.time()))
	if frappe.cache.set(marker, "pending", nx=True, ex=alive):
		held.append(marker)
		return None
	return reply(409, {"error": _("This signed delivery was already received. Sign each new delivery with its own X-Huf-Timestamp; to retry one safely, send an Idempotency-Key.")})


def over_trigger_limit(row) -> Response | None:
	limit = int((json.loads(row.metadata) if row.metadata else {}).get("rate_limit_per_minute") or TRIGGER_PER_MINUTE)
	wait = over_limit(f"webhook_trigger:{row.name}", limit, 60)
	if not wait:
		return None
	return reply(429, {"error": _("This webhook takes {0} deliveries a minute; try again in {1} s.").format(limit, wait)}, {"Retry-After": str(wait)})


def release(held: list[str]) -> None:
	if held:
		frappe.cache.delete(*held)


def queue_delivery(row, slug: str, body: bytes, held: list[str] | None = None, run_as: str | None = None) -> Response:
	"""Queue the trigger's run with the body in its message, as ``run_as`` (a test delivery: its
	sender) or the trigger's Run As; the markers ``held`` record the run."""
	from huf.ai.run.runs import queue_run
	from huf.ai.triggers.fire import MAX_SNAPSHOT_CHARS

	held = held or []
	text = body.decode("utf-8", errors="replace")
	try:
		text = json.dumps(json.loads(text), indent=1)
	except ValueError:
		pass
	prompt = f"Webhook {slug} received:\n```\n{text[:MAX_SNAPSHOT_CHARS]}\n```"
	with acting_as(run_as or identity.run_as(row.name, None), held):  # nobody signed in sent it
		queued = queue_run(row.agent, prompt, channel_id="trigger", external_id=row.name, trigger=row.name)
	return accepted(held, queued["run"], {"run": queued["run"], "status": "Queued"})


@contextmanager
def acting_as(user: str, held: list[str]):
	"""Start what a delivery asks for as ``user``; on any failure its Idempotency-Key is let go."""
	caller = frappe.session.user
	try:
		frappe.set_user(user)
		yield
	except Exception:
		release(held)
		raise
	finally:
		frappe.set_user(caller)


def accepted(held: list[str], run: str, body: dict) -> Response:
	"""Commit, remember ``run`` under the delivery's Idempotency-Key (a retry gets it back), 202."""
	frappe.db.commit()
	for marker in held:
		frappe.cache.set(marker, run, keepttl=True)
	return reply(202, body)
