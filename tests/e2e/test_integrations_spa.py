"""The Integrations page in a real browser against the real site: a Huf Manager adds webhook
settings from the service's fields, the stored webhook URL is never shown again, and "Send a test
message" posts to a local HTTP server this test starts (127.0.0.1 is on the test site's
huf_allowed_hosts). The page and its dialog are checked with axe, and the page at phone width; a Huf User is not offered it."""

from __future__ import annotations

import json

import frappe
from playwright.sync_api import expect

from tests.e2e.test_accessibility import AXE, PHONE, RUN_AXE, violations, wider_than_the_screen
from tests.site.conftest import make_user
from tests.support.local_http import LocalServer

TITLE = "E2E Team chat"
SECRET = "e2e-hook-secret-5d2b"


def test_an_admin_adds_webhook_settings_and_sends_a_test_message(site, web, signed_in):
	if frappe.db.exists("Integration Settings", TITLE):
		frappe.delete_doc("Integration Settings", TITLE, force=True)
		frappe.db.commit()
	manager = make_user("integrations-ui-manager@huf.test", ["Huf Manager"])
	page = signed_in(manager)
	with LocalServer() as hook:
		page.goto("/huf/integrations")
		expect(page.get_by_role("heading", name="Integrations", exact=True)).to_be_visible()
		assert not violations(page, "/huf/integrations", lambda p: p.get_by_role("heading", name="Add an integration"))

		page.get_by_role("button", name="Add chat webhook").click()
		dialog = page.get_by_role("dialog", name="Add chat webhook")
		dialog.get_by_label("Name", exact=True).fill(TITLE)
		dialog.get_by_label("Webhook URL", exact=True).fill(hook.url(f"/services/{SECRET}"))
		recipient = dialog.get_by_role("group", name="Recipient 1")
		recipient.get_by_label("Recipient name").fill("General")
		recipient.get_by_label("Channel (optional)").fill("#general")
		page.add_script_tag(path=str(AXE))
		found = page.evaluate(RUN_AXE)
		assert not found, f"the add dialog: {found}"
		dialog.get_by_role("button", name="Save").click()
		expect(page.get_by_text(f"{TITLE} is saved.")).to_be_visible()
		row = page.get_by_role("row").filter(has_text=TITLE)
		expect(row).to_contain_text("Chat webhook")

		# Opened again: the URL is set, never shown.
		page.get_by_role("button", name=f"Edit {TITLE}").click()
		editing = page.get_by_role("dialog", name=f"Edit {TITLE}")
		url = editing.get_by_label("Webhook URL", exact=True)
		expect(url).to_have_value("")
		expect(url).to_have_attribute("placeholder", "•••••••• (set)")
		assert SECRET not in page.content()
		editing.get_by_role("button", name="Close").click()

		page.get_by_role("button", name=f"Send a test message through {TITLE}").click()
		testing = page.get_by_role("dialog", name=f"Send a test message through {TITLE}")
		testing.get_by_label("Message").fill("Hello from the browser test")
		testing.get_by_role("button", name="Send test message").click()
		expect(testing.get_by_text("Sent to General.")).to_be_visible()
		assert SECRET not in page.content()
	[posted] = [seen for seen in hook.seen if seen.method == "POST"]
	assert posted.path == f"/services/{SECRET}"
	assert json.loads(posted.body) == {"text": "*Test message*\nHello from the browser test", "channel": "#general"}
	frappe.db.rollback()
	assert frappe.db.get_value("Integration Credential", {"parent": TITLE, "key": "webhook_url"}, "value").strip("*") == ""
	page.set_viewport_size(PHONE)
	assert not wider_than_the_screen(page, "/huf/integrations", lambda p: p.get_by_role("heading", name="Add an integration"))


def test_a_huf_user_is_not_offered_integrations(site, web, signed_in):
	page = signed_in(make_user("integrations-ui-user@huf.test", ["Huf User"]))
	page.goto("/huf/integrations")
	expect(page.get_by_text("You don't have access to this part of Huf.")).to_be_visible()
	expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Integrations")).to_have_count(0)
