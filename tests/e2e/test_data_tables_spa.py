"""Data tables in the web app, in a real browser against the real site: a manager makes a table,
adds a row in the grid, imports a CSV file with one bad row (the preview names the line and what is
wrong with it), imports the good rows only, and sees them in the grid."""

from __future__ import annotations

import frappe
from playwright.sync_api import expect

from tests.e2e.test_accessibility import AXE, PHONE, violations, wider_than_the_screen
from tests.site.conftest import make_user

TABLE = "E2E Books"
DOCTYPE = f"HF {TABLE}"
CSV = "title,pages\nEmma,320\nOdyssey,many\nUlysses,730\n"


def forget_table(name: str) -> None:
	if frappe.db.exists("Huf Data Table", name):
		from huf.ai.data_tables.api import delete_data_table

		delete_data_table(name)
		frappe.db.commit()


def test_a_manager_makes_a_table_adds_a_row_and_imports_the_good_rows_of_a_csv(site, web, signed_in):
	forget_table(TABLE)
	manager = make_user("tables-ui-manager@huf.test", ["Huf User", "Huf Manager"])
	page = signed_in(manager)
	try:
		# A new table with two columns, rows named by number, the title column shown for each row.
		page.goto("/huf/tables")
		page.get_by_role("navigation", name="Main").get_by_role("link", name="Tables").click()
		page.get_by_role("button", name="New table").click()
		form = page.get_by_role("form", name="New table")
		form.get_by_label("Table name").fill(TABLE)
		form.get_by_label("Name of column 1").fill("Title")
		form.get_by_label("Required").check()
		form.get_by_role("button", name="Add a column").click()
		form.get_by_label("Name of column 2").fill("Pages")
		form.get_by_label("Type of column 2").select_option(label="Whole number")
		form.get_by_label("Title column", exact=True).select_option(label="Title")
		form.get_by_role("button", name="Create table").click()
		expect(page).to_have_url(f"{web.base}/huf/tables/E2E%20Books")
		expect(page.get_by_role("heading", name=TABLE)).to_be_visible()
		expect(page.get_by_text("No rows yet")).to_be_visible()

		# A row added in the grid.
		page.get_by_role("button", name="Add a row").click()
		new_row = page.get_by_role("row", name="New row")
		new_row.get_by_label("Title").fill("Dune")
		new_row.get_by_label("Pages").fill("412")
		new_row.get_by_role("button", name="Save row").click()
		expect(page.get_by_role("status").filter(has_text="The row was added.")).to_be_visible()
		expect(page.get_by_role("row", name="Row Dune")).to_contain_text("412")

		# A CSV file with one bad row: the preview says which line and why, and offers the good rows.
		page.get_by_role("button", name="Import CSV").click()
		page.get_by_label("CSV file").set_input_files(files=[{"name": "books.csv", "mimeType": "text/csv", "buffer": CSV.encode()}])
		preview = page.get_by_role("region", name="Preview")
		expect(preview.get_by_text("2 rows ready to import, 1 row with problems.")).to_be_visible()
		expect(preview.get_by_role("row", name="Line 3")).to_contain_text("many is not a number")
		expect(preview.get_by_role("row", name="Line 2")).to_contain_text("OK")
		page.get_by_role("button", name="Import the 2 good rows").click()
		expect(page.get_by_role("status").filter(has_text="2 rows were imported; 1 row with problems was left out.")).to_be_visible()

		# The imported rows are in the grid; the bad one is not.
		expect(page.get_by_role("row", name="Row Emma")).to_contain_text("320")
		expect(page.get_by_role("row", name="Row Ulysses")).to_contain_text("730")
		expect(page.get_by_role("row", name="Row Odyssey")).to_have_count(0)
		expect(page.get_by_text("Rows 1–3 of 3")).to_be_visible()

		# Sorting by a column puts the rows in its order.
		page.get_by_role("button", name="Sort by Pages").click()
		expect(page.get_by_role("row", name="Row Emma")).to_be_visible()
		titles = page.locator("tbody tr td:first-child")
		expect(titles).to_have_text(["Emma", "Dune", "Ulysses"])

		frappe.db.rollback()
		assert sorted(frappe.get_all(DOCTYPE, pluck="title")) == ["Dune", "Emma", "Ulysses"]

		# The list and the grid: no serious or critical accessibility violations, nothing wider than a phone.
		assert AXE.exists(), f"axe-core is not at {AXE}: run npm ci in frontend/, or set HUF_AXE."
		heading = lambda name: lambda p: p.get_by_role("heading", name=name, exact=True).first  # noqa: E731
		pages = [("/huf/tables", heading("Tables")), ("/huf/tables/E2E%20Books", heading(TABLE))]
		found = [line for path, ready in pages for line in violations(page, path, ready)]
		assert not found, "Serious or critical accessibility violations:\n" + "\n".join(found)
		page.set_viewport_size(PHONE)
		found = [line for path, ready in pages for line in wider_than_the_screen(page, path, ready)]
		assert not found, "Wider than the screen at 390 px:\n" + "\n".join(found)
	finally:
		frappe.db.rollback()
		forget_table(TABLE)
