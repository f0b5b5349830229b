"""The permission walk: every whitelisted method of Huf, over HTTP, as Guest, two Huf Users (alice
owns the objects, bob is another user with alice's ids), a Huf Viewer, a Huf Gateway User, a Huf
Manager, a Huf Admin (System Manager) and a custom Huf Role this test makes.

Who gets through is worked out from the code, not written by hand: a method's capability
(``huf.capabilities.NEEDS``, set by ``@needs``) gives the personas holding it (their capabilities as
the site reports them), and a row only narrows that by ownership (``among``: e.g. alice and whoever
sees every run). Every refusal is asserted, a refusal for a missing capability is a 403 that names
the capability, and a refused answer never carries alice's text. A whitelisted method with neither
``@needs`` nor ``@open_to``, or without a row here, fails the first tests, so a new endpoint
cannot ship without both."""

from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import dataclass

import frappe
import pytest

import huf
from huf.capabilities import BUILTIN_ROLES, GATEWAY_ROLE, NEEDS, OPEN
from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.mcp_server import Served, auth_server, build
from tests.support.scripted_llm import text

SECRET_QUESTION = "alice-only question 7f3a"
SECRET_ANSWER = "alice-only answer 9c1d"
REFUSED = {401, 403, 404, 417}
PERSONAS = ("guest", "alice", "bob", "viewer", "gateway", "manager", "admin", "custom")
CUSTOM_ROLE = "Matrix Custom"
CUSTOM_CAPABILITIES = ("agent.read", "agent.run", "run.read", "knowledge.read", "knowledge.write")
FRAPPE_ROLES = {  # each persona's site roles (a Huf Role is held through its site Role)
	"alice": ["Huf User"],
	"bob": ["Huf User"],
	"viewer": ["Huf Viewer"],
	"gateway": [GATEWAY_ROLE],
	"manager": ["Huf Manager"],
	"admin": ["System Manager"],
	"custom": [CUSTOM_ROLE],
}
BUILT_IN = {"alice": "Huf User", "bob": "Huf User", "viewer": "Huf Viewer", "gateway": GATEWAY_ROLE, "manager": "Huf Manager", "admin": "Huf Admin"}


@dataclass
class Case:
	"""One call. Who gets through: the personas holding the method's capability, narrowed to
	``among`` when the method also checks ownership; for an ``@open_to`` method, exactly ``ok``."""

	method: str
	params: dict
	among: frozenset[str] | None = None
	verb: str = "POST"
	through: frozenset[int] = frozenset({200})  # the answers that mean the caller got past the permission check
	ok: frozenset[str] = frozenset()  # @open_to methods only
	capability: str | None = None  # an @open_to method that still asks signed-in callers for one


def capability_of(case: Case) -> str | None:
	return NEEDS.get(case.method) or case.capability


def allowed(case: Case, held: dict[str, frozenset[str]]) -> set[str]:
	if case.method not in NEEDS:
		return set(case.ok)
	who = {persona for persona in PERSONAS if NEEDS[case.method] in held[persona]}
	return who & case.among if case.among is not None else who


def whitelisted_methods() -> set[str]:
	"""Every function of Huf's whitelisted by Frappe, found by importing all of Huf's modules."""
	for module in pkgutil.walk_packages(huf.__path__, "huf."):
		if ".doctype." in module.name or module.name.startswith(("huf.patches", "huf.www")):
			continue
		importlib.import_module(module.name)
	return {f"{fn.__module__}.{fn.__qualname__}" for fn in frappe.whitelisted if fn.__module__.startswith("huf.")}


