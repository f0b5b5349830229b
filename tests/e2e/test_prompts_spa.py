"""The prompt library in the web app, in a real browser against the real site: a manager writes a
prompt, saves a second version, compares the two, keeps an agent on the first version and a chat
run uses it; a Huf User reads the library without edit controls, never sees someone else's Private
prompt, and the server refuses an edit anyway."""

from __future__ import annotations

from urllib.parse import quote

import frappe
from playwright.sync_api import expect

from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text

AGENT = "Prompt SPA Agent"


def forget_prompt(slug: str, doctype: str = "Agent Prompt") -> None:
	"""No lineage named ``slug``: its agents back on their own text, every version gone."""
	mode, field = ("prompt_mode", "prompt_template") if doctype == "Agent Prompt" else ("summary_prompt_mode", "summary_prompt_template")
	for agent in frappe.get_all("Agent", filters={field: slug}, pluck="name"):
		frappe.db.set_value("Agent", agent, {mode: "Local", field: None}, update_modified=False)
	frappe.db.delete(doctype, {"slug": slug})
	frappe.cache.delete_keys(f"huf:prompt:{doctype}:{slug}:")
	frappe.db.commit()


def prompt(slug: str, title: str, body: str, **fields) -> str:
	forget_prompt(slug)
	doc = frappe.get_doc({"doctype": "Agent Prompt", "title": title, "slug": slug, "prompt_body": body, **fields}).insert()
	frappe.db.commit()
	return doc.name


def test_a_manager_writes_a_prompt_versions_it_compares_and_keeps_an_agent_on_a_version(site, llm, workers, web, signed_in):
	forget_prompt("e2e-greeting")
	agent = fixtures.agent(llm, name=AGENT, allow_chat=1)
	manager = make_user("prompts-ui-admin@huf.test", ["Huf User", "Huf Manager"])
	page = signed_in(manager)

	# A new prompt: the title makes its short name; saving it shows its version.
	page.goto("/huf/prompts")
	page.get_by_role("link", name="New prompt").click()
	form = page.get_by_role("form", name="Prompt settings")
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_text("Give the prompt a title.")).to_be_visible()  # checked before anything is sent
	form.get_by_label("Title").fill("E2E greeting")
	expect(form.get_by_label("Short name")).to_have_attribute("placeholder", "e2e-greeting")
	form.get_by_label("Description", exact=True).fill("How the test agent greets people.")
	form.get_by_label("Prompt text").fill("Greet people in English. (v1)")
	form.get_by_role("button", name="Save").click()
	expect(page).to_have_url(f"{web.base}/huf/prompts/prompt/e2e-greeting")
	expect(page.get_by_role("status").filter(has_text="Saved as version 1.")).to_be_visible()

	# A changed text is the next version; the first stays as it was.
	form = page.get_by_role("form", name="Prompt settings")
	expect(form.get_by_label("Prompt text")).to_have_value("Greet people in English. (v1)")
	form.get_by_label("Prompt text").fill("Greet people in French.\n(v2)")
	form.get_by_role("button", name="Save").click()
	expect(page.get_by_role("status").filter(has_text="Saved as version 2.")).to_be_visible()
	expect(page.get_by_role("heading", name="Edit version 2")).to_be_visible()
	rows = frappe.get_all("Agent Prompt", filters={"slug": "e2e-greeting"}, fields=["name", "version", "is_latest"], order_by="version asc")
	assert [(r.name, r.version, r.is_latest) for r in rows] == [("e2e-greeting--v1", 1, 0), ("e2e-greeting", 2, 1)]

	# The two versions compared: what went and what came.
	changes = page.get_by_role("region", name="Changes from version 1 to version 2")
	expect(changes.get_by_text("Greet people in English. (v1)")).to_be_visible()
	expect(changes.get_by_text("Greet people in French.")).to_be_visible()
	expect(changes.get_by_text("Removed:", exact=False)).to_have_count(1)

	# An older version is shown, never offered for editing.
	page.get_by_role("button", name="Version 1").click()
	expect(page.get_by_text("Older versions can't be changed")).to_be_visible()
	expect(page.locator("pre").filter(has_text="Greet people in English. (v1)")).to_be_visible()
	expect(page.get_by_role("form", name="Prompt settings")).to_have_count(0)

	# The agent takes the prompt from the library, kept at version 1.
	page.goto(f"/huf/agents/{quote(agent)}")
	form = page.get_by_role("form", name="Agent settings")
	form.get_by_label("Use a prompt from the library").check()
	expect(form.get_by_label("What the agent should do")).to_have_count(0)
	form.get_by_label("Find a prompt").fill("greeting")
	form.get_by_label("E2E greeting").check()
	form.get_by_label("Keep one version").check()
	form.get_by_label("Version to keep").select_option("1")
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
	frappe.db.rollback()
	saved = frappe.db.get_value("Agent", agent, ["prompt_mode", "prompt_template", "prompt_version_locked", "template_version_at_attach"])
	assert saved == ("Template", "e2e-greeting", 1, 1), saved
	expect(form.get_by_label("Version to keep")).to_have_value("1")  # as the server gave it back

	# A chat run reads version 1 and records it.
	workers.start(1)
	llm.script(text("Hello there!"))
	page.goto(f"/huf/chat/{quote(agent)}")
	page.get_by_label(f"Message to {agent}").fill("Hi")
	page.get_by_role("button", name="Send").click()
	expect(page.get_by_test_id("answer").filter(has_text="Hello there!")).to_have_attribute("data-status", "done", timeout=60_000)
	assert llm.chat_requests[-1]["body"]["messages"][0] == {"role": "system", "content": "Greet people in English. (v1)"}
	run = wait_for(lambda: frappe.db.get_value("Agent Run", {"agent": agent, "user": manager, "status": "Success"}, ["prompt_template", "prompt_version"]), message="the run")
	assert tuple(run) == ("e2e-greeting", 1)

	# The prompt's page names the agent and the version it keeps.
	page.goto("/huf/prompts/prompt/e2e-greeting")
	expect(page.get_by_text("stays on version 1")).to_be_visible()


