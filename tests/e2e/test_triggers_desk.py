"""The Agent Trigger form in the Desk: whose permissions it runs with, a webhook's address with Copy,
Send test (run as the person who sends it), and its latest runs."""

from __future__ import annotations

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user


def test_the_webhook_form_shows_its_address_and_a_test_delivery_becomes_a_run(site, llm, web, signed_in):
	agent = fixtures.agent(llm, name="Desk Webhook Agent")
	name = "Desk Webhook Agent: orders"
	if frappe.db.exists("Agent Trigger", name):
		frappe.delete_doc("Agent Trigger", name, force=True)
	frappe.get_doc({"doctype": "Agent Trigger", "trigger_name": name, "agent": agent, "trigger_type": "Webhook", "webhook_slug": "desk-orders", "webhook_key": "k" * 40}).insert()
	frappe.db.commit()
	page = signed_in(make_user("desk-trigger-admin@huf.test", ["Huf Manager"]))
	page.goto(f"/app/agent-trigger/{name.replace(' ', '%20').replace(':', '%3A')}")
	expect(page.get_by_text("huf.ai.triggers.webhooks.receive?slug=desk-orders")).to_be_visible()
	expect(page.get_by_text("runs with the permissions of Administrator")).to_be_visible()  # Run As: the owner
	expect(page.get_by_role("button", name="Copy")).to_be_visible()
	expect(page.get_by_text("No runs yet.")).to_be_visible()
	page.get_by_role("button", name="Send test").click()
	page.wait_for_url("**/app/agent-run/**")
	run = page.url.rsplit("/", 1)[-1]
	frappe.db.commit()
	assert frappe.db.get_value("Agent Run", run, ["agent", "user"]) == (agent, "desk-trigger-admin@huf.test")  # a test runs as its sender
	frappe.delete_doc("Agent Trigger", name, force=True)
	frappe.db.commit()
