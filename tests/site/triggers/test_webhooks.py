"""Webhook triggers through the real web server: signed deliveries start a run; a bad signature,
an old timestamp, a key in the query string, an oversized body, a replayed Idempotency-Key or
signed delivery, forged floods and floods from rotating X-Forwarded-For values each get their
status and start nothing extra."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid

import frappe
import pytest
import requests

from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.triggers.test_triggers import trigger_runs, triggers  # noqa: F401 - shared fixture
from tests.support.scripted_llm import text

KEY = "whsec-0123456789abcdef0123456789"


@pytest.fixture(autouse=True)
def fresh_limits(site):
	"""Rate windows last a minute: a test run right after another must not inherit its counts."""
	frappe.cache.delete_keys("huf:rate:webhook_")


PATH = "/api/method/huf.ai.triggers.webhooks.receive"


def signed(body: bytes, key: str = KEY, stamp: int | None = None) -> dict:
	stamp = int(time.time()) if stamp is None else stamp
	signature = hmac.new(key.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
	return {"X-Huf-Timestamp": str(stamp), "X-Huf-Signature": f"sha256={signature}", "Content-Type": "application/json"}


def deliver(web, slug: str, body: bytes, headers: dict, **params):
	return requests.post(web.base + PATH, params={"slug": slug, **params}, data=body, headers={**web.site_header(), **headers}, timeout=30)


def test_a_signed_delivery_starts_the_agent_with_the_payload(site, llm, workers, web, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="new-orders", webhook_key=KEY)
	llm.script(text("order noted"))
	workers.start(1)
	body = json.dumps({"order": "SO-77", "total": 120.5}).encode()
	answer = deliver(web, "new-orders", body, signed(body))
	assert answer.status_code == 202, answer.text
	run = answer.json()["run"]
	wait_for(lambda: frappe.db.get_value("Agent Run", run, "status") == "Success", message="the webhook run")
	prompt = frappe.db.get_value("Agent Run", run, "prompt")
	assert prompt.startswith("Webhook new-orders received:") and '"order": "SO-77"' in prompt


def test_deliveries_that_are_not_authentic_start_nothing(site, llm, web, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Guarded Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="guarded", webhook_key=KEY)
	triggers(agent, trigger_type="Webhook", webhook_slug="simple", webhook_key=KEY, webhook_auth="Secret Header")
	body = b'{"order": "SO-1"}'
	cases = [
		(deliver(web, "guarded", body, signed(body, key="not-the-key")), 401, "does not match"),
		(deliver(web, "guarded", body, signed(body, stamp=int(time.time()) - 600)), 401, "five minutes"),
		(deliver(web, "guarded", body, {"Content-Type": "application/json"}, key=KEY), 401, "X-Huf-Timestamp"),  # a key in the URL counts for nothing
		(deliver(web, "guarded", b'{"order": "SO-2"}', signed(body)), 401, "does not match"),  # signature of another body
		(deliver(web, "simple", body, {"X-Huf-Webhook-Key": "wrong", "Content-Type": "application/json"}), 401, "missing or wrong"),
		(deliver(web, "nobody-home", body, signed(body)), 404, "No enabled webhook"),
	]
	for answer, status, says in cases:
		assert answer.status_code == status and says in answer.json()["error"], answer.text
	assert not trigger_runs(agent)
	ok = deliver(web, "simple", body, {"X-Huf-Webhook-Key": KEY, "Content-Type": "application/json"})
	assert ok.status_code == 202, ok.text


def test_retries_floods_and_oversized_bodies(site, llm, web, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Busy Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="busy", webhook_key=KEY, metadata=json.dumps({"rate_limit_per_minute": 3}))
	body = b'{"event": "ping"}'
	delivery = f"delivery-{uuid.uuid4()}"
	first = deliver(web, "busy", body, {**signed(body), "Idempotency-Key": delivery})
	again = deliver(web, "busy", body, {**signed(body), "Idempotency-Key": delivery})
	assert first.status_code == 202 and again.status_code == 200
	assert again.json() == {"run": first.json()["run"], "status": "Queued", "replayed": True}
	big = json.dumps({"blob": "x" * 70_000}).encode()
	assert deliver(web, "busy", big, signed(big)).status_code in (413, 429)
	bodies = [json.dumps({"event": "ping", "n": n}).encode() for n in range(3)]  # each its own delivery
	answers = [deliver(web, "busy", b, signed(b)) for b in bodies]
	flooded = answers[-1]
	assert flooded.status_code == 429 and 1 <= int(flooded.headers["Retry-After"]) <= 60
	assert len(trigger_runs(agent)) == 1 + sum(a.status_code == 202 for a in answers)
	assert len(trigger_runs(agent)) <= 3  # never more than the limit allows in a minute


def test_an_oversized_body_is_refused_with_413(site, llm, web, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Big Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="big-one", webhook_key=KEY)
	big = json.dumps({"blob": "x" * 70_000}).encode()
	answer = deliver(web, "big-one", big, signed(big))
	assert answer.status_code == 413 and "up to 64 KB" in answer.json()["error"]
	assert not trigger_runs(agent)


def test_the_form_gives_the_address_and_sends_a_signed_test(site, llm, triggers):  # noqa: F811
	from huf.ai.triggers.api import get_trigger_overview, send_test_delivery
	from tests.site.conftest import as_user, make_user

	agent = fixtures.agent(llm, name="Testable Webhook Agent")
	name = triggers(agent, trigger_type="Webhook", webhook_slug="testable", webhook_key=KEY)
	assert get_trigger_overview(name)["webhook_url"].endswith("/api/method/huf.ai.triggers.webhooks.receive?slug=testable")
	queued = send_test_delivery(name)
	assert queued["status"] == "Queued" and '"test": true' in frappe.db.get_value("Agent Run", queued["run"], "prompt")
	with as_user(make_user("webhook-viewer@huf.test", ["Huf User"])), pytest.raises(frappe.PermissionError):
		send_test_delivery(name)


def test_forged_deliveries_do_not_use_up_the_webhooks_limit(site, llm, web, triggers):  # noqa: F811
	"""The trigger's limit is spent only by authentic deliveries: a flood of forged ones is refused
	(401) and the sender with the key still gets through."""
	agent = fixtures.agent(llm, name="Forged Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="forged", webhook_key=KEY, metadata=json.dumps({"rate_limit_per_minute": 3}))
	body = b'{"event": "ping"}'
	for attempt in range(10):
		headers = signed(body, key="guessed-key") if attempt % 2 else {"Content-Type": "application/json"}
		assert deliver(web, "forged", body, headers).status_code == 401
	answer = deliver(web, "forged", body, signed(body))
	assert answer.status_code == 202, answer.text
	assert len(trigger_runs(agent)) == 1


def test_a_replayed_signed_delivery_is_refused_and_runs_nothing(site, llm, web, triggers):  # noqa: F811
	agent = fixtures.agent(llm, name="Replayed Webhook Agent")
	triggers(agent, trigger_type="Webhook", webhook_slug="replayed", webhook_key=KEY, metadata=json.dumps({"rate_limit_per_minute": 2}))
	body = b'{"order": "SO-9"}'
	now = int(time.time())
	captured = signed(body, stamp=now)
	assert deliver(web, "replayed", body, captured).status_code == 202
	again = deliver(web, "replayed", body, captured)
	assert again.status_code == 409 and "already received" in again.json()["error"], again.text
	assert len(trigger_runs(agent)) == 1
	# Signed again (its own timestamp), the same body is a new delivery.
	assert deliver(web, "replayed", body, signed(body, stamp=now - 1)).status_code == 202
	# A delivery refused for the rate limit was not taken: sent again it meets the limit, not "already received".
	late = signed(body, stamp=now - 2)
	assert deliver(web, "replayed", body, late).status_code == 429
	assert deliver(web, "replayed", body, late).status_code == 429
	assert len(trigger_runs(agent)) == 2


@pytest.fixture
def trusted_proxies(site):
	from frappe.installer import update_site_config

	def trust(count: int) -> None:
		update_site_config("huf_trusted_proxies", count)  # the web server reads the site config per request

	yield trust
	update_site_config("huf_trusted_proxies", "None")


def test_the_address_limit_counts_the_real_peer_not_x_forwarded_for(site, web, trusted_proxies):
	from huf.ai.triggers.webhooks import ADDRESS_PER_MINUTE

	with requests.Session() as session:

		def status(forwarded_for: str) -> int:
			headers = {**web.site_header(), "X-Forwarded-For": forwarded_for, "Content-Type": "application/json"}
			return session.post(web.base + PATH, params={"slug": "nobody-home"}, data=b"{}", headers=headers, timeout=30).status_code

		# Straight from the sender: whatever it writes in X-Forwarded-For, it is one address.
		answers = [status(f"203.0.113.{i % 250}") for i in range(ADDRESS_PER_MINUTE + 1)]
		assert answers[:-1] == [404] * ADDRESS_PER_MINUTE and answers[-1] == 429
		# Behind one proxy, the sender is the address the proxy appended, not what the sender wrote before it.
		trusted_proxies(1)
		answers = [status(f"203.0.113.{i % 250}, 198.51.100.7") for i in range(ADDRESS_PER_MINUTE + 1)]
		assert answers[:-1] == [404] * ADDRESS_PER_MINUTE and answers[-1] == 429
		assert status("198.51.100.8") == 404  # another sender behind the same proxy has its own count
