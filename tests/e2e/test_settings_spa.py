"""Who may do what, in a real browser against the real site: a Huf Viewer is shown no control it
cannot use and the server refuses its edits anyway (403, naming the missing permission); an admin
makes a custom role in Settings by ticking permissions, gives it to a person under People and roles,
and that person then sees exactly the parts of Huf the role allows."""

from __future__ import annotations

import json
import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user

AGENT = "Settings SPA Agent"
ROLE = "E2E Flow Readers"
NO_ACCESS = "You don't have access to this part of Huf."


def nav_items(page) -> list[str]:
	return [text.strip() for text in page.get_by_role("navigation", name="Main").get_by_role("link").all_inner_texts()]


def post(page, method: str, args: dict):
	token = page.evaluate("() => window.HUF_BOOT.csrf_token")
	return page.request.post(f"/api/method/{method}", data=args, headers={"X-Frappe-CSRF-Token": token})


def message_of(response) -> str:
	body = response.json()
	messages = [json.loads(item).get("message", "") for item in json.loads(body.get("_server_messages") or "[]")]
	return " ".join(messages) or str(body.get("exception", ""))


def test_a_huf_viewer_sees_no_edit_controls_and_the_server_refuses_its_edits_anyway(site, llm, web, signed_in):
	agent = fixtures.agent(llm, name=AGENT, description="Looked at, never changed.")
	viewer = make_user("settings-ui-viewer@huf.test", ["Huf Viewer"])
	page = signed_in(viewer)

	# Huf opens on the first part the viewer may use; the rest are not offered at all.
	page.goto("/huf")
	expect(page).to_have_url(f"{web.base}/huf/agents")
	expect(page.get_by_role("link", name=AGENT)).to_be_visible()
	assert nav_items(page) == ["Agents", "Runs"]
	expect(page.get_by_role("link", name="Open the admin screens")).to_have_count(0)
	expect(page.get_by_role("link", name="New agent")).to_have_count(0)

	# An agent's settings can be read, not changed, and not tried.
	page.get_by_role("link", name=AGENT).click()
	form = page.get_by_role("form", name="Agent settings")
	expect(form.get_by_role("heading", name=AGENT)).to_be_visible()
	expect(form.get_by_label("Description", exact=True)).to_have_value("Looked at, never changed.")
	expect(form.get_by_label("Description", exact=True)).to_be_disabled()
	expect(page.get_by_role("button", name="Save")).to_have_count(0)
	expect(page.get_by_role("region", name="Try this agent")).to_have_count(0)

	for address in ("/huf/settings", "/huf/providers", "/huf/agents/new", "/huf/chat"):
		page.goto(address)
		expect(page.get_by_text(NO_ACCESS)).to_be_visible()

	# Calling the edit methods anyway: refused, saying which permission is missing.
	doc = {"doctype": "Agent", "name": agent, "agent_name": agent, "description": "Changed by a viewer"}
	# The site's own record methods are refused in Huf's words too, naming the permission to ask for.
	for method, sent in (("frappe.client.save", doc), ("frappe.client.insert", {**doc, "agent_name": "Made by a viewer", "name": None})):
		refused = post(page, method, {"doc": json.dumps(sent)})
		assert refused.status == 403, refused.text()
		assert '"agent.write"' in message_of(refused), refused.text()
	# Huf's own methods name the Huf permission.
	refused = post(page, "huf.ai.people.save_huf_role", {"role_name": "Viewer power", "capabilities": json.dumps(["agent.write"])})
	assert refused.status == 403, refused.text()
	assert "settings.write" in message_of(refused), refused.text()
	frappe.db.rollback()
	assert frappe.db.get_value("Agent", agent, "description") == "Looked at, never changed."
	assert not frappe.db.exists("Agent", "Made by a viewer")
	assert not frappe.db.exists("Huf Role", "Viewer power")


def forget_role(name: str) -> None:
	if frappe.db.exists("Huf Role", name):
		frappe.delete_doc("Huf Role", name, ignore_permissions=True)  # its people lose it, its site role goes
	frappe.db.commit()


