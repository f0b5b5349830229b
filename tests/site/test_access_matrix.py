"""Every whitelisted method and route, over HTTP, as Guest, a Huf User, another Huf User and a Huf
Manager, with the ids of one user's objects: each refusal is asserted, and a refused answer never
carries that user's text. A whitelisted method nobody lists here fails the first test, so a new
endpoint cannot ship without its row."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field

import frappe
import pytest

import huf
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.mcp_server import Served, auth_server, build
from tests.support.scripted_llm import text

SECRET_QUESTION = "alice-only question 7f3a"
SECRET_ANSWER = "alice-only answer 9c1d"
REFUSED = {401, 403, 404, 417}


@dataclass
class Case:
	"""One call. ``ok``: the personas that get through (everyone else must be refused)."""

	method: str
	params: dict
	ok: set[str] = field(default_factory=set)
	verb: str = "POST"
	through: frozenset[int] = frozenset({200})  # the answers that mean the caller got past the permission check


def whitelisted_methods() -> set[str]:
	"""Every function of Huf's whitelisted by Frappe, found by importing all of Huf's modules."""
	for module in pkgutil.walk_packages(huf.__path__, "huf."):
		if ".doctype." in module.name or module.name.startswith(("huf.patches", "huf.www")):
			continue
		importlib.import_module(module.name)
	return {f"{fn.__module__}.{fn.__qualname__}" for fn in frappe.whitelisted if fn.__module__.startswith("huf.")}


@pytest.fixture(scope="module")
def mcp_servers(site):
	"""A plain MCP server and one behind OAuth, for the MCP methods' rows."""
	oauth, _provider = auth_server()
	with Served(build().streamable_http_app()) as plain, oauth:
		names = []
		for name, url, auth in (("matrix-mcp", plain.url + "/mcp", "none"), ("matrix-mcp-oauth", oauth.url + "/mcp", "oauth")):
			if frappe.db.exists("MCP Server", name):
				frappe.delete_doc("MCP Server", name, force=True)
			names.append(frappe.get_doc({"doctype": "MCP Server", "server_name": name, "server_url": url, "auth_type": auth}).insert().name)
		frappe.db.commit()
		yield names


@pytest.fixture(scope="module")
def world(site, llm_server, web, mcp_servers):
	"""Alice's chat, run and reply; a knowledge source; a trigger; and a token for each persona."""
	frappe.cache.delete_keys("huf:rate:")  # earlier tests' floods from this address are not ours
	llm_server.reset()
	llm_server.script(text(SECRET_ANSWER))
	llm_server.respond_with(lambda body: text("pong"))  # connection tests and runs the matrix starts
	people = {
		"alice": make_user("matrix-alice@huf.test", ["Huf User"]),
		"bob": make_user("matrix-bob@huf.test", ["Huf User"]),
		"manager": make_user("matrix-manager@huf.test", ["Huf Manager", "Huf User"]),
	}
	agent = fixtures.agent(llm_server, name="Matrix Agent", allow_chat=1, agent_mcp_server=[{"mcp_server": mcp_servers[0]}])
	frappe.set_user(people["alice"])
	from huf.ai.agent.integration import run_agent_sync

	result = run_agent_sync(agent, SECRET_QUESTION, channel_id="chat", now=True)
	frappe.set_user("Administrator")
	assert result["status"] == "Success"
	reply = frappe.db.get_value("Agent Message", {"agent_run": result["run"], "role": "agent"}, "name")
	if frappe.db.exists("Knowledge Source", "Matrix Source"):
		frappe.delete_doc("Knowledge Source", "Matrix Source", force=True)
	frappe.get_doc({"doctype": "Knowledge Source", "source_name": "Matrix Source", "description": "for the access matrix"}).insert()
	trigger = frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, "trigger_type": "Webhook", "webhook_slug": "matrix-hook", "webhook_key": "k" * 32})
	if frappe.db.exists("Agent Trigger", {"webhook_slug": "matrix-hook"}):
		frappe.delete_doc("Agent Trigger", frappe.db.get_value("Agent Trigger", {"webhook_slug": "matrix-hook"}), force=True)
	trigger.insert()
	http_tools = [  # the scripted model server stands in for an API; the answers do not matter here
		fixtures.tool(f"matrix_http_{types.lower()}", types, base_url=llm_server.base_url, tool_type="HTTP Requests") for types in ("GET", "POST")
	]
	flow, flow_run = matrix_flow(people)
	prompt = matrix_prompt(people)
	from huf.ai import seeding

	seeding.seed(["huf"])  # Huf's own seeded records: the example flow's row is taken back below
	seed_record = frappe.db.get_value(seeding.TRACK, {"app": "huf", "seed_key": "example-triage"})
	frappe.db.commit()
	headers = {name: web.token_headers(user) for name, user in people.items()}
	headers["guest"] = web.site_header()
	return frappe._dict(
		people=people, agent=agent, run=result["run"], conversation=result["conversation"], reply=reply,
		source="Matrix Source", trigger=trigger.name, headers=headers, http_get=http_tools[0], http_post=http_tools[1],
		mcp=mcp_servers[0], mcp_oauth=mcp_servers[1], flow=flow, flow_run=flow_run, prompt=prompt, seed_record=seed_record,
	)


