"""People who do not sign in, through the real web server: on an agent that allows guests they start
at most Agent Settings' Guest Messages per Hour from one address, whatever X-Forwarded-For says,
over run_agent_sync and over /huf/stream alike; signed-in people are not counted."""

from __future__ import annotations

import json

import frappe
import pytest
import requests

from tests.site import fixtures

RUN = "/api/method/huf.ai.agent.integration.run_agent_sync"


@pytest.fixture
def guest_limit(site):
	frappe.cache.delete_keys("huf:rate:guest_run:")
	frappe.db.set_single_value("Agent Settings", "guest_runs_per_hour", 3)
	frappe.db.commit()
	yield 3
	frappe.db.set_single_value("Agent Settings", "guest_runs_per_hour", 0)
	frappe.db.commit()
	frappe.cache.delete_keys("huf:rate:guest_run:")


def as_guest(web, n: int) -> dict:
	"""A visitor's request that claims a new address each time (a header anyone can write)."""
	return {**web.site_header(), "X-Forwarded-For": f"203.0.113.{n}"}


def test_guests_get_a_run_rate_limit_per_address(site, llm, web, guest_limit):
	agent = fixtures.agent(llm, name="Public Help Agent", allow_guest=1)
	frappe.db.commit()
	answers = [requests.post(web.base + RUN, json={"agent_name": agent, "prompt": "hello"}, headers=as_guest(web, n), timeout=30) for n in range(guest_limit + 1)]
	assert [a.status_code for a in answers[:-1]] == [200] * guest_limit, [a.text for a in answers]
	refused = answers[-1]
	assert refused.status_code == 429, refused.text
	assert 1 <= int(refused.headers["Retry-After"]) <= 3600
	message = json.loads(json.loads(refused.json()["_server_messages"])[0])["message"]
	assert "Too many messages from your network" in message and "sign in" in message
	frappe.db.commit()
	assert frappe.db.count("Agent Run", {"agent": agent}) == guest_limit  # the refused message started nothing

	stream = requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "hello"}, headers=as_guest(web, 99), timeout=30)
	assert stream.status_code == 429 and stream.text.startswith("event: error")
	assert "Too many messages from your network" in json.loads(stream.text.split("data: ", 1)[1])["message"]
	assert 1 <= int(stream.headers["Retry-After"]) <= 3600

	signed_in = requests.post(web.base + RUN, json={"agent_name": agent, "prompt": "hello"}, headers=web.token_headers("Administrator"), timeout=30)
	assert signed_in.status_code == 200, signed_in.text  # people who sign in are not counted per address
	frappe.db.commit()
	assert frappe.db.count("Agent Run", {"agent": agent}) == guest_limit + 1
