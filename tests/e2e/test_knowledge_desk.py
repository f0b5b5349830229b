"""The Knowledge Source form in the Desk: adding text, the index progress bar, and Test Search."""

from __future__ import annotations

import frappe
from playwright.sync_api import expect

from tests.site.conftest import make_user

NAME = "Desk Handbook"


def test_a_manager_adds_text_watches_the_progress_bar_and_tries_a_search(site, llm, web, workers, signed_in):
	if frappe.db.exists("Knowledge Source", NAME):
		frappe.delete_doc("Knowledge Source", NAME, force=True)
	frappe.get_doc({"doctype": "Knowledge Source", "source_name": NAME, "description": "Desk test"}).insert()
	frappe.db.commit()
	workers.start(1)
	page = signed_in(make_user("desk-knowledge-admin@huf.test", ["Huf Manager"]))
	page.goto(f"/app/knowledge-source/{NAME.replace(' ', '%20')}")

	page.get_by_role("button", name="Add").click()
	page.get_by_role("link", name="Add Text").click()
	dialog = page.locator(".modal.show")
	dialog.locator("[data-fieldname='title'] input").fill("Warranty")
	dialog.locator("[data-fieldname='text'] textarea").fill("Every pump carries a warranty of 24 months from delivery.")
	dialog.get_by_role("button", name="Add").click()

	progress = page.locator(".form-dashboard .progress-area")
	expect(progress).to_contain_text("1 of 1 inputs indexed · 1 passage", timeout=60_000)
	assert progress.locator(".progress-bar").evaluate("bar => bar.style.width") == "100%"
	expect(progress).not_to_contain_text("Indexing")
	frappe.db.commit()  # a fresh snapshot
	assert frappe.db.get_value("Knowledge Source", NAME, "status") == "Ready"

	page.get_by_role("button", name="Test Search").click()
	search = page.locator(".modal.show")
	search.locator("[data-fieldname='query'] input").fill("how long is the pump warranty")
	search.get_by_role("button", name="Search").click()
	expect(search.locator(".huf-hit")).to_have_count(1)
	expect(search.locator(".huf-hit")).to_contain_text("24 months")
	expect(search.locator(".huf-hit")).to_contain_text("Warranty")
	frappe.delete_doc("Knowledge Source", NAME, force=True)
	frappe.db.commit()
