"""The docs' API reference is made from the code (docs/hooks/api_reference.py, an MkDocs hook). Its
core reads the real tree here, without MkDocs and without Frappe, so it cannot silently make an
empty or wrong page."""

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def load():
	spec = importlib.util.spec_from_file_location("huf_docs_api_reference", ROOT / "docs" / "hooks" / "api_reference.py")
	module = importlib.util.module_from_spec(spec)
	sys.modules[spec.name] = module  # dataclasses look their module up by name
	spec.loader.exec_module(module)
	return module


reference = load()
METHODS = {method.dotted: method for method in reference.collect(ROOT)}


def test_every_whitelisted_function_is_found():
	assert len(METHODS) >= 80
	source = "\n".join(p.read_text() for p in (ROOT / "huf").rglob("*.py"))
	decorated = re.findall(r"^@frappe\.whitelist\b", source, re.MULTILINE)
	assert len(METHODS) == len(decorated)  # each one, once, by its own dotted path
	assert reference.nested_whitelisted(ROOT) == [], "a whitelisted method inside a class: the reference does not list those yet"


def test_known_methods_with_their_capability_and_http_methods():
	run = METHODS["huf.ai.agent.integration.run_agent_sync"]
	assert run.allow_guest and run.http_methods == ("POST",)
	assert run.open_to and run.capabilities == ["agent.run"]  # guests by @open_to, signed-in callers by require()
	assert [a.name for a in run.arguments][:2] == ["agent_name", "prompt"]
	assert next(a for a in run.arguments if a.name == "now").default == "False"
	assert "Queue a run" in run.docstring

	status = METHODS["huf.ai.agent.integration.get_agent_run_status"]
	assert status.needs == ["run.read"] and status.http_methods is None and not status.allow_guest

	assert METHODS["huf.ai.flow.api.save_flow_definition"].needs == ["flow.write"]
	assert METHODS["huf.ai.flow.api.run_flow_draft"].capabilities == ["flow.write", "flow.run"]
	assert METHODS["huf.ai.data_tables.api.create_data_table"].needs == ["table.write"]
	assert METHODS["huf.ai.mcp.client.get_agent_mcp_servers"].asked == ["tool.mcp.write"]
	assert METHODS["huf.permissions.get_me"].open_to


def test_every_method_says_who_may_call_it_with_known_capabilities():
	known = reference.known_capabilities(ROOT)
	assert "agent.run" in known and "settings.write" in known
	for method in METHODS.values():
		assert method.needs or method.open_to is not None, f"{method.dotted} has neither @needs nor @open_to"
		assert set(method.capabilities + method.asked) <= set(known), method.dotted


def test_a_reexport_is_a_second_address():
	webhook = METHODS["huf.ai.flow.webhook.flow_webhook"]
	assert webhook.also_at == ["huf.ai.flow.api.flow_webhook"]


def test_the_pages():
	pages = reference.pages(ROOT)
	index = pages["reference/index.md"]
	assert "[`huf.ai.agent.integration.run_agent_sync`](huf.ai.agent.integration.md#run_agent_sync)" in index
	assert "`huf.ai.flow.api.flow_webhook`" in index
	page = pages["reference/huf.ai.agent.integration.md"]
	assert "`/api/method/huf.ai.agent.integration.run_agent_sync`" in page
	assert "[`agent.run`](../who-may-do-what.md#capabilities)" in page
	assert "## flow_webhook {#flow_webhook}" in pages["reference/huf.ai.flow.api.md"]
	assert set(pages) == {"reference/index.md"} | {reference.page_name(m) for m in reference.modules_of(list(METHODS.values()))}
