"""Where an AI Provider's key may go: a new address or provider name drops the stored key unless a
new one comes with it, and a model server on a private address needs the administrator's allow-list."""

from __future__ import annotations

import frappe
import pytest
from frappe.utils.password import get_decrypted_password

from huf.ai.agent.integration import run_agent_sync
from huf.ai.providers import test_provider_connection as connection_test
from tests.site import fixtures
from tests.support.scripted_llm import text

NAME = "Key Owner"


def stored_key(name: str = NAME) -> str | None:
	return get_decrypted_password("AI Provider", name, "api_key", raise_exception=False)


def fresh(llm, name: str = NAME) -> frappe.model.document.Document:
	if frappe.db.exists("AI Provider", name):
		frappe.delete_doc("AI Provider", name, force=True)
	fixtures.provider(llm, name=name, api_key="sk-owner-secret")
	return frappe.get_doc("AI Provider", name)


def test_a_new_address_drops_the_stored_key_unless_a_new_key_comes_with_it(site, llm):
	doc = fresh(llm)
	doc.description = "notes only"
	doc.save()
	assert stored_key() == "sk-owner-secret"  # nothing about the destination changed

	frappe.local.message_log = []
	doc = frappe.get_doc("AI Provider", NAME)
	doc.api_base = "http://localhost:9/v1"  # someone else's server, say
	doc.save()
	assert stored_key() is None and not frappe.db.get_value("AI Provider", NAME, "api_key")
	assert "was removed because its address changed" in str(frappe.local.message_log)

	doc = frappe.get_doc("AI Provider", NAME)
	doc.api_base = llm.base_url
	doc.api_key = "sk-new-secret"  # typed again in the same save: kept
	doc.save()
	assert stored_key() == "sk-new-secret"


def test_a_new_provider_name_or_a_rename_drops_the_stored_key(site, llm):
	doc = fresh(llm)
	doc.provider_name = "OpenAI"  # the name decides where LiteLLM sends the key
	doc.save()
	assert stored_key() is None

	doc = fresh(llm)
	doc.provider_name = NAME.upper()  # the same destination: kept
	doc.save()
	assert stored_key() == "sk-owner-secret"

	fresh(llm)
	renamed = "Key Owner Moved"
	if frappe.db.exists("AI Provider", renamed):
		frappe.delete_doc("AI Provider", renamed, force=True)
	frappe.rename_doc("AI Provider", NAME, renamed)
	assert stored_key(renamed) is None and stored_key(NAME) is None
	assert not frappe.db.get_value("AI Provider", renamed, "api_key")
	frappe.delete_doc("AI Provider", renamed, force=True)


def test_a_private_address_needs_the_allow_list_at_save_and_at_every_call(site, llm):
	before = list(frappe.conf.get("huf_allowed_hosts") or [])
	doc = frappe.new_doc("AI Provider")
	doc.update({"provider_name": "Intranet Box", "api_base": "http://10.20.30.40:8000/v1", "api_key": "sk-intranet"})
	with pytest.raises(frappe.ValidationError, match="points to 10.20.30.40, a private network address.*huf_allowed_hosts"):
		doc.insert()
	assert not frappe.db.exists("AI Provider", "Intranet Box")

	agent = fixtures.agent(llm, name="Allow-list Agent")  # its provider was saved while 127.0.0.1 was allowed
	fixtures.set_allowed_hosts([host for host in before if host not in fixtures.LOCAL_HOSTS])
	try:
		llm.script(text("never sent"))
		with pytest.raises(frappe.ValidationError, match="points to 127.0.0.1"):
			connection_test("Scripted")
		run = frappe.get_doc("Agent Run", run_agent_sync(agent, "hello", now=True)["run"])
		assert run.status == "Failed" and "huf_allowed_hosts" in run.error_message
		assert llm.requests == []  # the key went nowhere
	finally:
		fixtures.set_allowed_hosts(before)
	run = frappe.get_doc("Agent Run", run_agent_sync(agent, "hello", now=True)["run"])
	assert run.status == "Success" and run.response == "never sent"


def test_a_call_to_an_api_base_carries_the_sites_allow_list_to_check_it_again_as_it_connects(site, llm):
	"""The engine connects to an API Base through safe_http with the site's allow-list (engine/pinned.py),
	so a DNS answer that changes after the check before the call cannot send the key elsewhere."""
	from huf.ai.models import model_spec

	spec = model_spec(fixtures.model(fixtures.provider(llm)))
	assert spec.api_base == llm.base_url and spec.allowed_hosts == frozenset(frappe.conf.get("huf_allowed_hosts"))
	assert "127.0.0.1" in spec.allowed_hosts
	hosted = fixtures.provider(None, name="Hosted Elsewhere", api_key="sk-hosted")  # no API Base: LiteLLM's own address
	assert model_spec(fixtures.model(hosted, name="hosted-model")).allowed_hosts is None
	frappe.delete_doc("AI Model", "hosted-model", force=True)
	frappe.delete_doc("AI Provider", hosted, force=True)


def test_a_calls_key_is_read_once_per_version_of_the_provider_and_a_new_key_is_used_at_once(site, llm, monkeypatch):
	"""The encrypted key is kept in the process for the provider's ``modified``; a save of a new key
	(any process: the document cache is Frappe's) is a new version, read again."""
	from tests.site.sql_count import counted_statements

	fresh(llm)
	frappe.db.commit()
	assert frappe.get_cached_doc("AI Provider", NAME).endpoint()[0] == "sk-owner-secret"
	with counted_statements(monkeypatch) as counts:
		assert frappe.get_cached_doc("AI Provider", NAME).endpoint()[0] == "sk-owner-secret"
	assert counts["huf"] == 0, counts
	doc = frappe.get_doc("AI Provider", NAME)
	doc.api_key = "sk-rotated-secret"
	doc.save()
	assert frappe.get_cached_doc("AI Provider", NAME).endpoint()[0] == "sk-rotated-secret"
	frappe.db.rollback()  # the new key was never committed: the old one is used again
	frappe.clear_document_cache("AI Provider", NAME)
	assert frappe.get_cached_doc("AI Provider", NAME).endpoint()[0] == "sk-owner-secret"
