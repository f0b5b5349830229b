"""A flow's own webhook (the reference's ``huf.ai.flow.api.flow_webhook``): another system POSTs a
JSON object to ``/api/method/huf.ai.flow.api.flow_webhook?flow_id=<flow>`` with the secret of one of
the flow's Webhook trigger nodes in the ``X-Huf-Secret`` header, and the flow starts with the body
as its trigger payload (``context["trigger"]``), running as the person who created the flow.

Refused, in this order: more than 60 requests a minute from one address (429, counted before
anything else, see ``rate_limits.peer_address``); a secret in the address (400: addresses end up in
logs); a body over 64 KB (413); an unknown flow, a missing or wrong secret (the same 401, so nobody
learns which flows exist); a body that is not a JSON object (400); a flow that is not Active (409).
An ``Idempotency-Key`` header makes a retried delivery answer with the first Flow Run instead of
starting a second one (the agent webhook's markers, huf/ai/triggers/webhooks.py)."""

from __future__ import annotations

import hmac
import json

import frappe
from frappe import _
from frappe.utils import cstr
from werkzeug.wrappers import Response

from huf.ai.flow import definitions
from huf.ai.run.rate_limits import over_limit, peer_address
from huf.ai.triggers.webhooks import MAX_BODY_BYTES, accepted, acting_as, reply, taken_before
from huf.capabilities import open_to

ADDRESS_PER_MINUTE = 60
NOT_ACCEPTED = "Not accepted: check the flow's address and the secret sent in the X-Huf-Secret header."


@frappe.whitelist(allow_guest=True, methods=["POST"])
@open_to("A flow's webhook: anyone may deliver, and only a delivery with the trigger node's secret starts the flow.")
def flow_webhook(**_arguments) -> Response:
	"""Start the flow named by the ``flow_id`` query argument; 202 with the Flow Run's name. (Frappe
	also hands the JSON body over as arguments: the raw body is what counts here.)"""
	request = frappe.request
	wait = over_limit(f"flow_webhook_address:{peer_address()}", ADDRESS_PER_MINUTE, 60)
	if wait:
		return reply(429, {"error": _("Too many requests from this address; try again in {0} s.").format(wait)}, {"Retry-After": str(wait)})
	if "secret" in request.args:
		return reply(400, {"error": _("Send the secret in the X-Huf-Secret header, never in the address: addresses are written to logs.")})
	body = request.get_data(cache=True)
	if len(body) > MAX_BODY_BYTES:
		return reply(413, {"error": _("The body is {0} KB; a webhook takes up to {1} KB.").format(len(body) // 1024, MAX_BODY_BYTES // 1024)})
	flow = authentic(request.args.get("flow_id") or "", request.headers.get("X-Huf-Secret") or "")
	if not flow:
		return reply(401, {"error": _(NOT_ACCEPTED)})
	payload = json_object(body)
	if payload is None:
		return reply(400, {"error": _('The body must be a JSON object, e.g. {"lead": "L-0001"}.')})
	held: list[str] = []
	refusal = taken_before(f"flow:{flow.name}", request.headers.get("Idempotency-Key"), held, answer="flow_run")
	return refusal or start(flow, payload, held)


def authentic(flow_id: str, given: str) -> frappe._dict | None:
	"""The flow when ``given`` is the secret of one of its Webhook trigger nodes (each compared in
	constant time); None for a wrong or missing secret and for a flow that does not exist alike."""
	row = frappe.db.get_value("Flow Definition", flow_id, ["name", "owner", "definition_json"], as_dict=True) if flow_id else None
	if not row or not given:
		return None
	nodes = definitions.parsed(row.definition_json).get("nodes") or []
	secrets = [definitions.webhook_secret(row.name, str(node.get("id"))) or "" for node in nodes if node.get("type") == "trigger.webhook"]
	matched = [hmac.compare_digest(given.encode(), secret.encode()) for secret in secrets if secret]
	return row if any(matched) else None


def json_object(body: bytes) -> dict | None:
	if not body.strip():
		return {}
	try:
		found = json.loads(body)
	except ValueError:
		return None
	return found if isinstance(found, dict) else None


def start(flow, payload: dict, held: list[str]) -> Response:
	"""Start the flow as the person who created it; the Idempotency-Key marker ``held`` records the run."""
	from huf.ai.flow.triggered import start_triggered

	try:
		with acting_as(flow.owner, held):
			name = start_triggered(flow.name, payload, flow.owner, "Webhook")
	except (frappe.ValidationError, frappe.PermissionError) as error:  # not Active, or nobody it may run as
		frappe.db.rollback()
		frappe.clear_last_message()
		return reply(409, {"error": cstr(error)})
	return accepted(held, name, {"flow_run": name, "status": "Queued"})