def refusal_text(answer) -> str:
	"""The words of a refusal: Frappe's ``_server_messages`` (JSON in JSON) and the exception."""
	try:
		body = answer.json()
	except ValueError:
		return answer.text
	words = [str(body.get("exception") or "")]
	for message in json.loads(body.get("_server_messages") or "[]"):
		message = json.loads(message) if isinstance(message, str) else message
		words.append(str(message.get("message") if isinstance(message, dict) else message))
	return "\n".join(words)


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
	custom_role()
	people = {persona: make_user(f"matrix-{persona}@huf.test", roles) for persona, roles in FRAPPE_ROLES.items()}
	people["nobody"] = make_user("matrix-nobody@huf.test", [])  # signed in, with no Huf Role at all (the stream test)
	from huf.permissions import capabilities, forget_capabilities

	forget_capabilities()
	held = {persona: capabilities(user) for persona, user in people.items()} | {"guest": frozenset()}
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
	voice_note = matrix_voice_note(people["alice"])
	table = matrix_table()
	integration = matrix_integration()
	prompt = matrix_prompt(people)
	from huf.ai import seeding

	seeding.seed(["huf"], examples=["huf"])  # Huf's example: the example flow's row is taken back below
	seed_record = frappe.db.get_value(seeding.TRACK, {"app": "huf", "seed_key": "example-triage"})
	frappe.db.commit()
	headers = {name: web.token_headers(user) for name, user in people.items()}
	headers["guest"] = web.site_header()
	return frappe._dict(
		people=people, held=held, agent=agent, run=result["run"], conversation=result["conversation"], reply=reply,
		source="Matrix Source", trigger=trigger.name, headers=headers, http_get=http_tools[0], http_post=http_tools[1],
		mcp=mcp_servers[0], mcp_oauth=mcp_servers[1], flow=flow, flow_run=flow_run, prompt=prompt, seed_record=seed_record,
		table=table, table_fields=json.dumps(MATRIX_TABLE_FIELDS), voice_note=voice_note, integration=integration,
	)


def matrix_voice_note(user: str) -> str:
	"""Alice's private voice note (a real WAV), as the chat's microphone uploads it."""
	from tests.support.scripted_media import wav

	frappe.set_user(user)
	try:
		return frappe.get_doc({"doctype": "File", "file_name": "matrix-voice.wav", "content": wav(), "is_private": 1}).insert().file_url
	finally:
		frappe.set_user("Administrator")


def custom_role() -> None:
	"""A custom Huf Role with CUSTOM_CAPABILITIES (its site Role gets exactly their record rights)."""
	name = frappe.db.get_value("Huf Role", {"role_name": CUSTOM_ROLE})
	doc = frappe.get_doc("Huf Role", name) if name else frappe.get_doc({"doctype": "Huf Role", "role_name": CUSTOM_ROLE})
	doc.role_description = "The permission walk's custom role"
	doc.set("permissions", [{"capability": capability} for capability in CUSTOM_CAPABILITIES])
	doc.save()
	frappe.db.commit()


MATRIX_TABLE_FIELDS = [{"label": "Title", "fieldname": "title", "fieldtype": "Data"}]


def matrix_table() -> str:
	"""A data table with the default roles (Huf Manager writes rows, Huf User reads them) and one row."""
	from huf.ai.data_tables import api as tables

	if frappe.db.exists("Huf Data Table", "Matrix Table"):
		tables.delete_data_table("Matrix Table")
	tables.create_data_table("Matrix Table", json.dumps(MATRIX_TABLE_FIELDS))
	tables.import_csv("Matrix Table", "title\na row anyone may read\n")
	frappe.db.commit()
	return "Matrix Table"


