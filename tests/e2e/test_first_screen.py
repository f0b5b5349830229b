"""The first screen of a site nobody has set up, in a real browser: an admin is led from "no
provider" through a provider and a model (added on the Providers page the guide links to), adds
Huf's example agent with one click, and has a first chat, after which the guide is gone. The site is
emptied of providers, models and agents open for chat for the test (committed: the web server reads
it) and put back afterwards. Screenshots go to .ci/artifacts/screens/ (not committed)."""

from __future__ import annotations

import frappe
import pytest
from playwright.sync_api import expect

from huf import examples
from tests.e2e.test_spa import shot
from tests.site.conftest import make_user
from tests.site.agents.test_getting_started import remove_example
from tests.support.scripted_llm import text

PROVIDER, MODEL = "First Screen Local", "first-screen-model"


def steps(page):
	return page.get_by_role("list", name="Steps to a first chat").get_by_role("listitem")


def step(page, words: str):
	return steps(page).filter(has_text=words)


@pytest.fixture
def unset_site(site):
	"""No provider, no model, no agent open for chat, no example; as it was again afterwards."""
	providers = frappe.get_all("AI Provider", fields=["*"])
	models = frappe.get_all("AI Model", fields=["*"])
	open_agents = frappe.get_all("Agent", {"allow_chat": 1, "disabled": 0}, pluck="name")
	remove_example()
	frappe.db.delete("AI Model")
	frappe.db.delete("AI Provider")  # the rows only: their keys stay in __Auth for the way back
	for name in open_agents:
		frappe.db.set_value("Agent", name, "disabled", 1, update_modified=False)
		frappe.clear_document_cache("Agent", name)
	frappe.db.commit()
	yield
	frappe.db.rollback()
	remove_example()
	for doctype, name in (("AI Model", MODEL), ("AI Provider", PROVIDER)):
		frappe.delete_doc_if_exists(doctype, name, force=True)
	frappe.db.delete("AI Model")
	frappe.db.delete("AI Provider")
	for doctype, rows in (("AI Provider", providers), ("AI Model", models)):
		for row in rows:
			frappe.get_doc({**row, "doctype": doctype}).db_insert()
	for name in open_agents:
		frappe.db.set_value("Agent", name, "disabled", 0, update_modified=False)
		frappe.clear_document_cache("Agent", name)
	frappe.db.commit()


def test_an_admin_goes_from_no_provider_to_a_first_chat_through_the_guide(site, llm, web, workers, signed_in, unset_site):
	admin = make_user("first-screen-admin@huf.test", ["System Manager"])
	page = signed_in(admin)

	# Huf opens on the chat, which on a bare site is the guide: step 1 is what is missing.
	page.goto("/huf")
	expect(page.get_by_role("heading", name="Get your first agent answering")).to_be_visible()
	expect(steps(page)).to_have_count(4)
	first = steps(page).first
	expect(first).to_have_attribute("aria-current", "step")
	expect(first).to_contain_text("Add a provider")
	expect(first).to_contain_text("No provider yet.")
	expect(step(page, "Add a model")).to_contain_text("Not yet")
	expect(page.get_by_text("It needs a provider and a model: add them, and the example agent is ready.")).to_be_visible()
	shot(page, "first-screen-guide")

	# Step 1's link: the Providers page, where the provider is added.
	first.get_by_role("link", name="Go to Providers").click()
	expect(page).to_have_url(f"{web.base}/huf/providers")
	page.get_by_role("button", name="Add provider").first.click()
	dialog = page.get_by_role("dialog")
	dialog.get_by_label("Name").fill(PROVIDER)
	dialog.get_by_label("API key").fill("sk-first-screen")
	dialog.get_by_label("Server address").fill(llm.base_url)
	dialog.get_by_role("button", name="Save provider").click()
	expect(page.get_by_role("article", name=PROVIDER)).to_be_visible()

	# Back on the chat: the provider is done, with its name; the model is next, linked the same way.
	page.get_by_role("navigation", name="Main").get_by_role("link", name="Chat").click()
	expect(step(page, f"Provider added: {PROVIDER}")).to_contain_text("Done")
	model_step = step(page, "Add a model")
	expect(model_step).to_have_attribute("aria-current", "step")
	model_step.get_by_role("link", name="Go to Providers").click()
	card = page.get_by_role("article", name=PROVIDER)
	card.get_by_role("button", name="Add model").click()
	page.get_by_role("dialog").get_by_label("Model id").fill(MODEL)
	page.get_by_role("dialog").get_by_role("button", name="Save model").click()
	expect(card.get_by_text(MODEL)).to_be_visible()

	# Back again: provider and model done; the agent is next, with the agent editor and the example.
	page.get_by_role("navigation", name="Main").get_by_role("link", name="Chat").click()
	expect(step(page, f"Model added: {MODEL}")).to_contain_text("Done")
	agent_step = step(page, "Set up an agent")
	expect(agent_step).to_have_attribute("aria-current", "step")
	expect(agent_step.get_by_role("link", name="Create an agent")).to_have_attribute("href", "/huf/agents/new")
	expect(page.get_by_text(f"The example agent uses your model {MODEL}.")).to_be_visible()
	shot(page, "first-screen-guide-agent-step")

	# The example: one click, and its agent is there to chat with, on the model just added.
	page.get_by_role("button", name="Add the example").click()
	bar = page.get_by_role("region", name="Getting started")
	expect(bar).to_have_text(
		f"Getting started: 3 of 4 steps done. Last step: write your first message to {examples.AGENT} below."
	)
	expect(page.get_by_role("heading", name=examples.AGENT)).to_be_visible()
	frappe.db.commit()  # a fresh snapshot: the web server wrote the example
	assert frappe.db.get_value("Agent", examples.AGENT, ["model", "provider", "disabled"]) == (MODEL, PROVIDER, 0)
	assert frappe.db.get_value("Flow Definition", examples.FLOW, "status") == "Draft"
	shot(page, "first-screen-example-added")

	# The first chat: the answer comes from the new provider's server, and the guide goes.
	workers.start(1)
	llm.script(text("Hello! I can look up your tasks and notes, and tell you about Huf."))
	page.get_by_label(f"Message to {examples.AGENT}").fill("Hello, what can you do?")
	page.keyboard.press("Enter")
	page.get_by_test_id("answer").filter(has_text="I can look up your tasks").wait_for(timeout=60_000)
	expect(bar).to_have_count(0)
	assert llm.chat_requests[-1]["headers"]["authorization"] == "Bearer sk-first-screen"
	page.reload()
	expect(page.get_by_role("heading", name=examples.AGENT)).to_be_visible()
	expect(page.get_by_role("region", name="Getting started")).to_have_count(0)
	shot(page, "first-screen-first-chat")
