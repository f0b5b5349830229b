"""Records the site tests share: a provider pointing at the scripted model server, a model, agents."""

from __future__ import annotations

import frappe


LOCAL_HOSTS = ("127.0.0.1", "localhost")


def allowed_hosts(*hosts: str) -> list[str]:
	"""Let Huf reach ``hosts`` (private addresses) as an administrator would, in site_config.json
	(workers and the web server read it there); returns the list as it was, to put back later."""
	before = list(frappe.conf.get("huf_allowed_hosts") or [])
	wanted = before + [host for host in hosts if host not in before]
	if wanted != before:
		set_allowed_hosts(wanted)
	return before


def set_allowed_hosts(hosts: list[str]) -> None:
	from frappe.installer import update_site_config

	update_site_config("huf_allowed_hosts", hosts)
	frappe.conf.huf_allowed_hosts = hosts


def provider(llm, name: str = "Scripted", api_key: str | None = "sk-test") -> str:
	allowed_hosts(*LOCAL_HOSTS)  # the scripted model server listens on 127.0.0.1
	doc = frappe.get_doc("AI Provider", name) if frappe.db.exists("AI Provider", name) else frappe.new_doc("AI Provider")
	doc.provider_name = name
	doc.api_base = llm.base_url if llm else None
	doc.api_key = api_key
	doc.save()
	return doc.name


def model(provider_name: str, name: str = "scripted-model", **prices) -> str:
	doc = frappe.get_doc("AI Model", name) if frappe.db.exists("AI Model", name) else frappe.new_doc("AI Model")
	doc.model_name = name
	doc.provider = provider_name
	doc.update(prices)
	doc.save()
	return doc.name


def tool(name: str, types: str, reference_doctype: str | None = None, **extra) -> str:
	if frappe.db.exists("Agent Tool Function", name):
		frappe.delete_doc("Agent Tool Function", name, force=True)
	doc = frappe.get_doc(
		{
			"doctype": "Agent Tool Function",
			"tool_name": name,
			"description": f"{types} tool for tests",
			"types": types,
			"reference_doctype": reference_doctype,
			"tool_type": "Document Operations",
			**extra,
		}
	)
	doc.insert()
	return doc.name


def agent(llm, name: str = "Test Agent", tools: tuple[str, ...] = (), **fields) -> str:
	model_name = model(provider(llm))
	if frappe.db.exists("Agent", name):  # a fresh agent: its earlier conversations go too
		for doctype in ("Agent Message", "Agent Run", "Agent Conversation"):
			frappe.db.delete(doctype, {"agent": name})
		frappe.delete_doc("Agent", name, force=True)
	doc = frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": name,
			"provider": "Scripted",
			"model": model_name,
			"instructions": "You are a test agent.",
			"persist_conversation": 1,
			"context_strategy": "None",
			"agent_tool": [{"tool": t} for t in tools],
			**fields,
		}
	)
	doc.insert()
	frappe.db.commit()
	return doc.name