def matrix_integration() -> str:
	"""Webhook settings without a URL (nothing can be posted) and one recipient."""
	if frappe.db.exists("Integration Settings", "Matrix Chat"):
		frappe.delete_doc("Integration Settings", "Matrix Chat", force=True)
	frappe.get_doc({"doctype": "Integration Settings", "title": "Matrix Chat", "service": "webhook", "recipients": [{"recipient_name": "General"}]}).insert()
	frappe.db.commit()
	return "Matrix Chat"


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
	def holding(capability: str) -> frozenset[str]:
		return frozenset(persona for persona in PERSONAS if capability in w.held[persona])

	F = frozenset
	mine = F({"alice"})  # only alice: another user's ids are refused even to those who see every run
	hers = mine | holding("run.read.all")  # alice's runs and conversations: her, and who sees every run
	flow_hers = mine | (holding("run.read.all") & holding("flow.write"))  # acting on her flow run
	private = mine | holding("prompt.write")  # her Private prompt: her, and who looks after the library
	signed_in = F(PERSONAS) - {"guest"}
	GET = "GET"
	return [
		# running and following runs; Guests only reach agents that allow guests (this one does not)
		Case("huf.ai.agent.integration.run_agent_sync", {"agent_name": w.agent, "prompt": "let me in", "conversation_id": w.conversation}, ok=mine, capability="agent.run"),
		Case("huf.ai.agent.integration.get_agent_run_status", {"run": w.run}, hers, GET),
		Case("huf.ai.agent.integration.cancel_agent_run", {"run": w.run}, hers),
		Case("huf.ai.agent.run_detail.get_run_detail", {"run": w.run}, hers, GET),
		# alice's run is not waiting for a decision: those allowed to decide get past the check to a 409
		Case("huf.ai.agent.approvals.decide_tool_call", {"run": w.run, "call_id": "none", "decision": "reject"}, hers, through=F({409})),
		# nor waiting for a decision about an interrupted call
		Case("huf.ai.agent.approvals.resolve_interrupted_call", {"run": w.run, "tool_call": "none", "action": "end"}, hers, through=F({409})),
		# chat
		Case("huf.ai.agent.chat.send_agent_chat_message", {"agent_name": w.agent, "message": "me too", "conversation_id": w.conversation}, mine),
		Case("huf.ai.agent.chat.get_agent_chat_messages", {"conversation_id": w.conversation}, hers, GET),
		Case("huf.ai.agent.chat.get_chat_conversations", {"agent_name": w.agent}, None, GET),  # each caller's own
		Case("huf.ai.agent_state.memory.get_conversation_memory", {"conversation": w.conversation}, mine, GET),  # the owner only, managers too refused
		Case("huf.ai.agent_state.memory.set_conversation_memory", {"conversation": w.conversation, "key": "planted", "value": '"x"'}, mine),
		Case("huf.ai.agent.chat.get_chat_agents", {}, None, GET),
		Case("huf.ai.agent.feedback.rate_agent_message", {"agent_message": w.reply, "feedback": "Thumbs Down"}, mine),
		Case("huf.permissions.get_me", {}, verb=GET, ok=signed_in),
		# providers: names and models, never keys
		Case("huf.ai.providers.get_provider_overview", {}, None, GET),
		Case("huf.ai.providers.test_provider_connection", {"provider": "Scripted", "model": "scripted-model"}),
		# knowledge
		Case("huf.ai.knowledge.api.get_sources", {}, None, GET),
		Case("huf.ai.knowledge.api.get_source", {"source": w.source}, None, GET),
		Case("huf.ai.knowledge.api.get_index_status", {"source": w.source}, None, GET),
		Case("huf.ai.knowledge.api.test_search", {"source": w.source, "query": "anything"}, None, GET),
		Case("huf.ai.knowledge.api.add_input", {"source": w.source, "input_type": "Text", "text": "planted", "title": "planted"}),
		Case("huf.ai.knowledge.api.rebuild_index", {"source": w.source}),
		# triggers
		Case("huf.ai.triggers.api.get_trigger_overview", {"trigger": w.trigger}, None, GET),
		Case("huf.ai.triggers.api.run_trigger_now", {"trigger": w.trigger}),
		Case("huf.ai.triggers.api.send_test_delivery", {"trigger": w.trigger}),
		# trying an HTTP tool's request: only those who may change tools (it carries the tool's headers)
		Case("huf.ai.http_handler.handle_http_request", {"tool": w.http_get, "url": "/models"}),
		Case("huf.ai.http_handler.handle_get_request", {"tool": w.http_get, "url": "/models"}),
		Case("huf.ai.http_handler.handle_post_request", {"tool": w.http_post, "url": "/nothing", "body": {"q": 1}}),
		# MCP servers: configured, tested and synced with tool.mcp.write; who may use an agent sees its servers' names and counts
		Case("huf.ai.mcp.client.sync_mcp_server_tools", {"server_name": w.mcp}),
		Case("huf.ai.mcp.client.test_mcp_connection", {"server_name": w.mcp}),
		Case("huf.ai.mcp.client.get_agent_mcp_servers", {"agent_name": w.agent}, None, GET),
		Case("huf.ai.mcp.client.get_available_mcp_servers", {}, None, GET),
		Case("huf.ai.mcp.oauth.begin_mcp_sign_in", {"server_name": w.mcp_oauth}),
		Case("huf.ai.mcp.oauth.disconnect_mcp_server", {"server_name": w.mcp_oauth}),
		# the webhook takes guests by design, and only signed deliveries
		Case("huf.ai.triggers.webhooks.receive", {"slug": "matrix-hook"}),
		# a flow's webhook (also at huf.ai.flow.api.flow_webhook): only with its node's secret in X-Huf-Secret
		Case("huf.ai.flow.webhook.flow_webhook", {"flow_id": "matrix-flow"}),
		# flows; a run is its starter's (and seen by who sees every run, acted on by who also changes flows)
		Case("huf.ai.flow.api.get_flow_definition", {"flow_id": w.flow}, None, GET),
		Case("huf.ai.flow.api.list_flows", {}, None, GET),
		Case("huf.ai.flow.api.save_flow_definition", {"flow_id": w.flow, "flow_name": "Matrix Flow"}),
		Case("huf.ai.flow.api.run_flow", {"flow_id": w.flow, "payload": {"from": "matrix"}}),
		# a test run of a draft: who may change the flow and start flows; with no graph sent, they get past the check to a 417
		Case("huf.ai.flow.api.run_flow_draft", {"flow_id": w.flow}, holding("flow.run"), through=F({417})),
		Case("huf.ai.flow.api.get_flow_run", {"flow_run": w.flow_run}, hers, GET),
		Case("huf.ai.flow.api.list_flow_runs", {"flow_id": w.flow}, None, GET),
		Case("huf.ai.flow.api.resume_flow_run", {"flow_run": w.flow_run}, flow_hers),
		# alice's run waits for no one yet: those who may know get past the check to a 409
		Case("huf.ai.flow.api.approve_flow_run", {"flow_run": w.flow_run}, hers, through=F({409})),
		Case("huf.ai.flow.api.reject_flow_run", {"flow_run": w.flow_run}, hers, through=F({409})),
		# alice's run does not need attention: its owner and who manages flow runs get past the check to a 409
		Case("huf.ai.flow.api.retry_flow_step", {"flow_run": w.flow_run}, flow_hers, through=F({409})),
		Case("huf.ai.flow.api.skip_flow_step", {"flow_run": w.flow_run, "output": "x"}, flow_hers, through=F({409})),
		Case("huf.ai.flow.api.end_flow_run", {"flow_run": w.flow_run}, flow_hers, through=F({409})),
		# the builder assistant: no model is chosen here, so whoever gets past the checks gets a 417 saying how to set one up
		Case("huf.ai.assistant.api.assistant_status", {}, None, GET),
		Case("huf.ai.assistant.api.propose_flow", {"flow": w.flow, "request": "add a step"}, None, through=F({417})),
		Case("huf.ai.assistant.api.draft_agent", {"description": "an agent that answers"}, None, through=F({417})),
		Case("huf.ai.assistant.api.explain_flow_run", {"flow_run": w.flow_run}, hers, through=F({417})),
		Case("huf.ai.assistant.api.explain_run", {"run": w.run}, hers, through=F({417})),
		# the prompt library: a Private prompt is its owner's (and the library's keepers')
		Case("huf.ai.prompts.list_prompts", {}, None, GET),
		Case("huf.ai.prompts.get_prompt_version", {"prompt": w.prompt, "version": 1}, private, GET),
		Case("huf.ai.prompts.diff_prompt_versions", {"prompt": w.prompt, "from_version": 1, "to_version": 2}, private, GET),
		Case("huf.ai.prompts.prompt_usage", {"prompt": w.prompt}, private, GET),
		# content apps ship in their huf/ folder: seeded, listed and taken back by admins
		Case("huf.ai.seeding.seed_all_apps", {}),
		Case("huf.ai.seeding.get_seeded_content", {}, None, GET),
		Case("huf.ai.seeding.restore_app_version", {"seed_record": w.seed_record}),
		# the chat page's first-screen guide: each caller's own steps; Huf's example, added by who may add providers
		Case("huf.ai.getting_started.get_checklist", {}, None, GET),
		Case("huf.ai.getting_started.add_example", {}),
		# data tables: made and changed with table.write, seen with table.read; the rows follow the
		# table's roles (default: Huf Manager writes, Huf User reads). No fields: past the check to a 417
		Case("huf.ai.data_tables.api.create_data_table", {"table_name": "Matrix Refused", "fields": "[]"}, through=F({417})),
		Case("huf.ai.data_tables.api.update_data_table", {"name": w.table, "fields": w.table_fields}),  # no change
		Case("huf.ai.data_tables.api.delete_data_table", {"name": "No Such Matrix Table"}, through=F({404})),
		Case("huf.ai.data_tables.api.get_data_table", {"name": w.table}, None, GET),
		Case("huf.ai.data_tables.api.list_data_tables", {}, None, GET),
		Case("huf.ai.data_tables.api.count_rows", {"name": w.table}, None, GET),
		Case("huf.ai.data_tables.api.list_rows", {"name": w.table}, None, GET),
		Case("huf.ai.data_tables.api.export_csv", {"name": w.table}, None, GET),
		Case("huf.ai.data_tables.api.preview_csv", {"name": w.table, "content": "title\nplanted\n"}),
		Case("huf.ai.data_tables.api.import_csv", {"name": w.table, "content": "title\n"}),  # no rows: nothing written
		# voice: a voice note is read only by its uploader; a voice sample is for who edits the agent
		Case("huf.ai.media.speech_to_text.transcribe_audio", {"audio_file_url": w.voice_note, "language": "en", "agent": w.agent}, mine),
		Case("huf.ai.media.sdk_tools.preview_voice", {"agent": w.agent, "text": "Hi"}),
		# integrations: set up and tried by integration.write; an unknown recipient is past the check (417)
		Case("huf.ai.integrations.api.list_integrations", {}, None, GET),
		Case("huf.ai.integrations.api.get_integration_settings", {"name": w.integration}, None, GET),
		Case("huf.ai.integrations.api.save_integration_settings", {"settings": {"name": w.integration, "credentials": {}}}),  # no change
		Case("huf.ai.integrations.api.delete_integration_settings", {"name": "No Such Matrix Integration"}),  # a quiet 200
		Case("huf.ai.integrations.api.send_test_message", {"settings": w.integration, "recipient": "Nobody"}, through=F({417})),
		# people and roles: what gets through is refused further on (no change is made)
		Case("huf.ai.people.list_huf_roles", {}, None, GET),
		Case("huf.ai.people.list_people", {"search": "matrix-"}, None, GET),
		Case("huf.ai.people.save_huf_role", {"name": "Huf User", "role_name": "Renamed", "capabilities": []}, through=F({417})),
		Case("huf.ai.people.delete_huf_role", {"name": "No Such Matrix Role"}),  # nothing to delete: a quiet 200
		Case("huf.ai.people.assign_huf_role", {"user": w.people["bob"], "huf_role": "No Such Matrix Role"}, through=F({404})),
		Case("huf.ai.people.remove_huf_role", {"user": w.people["bob"], "huf_role": "No Such Matrix Role"}, through=F({404})),
	]