def matrix_prompt(people: dict) -> str:
	"""A Private library prompt of alice's, in two versions, whose text is hers."""
	frappe.db.delete("Agent Prompt", {"slug": "matrix-private"})
	doc = frappe.get_doc({"doctype": "Agent Prompt", "title": "Matrix private", "slug": "matrix-private", "visibility": "Private", "prompt_body": SECRET_QUESTION})
	doc.insert()
	doc.prompt_body = SECRET_QUESTION + " (v2)"
	doc.save()
	frappe.db.set_value("Agent Prompt", {"slug": "matrix-private"}, "owner", people["alice"], update_modified=False)
	return doc.name


def matrix_flow(people: dict) -> tuple[str, str]:
	"""An Active flow every Huf User may read and start, and alice's run of it (Queued: no worker
	takes it here), whose input carries her text."""
	from huf.ai.flow import api as flow_api, runs as flow_runs

	if frappe.db.exists("Flow Definition", "matrix-flow"):
		frappe.db.delete("Flow Run", {"flow_definition": "matrix-flow"})
		frappe.delete_doc("Flow Definition", "matrix-flow", force=True)
	definition = {
		"nodes": [
			{"id": "hook", "type": "trigger.webhook", "data": {"label": "Hook", "config": {"secret": "matrix-flow-secret"}}},
			{"id": "ask", "type": "human.approval", "data": {"label": "Ask", "config": {"approval_type": "users", "users": [people["manager"]]}}},
			{"id": "done", "type": "end", "data": {"label": "Done", "config": {}}},
		],
		"edges": [{"id": "e1", "source": "hook", "target": "ask", "type": "always"}, {"id": "e2", "source": "ask", "target": "done", "type": "on_success"}],
	}
	flow_api.save_flow_definition("matrix-flow", definition, flow_name="Matrix Flow", status="Active")
	return "matrix-flow", flow_runs.start_run("matrix-flow", {"note": SECRET_QUESTION}, people["alice"], "Manual")