def holding_only(email: str, huf_role: str) -> str:
	"""A person whose one Huf role is ``huf_role`` (and nothing beside it), as People and roles lists it."""
	make_user(email, [huf_role])
	frappe.db.delete("Huf User Role", {"user": email})
	frappe.get_doc({"doctype": "Huf User Role", "user": email, "huf_role": huf_role, "enabled": 1}).insert(ignore_permissions=True)
	frappe.db.commit()
	return email


def test_an_admin_makes_a_custom_role_gives_it_to_a_person_who_then_sees_exactly_its_screens(site, web, signed_in):
	forget_role(ROLE)
	admin = make_user("settings-ui-admin@huf.test", ["System Manager"])  # the site's administrators are Huf Admin
	person = holding_only("settings-ui-person@huf.test", "Huf User")
	page = signed_in(admin)

	# Roles: a new role made by ticking permissions, each described in words.
	page.goto("/huf")
	page.get_by_role("navigation", name="Main").get_by_role("link", name="Settings").click()
	page.get_by_role("navigation", name="Settings").get_by_role("link", name="Roles", exact=True).click()
	expect(page.get_by_role("listitem", name="Huf Viewer").get_by_text("See agents and how they are set up", exact=False)).to_be_visible()
	page.get_by_role("button", name="New role").click()
	dialog = page.get_by_role("dialog", name="New role")
	dialog.get_by_label("Name").fill(ROLE)
	dialog.get_by_label("What it is for").fill("Reads flows, prompts and knowledge; changes nothing.")
	for capability in ("flow.read", "prompt.read", "knowledge.read"):
		dialog.get_by_role("checkbox", name=f"({capability})").check()
	dialog.get_by_role("button", name="Make role").click()
	expect(page.get_by_role("status").filter(has_text=f"The role {ROLE} was made.")).to_be_visible()
	card = page.get_by_role("listitem", name=ROLE)
	expect(card.get_by_text("See flows and their runs", exact=False)).to_be_visible()
	frappe.db.rollback()
	granted = frappe.get_all("Huf Role Permission", filters={"parent": ROLE, "parenttype": "Huf Role"}, pluck="capability", order_by="idx asc")
	assert granted == ["knowledge.read", "flow.read", "prompt.read"], granted

	# People and roles: found by search, given the role, which turns their previous one off.
	page.get_by_role("navigation", name="Settings").get_by_role("link", name="People and roles").click()
	page.get_by_label("Search people").fill("settings-ui-person")
	who = "settings-ui-person"
	page.get_by_label(f"Role to give {who}").select_option(ROLE)
	page.get_by_role("form", name=f"Give {who} a role").get_by_role("button", name="Give role").click()
	expect(page.get_by_role("status").filter(has_text=f"{who} now has {ROLE}.")).to_be_visible()
	roles = page.get_by_role("list", name=f"Roles of {who}")
	expect(roles.get_by_role("button", name=f"Remove {ROLE} from {who}")).to_be_visible()
	expect(roles.get_by_text("Huf User (turned off)")).to_be_visible()

	# The person sees exactly what the role allows, and is turned away from the rest.
	reader = signed_in(person)
	reader.goto("/huf")
	expect(reader).to_have_url(f"{web.base}/huf/flows")
	assert nav_items(reader) == ["Flows", "Prompts", "Knowledge"]
	expect(reader.get_by_role("button", name="New flow")).to_have_count(0)
	expect(reader.get_by_role("link", name="Waiting for me")).to_have_count(0)
	for address in ("/huf/agents", "/huf/chat", "/huf/runs", "/huf/settings"):
		reader.goto(address)
		expect(reader.get_by_text(NO_ACCESS)).to_be_visible()
	me = reader.request.get("/api/method/huf.permissions.get_me").json()["message"]
	assert sorted(name for name, held in me["capabilities"].items() if held) == ["flow.read", "knowledge.read", "prompt.read"], me
	reader.goto("/huf/prompts")
	expect(reader.get_by_role("heading", name="Prompts")).to_be_visible()
	expect(reader.get_by_role("link", name="New prompt")).to_have_count(0)