def call(web, w, case: Case, persona: str):
	headers = w.headers[persona]
	path = f"/api/method/{case.method}"
	if case.method.endswith("webhooks.receive"):
		return web.post(f"{path}?slug={case.params['slug']}", {"unsigned": True}, headers)
	if case.verb == "GET":
		return web.get(path, headers, **case.params)
	return web.post(path, case.params, headers)


def test_every_whitelisted_method_is_under_a_capability_or_says_why_not(site):
	methods = whitelisted_methods()
	bare = sorted(methods - set(NEEDS) - set(OPEN))
	assert not bare, f"whitelisted without @needs(capability) or @open_to(reason): {bare}"
	assert not set(NEEDS) & set(OPEN), "a method is either under a capability or open, not both"
	assert set(NEEDS) | set(OPEN) <= methods, "@needs / @open_to on a method Frappe does not whitelist (decorator order?)"


def test_every_whitelisted_method_has_a_row(site, world):
	listed = [case.method for case in cases(world)]
	assert len(listed) == len(set(listed)), "one row per method"
	assert whitelisted_methods() == set(listed)


def test_the_personas_hold_what_their_roles_give(site, world):
	"""The walk derives who gets through from these, so they must be the code's own role definitions."""
	for persona, role in BUILT_IN.items():
		assert world.held[persona] == frozenset(BUILTIN_ROLES[role][2]), persona
	assert world.held["custom"] == frozenset(CUSTOM_CAPABILITIES)


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_persona_gets_through_only_where_it_should(site, web, world, persona):
	wrong = []
	for case in cases(world):
		answer = call(web, world, case, persona)
		capability = capability_of(case)
		if persona in allowed(case, world.held):
			if answer.status_code not in case.through:
				wrong.append(f"{case.method}: {persona} was refused ({answer.status_code}: {answer.text[:200]})")
		elif answer.status_code not in REFUSED:
			wrong.append(f"{case.method}: {persona} got {answer.status_code}, expected a refusal")
		elif capability and persona != "guest" and capability not in world.held[persona]:
			said = refusal_text(answer)
			if answer.status_code != 403 or f'"{capability}"' not in said:
				wrong.append(f"{case.method}: {persona} lacks {capability}; the refusal ({answer.status_code}) must be a 403 naming it: {said[:200]}")
		if persona != "alice" and not answer.ok and (SECRET_QUESTION in answer.text or SECRET_ANSWER in answer.text):
			wrong.append(f"{case.method}: {persona}'s refusal carried alice's text")
		sees_hers = persona == "alice" or {"run.read.all", "prompt.write"} & world.held[persona]
		if not sees_hers and answer.ok and (SECRET_QUESTION in answer.text or SECRET_ANSWER in answer.text):
			wrong.append(f"{case.method}: {persona} read alice's text")
	frappe.db.rollback()
	assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("persona", ["guest", "bob", "viewer", "gateway", "custom", "nobody"])
def test_routes_and_documents_refuse_another_users_ids(site, web, world, persona):
	headers = world.headers[persona]
	held = world.held[persona]
	stream = web.post(f"/huf/stream/{world.agent}", {"prompt": "let me in", "conversation_id": world.conversation}, headers)
	assert stream.status_code == 403 and "event: error" in stream.text
	if persona != "guest" and "agent.run" not in held:  # refused for the capability, and told which
		assert '\\"agent.run\\"' in stream.text, stream.text
	attach = web.get(f"/huf/stream/run/{world.run}", headers)
	assert attach.status_code == 403 and SECRET_ANSWER not in attach.text
	if persona != "guest" and "run.read" not in held:
		assert '\\"run.read\\"' in attach.text, attach.text
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