def cases(w) -> list[Case]:
	mine = {"alice"}
	return [
		# running and following runs
		Case("huf.ai.agent.integration.run_agent_sync", {"agent_name": w.agent, "prompt": "let me in", "conversation_id": w.conversation}, mine),
		Case("huf.ai.agent.integration.get_agent_run_status", {"run": w.run}, {"alice", "manager"}, "GET"),
		Case("huf.ai.agent.integration.cancel_agent_run", {"run": w.run}, {"alice", "manager"}),
		Case("huf.ai.agent.run_detail.get_run_detail", {"run": w.run}, {"alice", "manager"}, "GET"),
		# alice's run is not waiting for a decision: those allowed to decide get past the check to a 409
		Case("huf.ai.agent.approvals.decide_tool_call", {"run": w.run, "call_id": "none", "decision": "reject"}, {"alice", "manager"}, through=frozenset({409})),
		# nor waiting for a decision about an interrupted call
		Case("huf.ai.agent.approvals.resolve_interrupted_call", {"run": w.run, "tool_call": "none", "action": "end"}, {"alice", "manager"}, through=frozenset({409})),
		# chat
		Case("huf.ai.agent.chat.send_agent_chat_message", {"agent_name": w.agent, "message": "me too", "conversation_id": w.conversation}, mine),
		Case("huf.ai.agent.chat.get_agent_chat_messages", {"conversation_id": w.conversation}, {"alice", "manager"}, "GET"),
		Case("huf.ai.agent.chat.get_chat_conversations", {"agent_name": w.agent}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.agent.chat.get_chat_agents", {}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.agent.feedback.rate_agent_message", {"agent_message": w.reply, "feedback": "Thumbs Down"}, mine),
		Case("huf.permissions.get_me", {}, {"alice", "bob", "manager"}, "GET"),
		# providers
		Case("huf.ai.providers.get_provider_overview", {}, {"alice", "bob", "manager"}, "GET"),  # names and models, never keys
		Case("huf.ai.providers.test_provider_connection", {"provider": "Scripted", "model": "scripted-model"}, {"manager"}),
		# knowledge: everyone with Huf access reads, only managers change
		Case("huf.ai.knowledge.api.get_sources", {}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.knowledge.api.get_source", {"source": w.source}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.knowledge.api.get_index_status", {"source": w.source}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.knowledge.api.test_search", {"source": w.source, "query": "anything"}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.knowledge.api.add_input", {"source": w.source, "input_type": "Text", "text": "planted", "title": "planted"}, {"manager"}),
		Case("huf.ai.knowledge.api.rebuild_index", {"source": w.source}, {"manager"}),
		# triggers
		Case("huf.ai.triggers.api.get_trigger_overview", {"trigger": w.trigger}, {"manager"}, "GET"),
		Case("huf.ai.triggers.api.run_trigger_now", {"trigger": w.trigger}, {"manager"}),
		Case("huf.ai.triggers.api.send_test_delivery", {"trigger": w.trigger}, {"manager"}),
		# trying an HTTP tool's request: only those who may change the tool (it carries the tool's headers)
		Case("huf.ai.http_handler.handle_http_request", {"tool": w.http_get, "url": "/models"}, {"manager"}),
		Case("huf.ai.http_handler.handle_get_request", {"tool": w.http_get, "url": "/models"}, {"manager"}),
		Case("huf.ai.http_handler.handle_post_request", {"tool": w.http_post, "url": "/nothing", "body": {"q": 1}}, {"manager"}),
		# MCP servers: managers configure, test and sync them; who may use an agent sees its servers' names and counts
		Case("huf.ai.mcp_client.sync_mcp_server_tools", {"server_name": w.mcp}, {"manager"}),
		Case("huf.ai.mcp_client.test_mcp_connection", {"server_name": w.mcp}, {"manager"}),
		Case("huf.ai.mcp_client.get_agent_mcp_servers", {"agent_name": w.agent}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.mcp_client.get_available_mcp_servers", {}, {"manager"}, "GET"),
		Case("huf.ai.mcp_oauth.begin_mcp_sign_in", {"server_name": w.mcp_oauth}, {"manager"}),
		Case("huf.ai.mcp_oauth.disconnect_mcp_server", {"server_name": w.mcp_oauth}, {"manager"}),
		# the webhook takes guests by design, and only signed deliveries
		Case("huf.ai.triggers.webhooks.receive", {"slug": "matrix-hook"}, set()),
		# a flow's webhook (also at huf.ai.flow.api.flow_webhook): only with its node's secret in X-Huf-Secret
		Case("huf.ai.flow.webhook.flow_webhook", {"flow_id": "matrix-flow"}, set()),
		# flows: Huf Users read and start them, managers change them; a run is its starter's (and managers')
		Case("huf.ai.flow.api.get_flow_definition", {"flow_id": w.flow}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.flow.api.list_flows", {}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.flow.api.save_flow_definition", {"flow_id": w.flow, "flow_name": "Matrix Flow"}, {"manager"}),
		Case("huf.ai.flow.api.run_flow", {"flow_id": w.flow, "payload": {"from": "matrix"}}, {"alice", "bob", "manager"}),
		# a test run of a draft: who may change the flow; with no graph sent, a manager gets past the check to a 417
		Case("huf.ai.flow.api.run_flow_draft", {"flow_id": w.flow}, {"manager"}, through=frozenset({417})),
		Case("huf.ai.flow.api.get_flow_run", {"flow_run": w.flow_run}, {"alice", "manager"}, "GET"),
		Case("huf.ai.flow.api.list_flow_runs", {"flow_id": w.flow}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.flow.api.resume_flow_run", {"flow_run": w.flow_run}, {"alice", "manager"}),
		# alice's run waits for no one yet: those who may know get past the check to a 409
		Case("huf.ai.flow.api.approve_flow_run", {"flow_run": w.flow_run}, {"alice", "manager"}, through=frozenset({409})),
		Case("huf.ai.flow.api.reject_flow_run", {"flow_run": w.flow_run}, {"alice", "manager"}, through=frozenset({409})),
		# alice's run does not need attention: its owner and managers get past the check to a 409
		Case("huf.ai.flow.api.retry_flow_step", {"flow_run": w.flow_run}, {"alice", "manager"}, through=frozenset({409})),
		Case("huf.ai.flow.api.skip_flow_step", {"flow_run": w.flow_run, "output": "x"}, {"alice", "manager"}, through=frozenset({409})),
		Case("huf.ai.flow.api.end_flow_run", {"flow_run": w.flow_run}, {"alice", "manager"}, through=frozenset({409})),
		# the prompt library: everyone with Huf access lists what they may read; a Private prompt is its owner's (and managers')
		Case("huf.ai.prompts.list_prompts", {}, {"alice", "bob", "manager"}, "GET"),
		Case("huf.ai.prompts.get_prompt_version", {"prompt": w.prompt, "version": 1}, {"alice", "manager"}, "GET"),
		Case("huf.ai.prompts.diff_prompt_versions", {"prompt": w.prompt, "from_version": 1, "to_version": 2}, {"alice", "manager"}, "GET"),
		Case("huf.ai.prompts.prompt_usage", {"prompt": w.prompt}, {"alice", "manager"}, "GET"),
		# content apps ship in their huf/ folder: managers seed it, list it and take an app's version back
		Case("huf.ai.seeding.seed_all_apps", {}, {"manager"}),
		Case("huf.ai.seeding.get_seeded_content", {}, {"manager"}, "GET"),
		Case("huf.ai.seeding.restore_app_version", {"seed_record": w.seed_record}, {"manager"}),
	]


def call(web, w, case: Case, persona: str):
	headers = w.headers[persona]
	path = f"/api/method/{case.method}"
	if case.method.endswith("webhooks.receive"):
		return web.post(f"{path}?slug={case.params['slug']}", {"unsigned": True}, headers)
	if case.verb == "GET":
		return web.get(path, headers, **case.params)
	return web.post(path, case.params, headers)


def test_every_whitelisted_method_has_a_row(site, world):
	listed = {case.method for case in cases(world)}
	assert whitelisted_methods() == listed


@pytest.mark.parametrize("persona", ["guest", "alice", "bob", "manager"])
def test_each_persona_gets_through_only_where_it_should(site, web, world, persona):
	wrong = []
	for case in cases(world):
		answer = call(web, world, case, persona)
		if persona in case.ok:
			if answer.status_code not in case.through:
				wrong.append(f"{case.method}: {persona} was refused ({answer.status_code}: {answer.text[:200]})")
		elif answer.status_code not in REFUSED:
			wrong.append(f"{case.method}: {persona} got {answer.status_code}, expected a refusal")
		elif persona != "alice" and (SECRET_QUESTION in answer.text or SECRET_ANSWER in answer.text):
			wrong.append(f"{case.method}: {persona}'s refusal carried alice's text")
		if persona == "bob" and answer.ok and (SECRET_QUESTION in answer.text or SECRET_ANSWER in answer.text):
			wrong.append(f"{case.method}: bob read alice's text")
	frappe.db.rollback()
	assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("persona", ["guest", "bob"])
def test_routes_and_documents_refuse_another_users_ids(site, web, world, persona):
	headers = world.headers[persona]
	stream = web.post(f"/huf/stream/{world.agent}", {"prompt": "let me in", "conversation_id": world.conversation}, headers)
	assert stream.status_code == 403 and "event: error" in stream.text
	attach = web.get(f"/huf/stream/run/{world.run}", headers)
	assert attach.status_code == 403 and SECRET_ANSWER not in attach.text
	for doctype, name in (("Agent Run", world.run), ("Agent Conversation", world.conversation), ("Agent Message", world.reply), ("Flow Run", world.flow_run), ("Agent Prompt", world.prompt)):
		one = web.get(f"/api/resource/{doctype}/{name}", headers)
		assert one.status_code == 403, (doctype, one.status_code)
		listed = web.get(f"/api/resource/{doctype}", headers, fields='["name"]', limit_page_length=0)
		assert listed.status_code in (200, 403) and name not in listed.text, doctype
	import requests

	changed = requests.put(f"{web.base}/api/resource/Agent Conversation/{world.conversation}", json={"title": "mine now"}, headers=headers, timeout=60)
	assert changed.status_code in REFUSED
	assert frappe.db.get_value("Agent Conversation", world.conversation, "user") == world.people["alice"]


def test_a_provider_key_never_leaves_the_server(site, web, world, llm_server):
	fixtures.provider(llm_server, name="Scripted", api_key="sk-never-shown-4411")
	frappe.db.commit()
	for persona in ("manager", "bob", "guest"):
		for answer in (
			web.get("/api/resource/AI Provider/Scripted", world.headers[persona]),
			web.get("/api/method/huf.ai.providers.get_provider_overview", world.headers[persona]),
		):
			assert "sk-never-shown-4411" not in answer.text