def test_a_huf_user_reads_the_library_without_edit_controls_and_no_one_elses_private_prompt(site, web, signed_in):
	reader = make_user("prompts-ui-reader@huf.test", ["Huf User"])
	other = make_user("prompts-ui-other@huf.test", ["Huf User"])
	prompt("e2e-open-prompt", "E2E open prompt", "Everyone may read this.")
	prompt("e2e-hidden-prompt", "E2E hidden prompt", "Only its owner reads this.", visibility="Private")
	frappe.db.set_value("Agent Prompt", "e2e-hidden-prompt", "owner", other, update_modified=False)
	frappe.db.commit()
	page = signed_in(reader)

	page.goto("/huf/prompts")
	expect(page.get_by_role("link", name="E2E open prompt")).to_be_visible()
	expect(page.get_by_text("E2E hidden prompt")).to_have_count(0)
	expect(page.get_by_role("link", name="New prompt")).to_have_count(0)

	page.get_by_role("link", name="E2E open prompt").click()
	expect(page.get_by_role("heading", name="E2E open prompt")).to_be_visible()
	expect(page.locator("pre").filter(has_text="Everyone may read this.")).to_be_visible()
	expect(page.get_by_role("form", name="Prompt settings")).to_have_count(0)
	expect(page.get_by_role("button", name="Save")).to_have_count(0)

	page.goto("/huf/prompts/prompt/e2e-hidden-prompt")
	expect(page.get_by_text("This prompt isn't here")).to_be_visible()
	page.goto("/huf/prompts/prompt/new")
	expect(page.get_by_text("You don't have access to this part of Huf.")).to_be_visible()

	# The server refuses an edit anyway.
	token = page.evaluate("() => window.HUF_BOOT.csrf_token")
	answer = page.request.put(
		"/api/resource/Agent Prompt/e2e-open-prompt",
		data={"prompt_body": "rewritten by a reader"},
		headers={"X-Frappe-CSRF-Token": token},
	)
	assert answer.status == 403, answer.text()
	frappe.db.rollback()
	assert frappe.db.get_value("Agent Prompt", "e2e-open-prompt", ["prompt_body", "version"]) == ("Everyone may read this.", 1)


def test_a_manager_picks_summary_instructions_from_the_library_for_a_summarizing_agent(site, llm, web, signed_in):
	forget_prompt("e2e-short-summary", "Agent Summary Prompt")
	frappe.get_doc({"doctype": "Agent Summary Prompt", "title": "E2E short summary", "slug": "e2e-short-summary", "prompt_body": "Shortly: {summary_data}"}).insert()
	agent = fixtures.agent(llm, name="Prompt SPA Summarizer", context_strategy="Summarize", history_limit=4, summary_ratio=0.5)
	manager = make_user("prompts-ui-admin@huf.test", ["Huf User", "Huf Manager"])
	page = signed_in(manager)

	page.goto(f"/huf/agents/{quote(agent)}")
	form = page.get_by_role("form", name="Agent settings")
	form.get_by_label("Use summary instructions from the library").check()
	expect(form.get_by_label("How to summarize")).to_have_count(0)
	form.get_by_label("Find summary instructions").fill("short")
	form.get_by_label("E2E short summary").check()
	expect(form.get_by_label("Always the newest version")).to_be_checked()
	form.get_by_role("button", name="Save").click()
	expect(form.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
	frappe.db.rollback()
	saved = frappe.db.get_value(
		"Agent", agent, ["summary_prompt_mode", "summary_prompt_template", "summary_prompt_version_locked", "summary_template_version_at_attach"]
	)
	assert saved == ("Template", "e2e-short-summary", 0, 1), saved


def test_a_reader_compares_any_two_versions_of_a_prompt(site, web, signed_in):
	prompt("e2e-three-versions", "E2E three versions", "Say hello.")
	for body in ("Say hello kindly.", "Say hello kindly, in one line."):
		doc = frappe.get_doc("Agent Prompt", "e2e-three-versions")
		doc.prompt_body = body
		doc.save()
	frappe.db.commit()
	reader = make_user("prompts-ui-reader@huf.test", ["Huf User"])
	page = signed_in(reader)

	page.goto("/huf/prompts/prompt/e2e-three-versions")
	expect(page.get_by_role("region", name="Changes from version 2 to version 3")).to_be_visible()  # the two newest first
	page.get_by_label("Compare version").select_option("1")
	changes = page.get_by_role("region", name="Changes from version 1 to version 3")
	expect(changes.get_by_text("Say hello.")).to_be_visible()
	expect(changes.get_by_text("Say hello kindly, in one line.")).to_be_visible()
	page.get_by_label("With version").select_option("1")
	expect(page.get_by_text("Pick two different versions to see what changed.")).to_be_visible()
	expect(page.get_by_role("button", name="Save")).to_have_count(0)
