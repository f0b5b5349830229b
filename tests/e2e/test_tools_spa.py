"""The web app's Tools area in a real browser against the real site: connect an MCP server (the
SDK's test server over streamable HTTP on 127.0.0.1, which the test site allows), test it, sync its
tools and pick them; build a GET tool and use Try this request against a local server. Header
values are write-only: the page never holds them after saving."""

from __future__ import annotations

import frappe
from playwright.sync_api import expect

from tests.site.conftest import make_user
from tests.support.local_http import LocalServer
from tests.support.mcp_server import Served, build

SECRET = "sk-tools-ui-3f9a1c"


def forget(doctype: str, name: str) -> None:
	if frappe.db.exists(doctype, name):
		frappe.delete_doc(doctype, name, force=True)
	frappe.db.commit()


def test_a_manager_connects_tests_and_syncs_an_mcp_server(site, web, signed_in):
	forget("MCP Server", "e2e-docs")
	admin = make_user("tools-ui-admin@huf.test", ["Huf Manager"])
	page = signed_in(admin)
	with Served(build("e2e-docs").streamable_http_app()) as mcp:
		page.goto("/huf/tools")
		page.get_by_role("link", name="Connect a tool server").click()
		form = page.get_by_role("form", name="Tool server settings")
		form.get_by_role("button", name="Save").click()
		expect(form.get_by_text("Give the server a name")).to_be_visible()  # checked before anything is sent
		form.get_by_label("Name", exact=True).fill("e2e-docs")
		form.get_by_label("Address").fill(f"{mcp.url}/mcp")
		form.get_by_label("How Huf signs in").select_option("bearer_token")
		form.get_by_label("Key or token").fill(SECRET)
		form.get_by_role("button", name="Save").click()
		expect(page).to_have_url(f"{web.base}/huf/tools/servers/e2e-docs")
		expect(form.get_by_label("Key or token")).to_have_attribute("placeholder", "Saved (hidden). Type to replace it.")
		assert SECRET not in page.content()

		page.get_by_role("button", name="Test connection").click()
		expect(page.get_by_text("Connected to e2e-docs")).to_be_visible()
		page.get_by_role("button", name="Sync tools").click()
		expect(page.get_by_text("The server offers 12 tools.", exact=False)).to_be_visible()
		tools = page.get_by_role("list", name="Server tools")
		expect(tools.get_by_label("Ask before running wipe")).to_be_checked()  # the server marks it destructive
		tools.get_by_label("Use echo").uncheck()
		form.get_by_role("button", name="Save").click()
		expect(form.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
		expect(page.get_by_text("Unsaved changes")).to_have_count(0)

	frappe.db.rollback()
	frappe.local.conf.update(frappe.get_site_config())  # the web server may have written the site's encryption key since
	rows = {row.tool_name: row for row in frappe.get_doc("MCP Server", "e2e-docs").tools}
	assert rows["echo"].enabled == 0 and rows["add"].enabled == 1 and rows["wipe"].requires_approval == 1
	assert frappe.get_doc("MCP Server", "e2e-docs").get_password("auth_header_value") == SECRET  # kept by the second save

	page.goto("/huf/tools")
	expect(page.get_by_role("list", name="Tool servers").get_by_text("e2e-docs")).to_be_visible()


def test_a_manager_builds_a_get_tool_and_tries_its_request(site, web, signed_in):
	forget("Agent Tool Function", "e2e_echo_api")
	admin = make_user("tools-ui-admin@huf.test", ["Huf Manager"])
	page = signed_in(admin)
	with LocalServer() as server:
		page.goto("/huf/tools")
		page.get_by_role("link", name="New tool").click()
		form = page.get_by_role("form", name="Tool settings")
		form.get_by_label("Name the agent calls it by").fill("e2e_echo_api")
		form.get_by_label("What it does").select_option("GET")
		form.get_by_label("Description", exact=True).fill("Reads items from the local test service.")
		form.get_by_role("button", name="Add a header").click()
		form.get_by_label("Header name 1").fill("X-Api-Key")
		form.get_by_label("Value 1").fill(SECRET)
		form.get_by_role("button", name="Save").click()
		expect(form.get_by_text("Headers are sent only to the base address")).to_be_visible()  # the editor's rule
		form.get_by_label("Base address").fill(server.url(""))
		form.get_by_role("button", name="Save").click()
		expect(page).to_have_url(f"{web.base}/huf/tools/e2e_echo_api")
		expect(form.get_by_label("Value 1")).to_have_attribute("placeholder", "Saved (hidden). Type to replace it.")
		assert SECRET not in page.content()

		trial = page.get_by_role("form", name="Try this request")
		trial.get_by_label("Path").fill("/items")
		trial.get_by_label("Query parameters").fill('{"q": "tea"}')
		trial.get_by_role("button", name="Send").click()
		answer = page.get_by_role("region", name="Answer")
		expect(answer.get_by_text("Answer 200")).to_be_visible()
		expect(answer.get_by_text('"path": "/items?q=tea"', exact=False)).to_be_visible()

	seen = [s for s in server.seen if s.path == "/items?q=tea"]
	assert seen and seen[0].headers["x-api-key"] == SECRET  # the saved secret went to the tool's own host
