"""MCP servers on a real site: an agent using an MCP tool through a real worker against a real MCP
server (tests/support/mcp_server.py, on 127.0.0.1, which the test site allows), Sync Tools keeping
each row's flags (and the server's hints, which decide what a repeat after a dead worker does until an
administrator chooses), Test Connection's errors in words, OAuth sign-in through the site's callback page,
and who may create servers and read their secrets. (No postponed annotations here: FastMCP reads the
tool functions' annotations as types.)"""


import json
from urllib.parse import urlsplit

import frappe
import pytest
import requests
from mcp.server.fastmcp import FastMCP

from huf.ai.agent.integration import get_agent_run_status, run_agent_sync
from huf.ai.engine.effects import ONCE, REPEATABLE
from huf.ai.mcp.client import create_mcp_tools, get_agent_mcp_servers, sync_mcp_server_tools, test_mcp_connection
from tests.site import fixtures
from tests.site.conftest import as_user, drop_site_jobs, make_user, queued_jobs, wait_for
from tests.support.mcp_server import Served, auth_server, bound_socket, build
from tests.support.scripted_llm import text, tool_calls

SECRET = "sk-mcp-header-5d1c9e"


@pytest.fixture
def mcp():
	with Served(build().streamable_http_app()) as served:
		yield served


def mcp_server(name: str, url: str, **fields):
	if frappe.db.exists("MCP Server", name):
		frappe.delete_doc("MCP Server", name, force=True)
	doc = frappe.get_doc({"doctype": "MCP Server", "server_name": name, "transport_type": "http", "server_url": url, **fields})
	doc.insert()
	frappe.db.commit()
	return doc


def rows(name: str) -> dict:
	return {row.tool_name: row for row in frappe.get_doc("MCP Server", name).tools}


def test_an_agent_calls_an_mcp_tool_through_a_worker(site, llm, workers, mcp):
	server = mcp_server("huf-t-calc", mcp.url + "/mcp", tool_namespace="calc", auth_type="custom_header", auth_header_name="X-Secret", auth_header_value=SECRET)
	sync_mcp_server_tools(server.name)
	names = {tool: row.namespaced_name for tool, row in rows(server.name).items()}
	agent = fixtures.agent(llm, name="MCP Agent", agent_mcp_server=[{"mcp_server": server.name}])
	assert frappe.db.get_value("Agent MCP Server", {"parent": agent}, "tool_count") == len(names)
	llm.script(
		tool_calls([("c1", names["add"], json.dumps({"a": 2, "b": 40})), ("c2", names["header"], json.dumps({"name": "X-Secret"}))]),
		tool_calls([("c3", names["echo"], json.dumps({"text": "again"}))]),
		text("It is 42."),
	)
	handshakes = mcp.initializes
	user = make_user("mcp-runner@huf.test", ["Huf User"])
	with as_user(user):
		queued = run_agent_sync(agent, "What is 2 + 40?")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: get_agent_run_status(queued["run"])["status"] in ("Success", "Failed"), 60, message="the run")
	assert get_agent_run_status(queued["run"])["status"] == "Success"

	calls = frappe.get_all(
		"Agent Tool Call", filters={"agent_run": queued["run"]}, fields=["call_id", "tool", "is_mcp_tool", "mcp_server", "mcp_tool", "tool_result", "status"], order_by="call_id asc"
	)
	assert [(c.tool, c.is_mcp_tool, c.mcp_server, c.mcp_tool) for c in calls] == [
		(names["add"], 1, server.name, "add"),
		(names["header"], 1, server.name, "header"),
		(names["echo"], 1, server.name, "echo"),
	]
	assert "42" in calls[0].tool_result and "again" in calls[2].tool_result
	assert SECRET not in calls[1].tool_result  # the server saw it; the model and the row never do
	assert mcp.initializes - handshakes == 1  # one handshake for the run's three calls over two rounds


def test_an_mcp_image_reaches_a_vision_model_once_and_only_its_note_is_stored(site, llm, mcp):
	"""The run's next model call gets the image after the tool result; the tool call row and the
	tool message keep the text the model read (the note, no image data), so the next run's history
	replays the tool message and no image message. A result over the agent's Max Context Characters
	is kept as an artifact and stored as the reference the model read."""
	server = mcp_server("huf-t-pictures", mcp.url + "/mcp", tool_namespace="pics")
	sync_mcp_server_tools(server.name)
	names = {tool: row.namespaced_name for tool, row in rows(server.name).items()}
	vision = fixtures.model(fixtures.provider(llm), "gpt-4o")  # LiteLLM's model data: takes images
	agent = fixtures.agent(llm, name="MCP Vision Agent", model=vision, max_context_chars=1000, agent_mcp_server=[{"mcp_server": server.name}])
	llm.script(
		tool_calls([("c1", names["picture"], "{}"), ("c2", names["big"], json.dumps({"chars": 5000}))]),
		text("A dot."),
		text("Still a dot."),
	)
	first = run_agent_sync(agent, "What is in the picture?", now=True)
	assert first["status"] == "Success"
	sent = llm.chat_requests[1]["body"]["messages"]
	assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "tool", "user"]
	assert sent[-1]["content"][-1]["image_url"]["url"].startswith("data:image/png;base64,iVBOR")

	calls = {
		c.call_id: c
		for c in frappe.get_all("Agent Tool Call", filters={"agent_run": first["run"]}, fields=["call_id", "tool_result"])
	}
	messages = {
		m.tool_call_id: m.content
		for m in frappe.get_all("Agent Message", filters={"agent_run": first["run"], "role": "tool"}, fields=["tool_call_id", "content"])
	}
	assert [json.loads(calls[c].tool_result) for c in ("c1", "c2")] == [sent[3]["content"], sent[4]["content"]]
	assert [messages[c] for c in ("c1", "c2")] == [sent[3]["content"], sent[4]["content"]]
	assert "[image: image/png, 70 bytes; shown to you in a message after the tool results" in messages["c1"]
	assert "iVBOR" not in json.dumps(calls) + json.dumps(messages)
	reference = json.loads(messages["c2"])  # over Max Context Characters: kept whole, the model reads a reference
	assert "The result is 5,000 characters" in reference["note"] and frappe.db.exists("Agent Context Artifact", reference["artifact"])

	run_agent_sync(agent, "And now?", conversation_id=first["conversation"], now=True)
	replayed = llm.chat_requests[-1]["body"]["messages"]
	assert [m["role"] for m in replayed] == ["system", "user", "assistant", "tool", "tool", "assistant", "user"]
	assert replayed[3]["content"] == messages["c1"] and "data:image" not in json.dumps(replayed)


def test_a_header_whose_value_a_new_address_cleared_is_not_sent(site, mcp):
	from huf.ai.engine.mcp import MCPPool
	from huf.ai.mcp.client import policy, server_config

	team = [{"header_name": "X-Team", "header_value": SECRET + "-team"}, {"header_name": "X-Org", "header_value": SECRET + "-org"}]
	server = mcp_server("huf-t-moved-headers", mcp.url + "/mcp", custom_headers=team)
	doc = frappe.get_doc("MCP Server", server.name)  # as the form sends it: values masked
	doc.server_url = mcp.url.replace("127.0.0.1", "localhost") + "/mcp"  # the same server at another address
	doc.custom_headers[1].header_value = "typed-again"  # a value typed with the new address is kept
	doc.save()
	pool = MCPPool(policy())
	try:
		config = server_config(frappe.get_doc("MCP Server", server.name))
		assert pool.call_tool(config, "header", {"name": "X-Team"}) == "<none>"  # not even the name with an empty value
		assert pool.call_tool(config, "header", {"name": "X-Org"}) == "[hidden]"  # sent (a secret's echo is hidden)
	finally:
		pool.close()


def test_sync_keeps_each_rows_flags_and_turns_off_a_tool_that_went(site, mcp):
	server = mcp_server("huf-t-sync", mcp.url + "/mcp")
	first = sync_mcp_server_tools(server.name)
	before = rows(server.name)
	assert first["tool_count"] == len(before) and "wipe" in first["added"]
	assert before["wipe"].requires_approval == 1 and before["add"].requires_approval == 0  # destructiveHint
	assert json.loads(before["add"].parameters)["required"] == ["a", "b"]
	doc = frappe.get_doc("MCP Server", server.name)
	for row in doc.tools:
		if row.tool_name == "echo":
			row.enabled = 0
		if row.tool_name == "add":
			row.requires_approval = 1
	doc.save()

	smaller = FastMCP("huf-smaller", log_level="ERROR")

	@smaller.tool(name="add")
	def add(a: int, b: int) -> int:
		return a + b

	@smaller.tool(name="echo")
	def echo(text: str) -> str:
		return text

	@smaller.tool(name="greet")
	def greet(who: str) -> str:
		return f"hello {who}"

	with Served(smaller.streamable_http_app()) as other:
		doc = frappe.get_doc("MCP Server", server.name)
		doc.server_url = other.url + "/mcp"
		doc.save()
		second = sync_mcp_server_tools(server.name)
	after = rows(server.name)
	assert second["added"] == ["greet"] and "pid" in second["removed"] and "echo" not in second["removed"]
	assert after["add"].enabled == 1 and after["add"].requires_approval == 1
	assert after["echo"].enabled == 0 and after["greet"].enabled == 1
	assert after["pid"].enabled == 0 and "No longer offered" in after["pid"].description
	assert after["wipe"].requires_approval == 1 and after["wipe"].enabled == 0
	cached = json.loads(frappe.db.get_value("MCP Server", server.name, "available_tools"))
	assert sorted(t["tool"] for t in cached) == ["add", "echo", "greet"]


def test_the_servers_hints_decide_what_a_repeat_does_until_an_administrator_chooses(site, mcp):
	server = mcp_server("huf-t-effects", mcp.url + "/mcp")
	sync_mcp_server_tools(server.name)
	found = rows(server.name)
	hints = lambda row: (row.read_only_hint, row.idempotent_hint)  # noqa: E731
	assert (hints(found["add"]), hints(found["files.read"]), hints(found["echo"])) == ((0, 1), (1, 0), (0, 0))
	assert {row.effect for row in found.values()} == {"Automatic"}
	assert effects(server.name) == {"add": REPEATABLE, "files.read": REPEATABLE, "echo": ONCE, "wipe": ONCE}

	doc = frappe.get_doc("MCP Server", server.name)
	for row in doc.tools:
		row.effect = {"add": "Ask before repeating", "echo": "Safe to repeat"}.get(row.tool_name, row.effect)
	doc.save()
	assert effects(server.name) == {"add": ONCE, "files.read": REPEATABLE, "echo": REPEATABLE, "wipe": ONCE}
	sync_mcp_server_tools(server.name)  # the administrator's choices stay; the hints are the server's again
	again = rows(server.name)
	assert (again["add"].effect, again["echo"].effect, again["wipe"].effect) == ("Ask before repeating", "Safe to repeat", "Automatic")
	assert (hints(again["add"]), hints(again["files.read"])) == ((0, 1), (1, 0))
	assert effects(server.name) == {"add": ONCE, "files.read": REPEATABLE, "echo": REPEATABLE, "wipe": ONCE}


def effects(server: str) -> dict:
	"""The effect of some of the server's tools as an agent's run gets them, by the server's names."""
	agent = frappe._dict(agent_mcp_server=[frappe._dict(mcp_server=server, enabled=1)])
	tools, pool = create_mcp_tools(agent)
	pool.close()
	return {tool.origin["mcp_tool"]: tool.effect for tool in tools if tool.origin["mcp_tool"] in ("add", "files.read", "echo", "wipe")}


def test_connection_problems_read_as_words(site, llm_server, mcp):
	closed = bound_socket()
	port = closed.getsockname()[1]
	closed.close()
	down = mcp_server("huf-t-down", f"http://127.0.0.1:{port}/mcp", timeout_seconds=5)
	report = test_mcp_connection(down.name)
	assert not report["ok"] and report["error_kind"] == "refused" and "refused the connection" in report["error"]
	with pytest.raises(frappe.ValidationError, match="refused the connection"):
		sync_mcp_server_tools(down.name)
	assert frappe.db.get_value("MCP Server", down.name, "last_sync") is None

	other = mcp_server("huf-t-other", llm_server.base_url, timeout_seconds=5)  # an HTTP server, not MCP
	report = test_mcp_connection(other.name)
	assert not report["ok"] and report["error_kind"] == "not_mcp", report

	good = test_mcp_connection(mcp_server("huf-t-good", mcp.url + "/mcp").name)
	assert good["ok"] and good["server_name"] == "huf-test" and good["tool_count"] >= 10 and not good["error"]


def test_bad_settings_are_refused_at_save(site):
	with pytest.raises(frappe.ValidationError, match="must start with http:// or https://"):
		mcp_server("huf-t-bad", "ftp://example.com/mcp")
	with pytest.raises(frappe.ValidationError, match="private network address.*huf_allowed_hosts"):
		mcp_server("huf-t-private", "http://10.20.30.40/mcp")
	with pytest.raises(frappe.ValidationError, match="needs a value"):
		mcp_server("huf-t-nokey", "http://127.0.0.1:9/mcp", auth_type="bearer_token")
	assert not frappe.db.exists("MCP Server", {"name": ("in", ["huf-t-bad", "huf-t-private", "huf-t-nokey"])})


def test_only_tool_mcp_stdio_adds_a_stdio_server(site):
	"""tool.mcp.write connects MCP servers; one that starts a program here also takes tool.mcp.stdio
	(Huf Managers and Huf Admins hold both)."""
	role = frappe.db.get_value("Huf Role", {"role_name": "MCP Connector"})
	role = frappe.get_doc("Huf Role", role) if role else frappe.get_doc({"doctype": "Huf Role", "role_name": "MCP Connector"})
	role.set("permissions", [{"capability": "tool.mcp.write"}])
	role.save()
	connector = make_user("mcp-connector@huf.test", ["MCP Connector"])
	system = make_user("mcp-sysadmin@huf.test", ["System Manager"])
	manager = make_user("mcp-stdio-manager@huf.test", ["Huf Manager"])
	program = "/usr/local/bin/huf-test-mcp"
	stdio = {"transport_type": "stdio", "command": program, "server_url": ""}
	frappe.conf.huf_mcp_stdio_commands = [program]
	try:
		with as_user(connector), pytest.raises(frappe.PermissionError, match='"tool.mcp.stdio"'):
			mcp_server("huf-t-stdio", "", **stdio)
		with as_user(connector):
			assert mcp_server("huf-t-http", "http://127.0.0.1:9/mcp").name == "huf-t-http"  # an address is theirs to add
		for person in (manager, system):
			with as_user(person):
				assert mcp_server("huf-t-stdio", "", **stdio).name == "huf-t-stdio"
		frappe.conf.huf_mcp_stdio_commands = []
		with as_user(manager), pytest.raises(frappe.ValidationError, match="not an allowed command.*huf_mcp_stdio_commands"):
			mcp_server("huf-t-stdio", "", **stdio)
	finally:
		frappe.conf.pop("huf_mcp_stdio_commands", None)


def test_a_huf_user_reads_no_server_secrets(site, llm, web, mcp):
	server = mcp_server(
		"huf-t-secret", mcp.url + "/mcp", auth_type="bearer_token", auth_header_value=SECRET, custom_headers=[{"header_name": "X-Team", "header_value": SECRET + "-team"}]
	)
	agent = fixtures.agent(llm, name="MCP Reader Agent", allow_chat=1, agent_mcp_server=[{"mcp_server": server.name}])
	user = make_user("mcp-reader@huf.test", ["Huf User"])
	manager = make_user("mcp-secret-manager@huf.test", ["Huf User", "Huf Manager"])
	headers, manager_headers = web.token_headers(user), web.token_headers(manager)
	for path, params in (
		(f"/api/resource/MCP Server/{server.name}", {}),
		("/api/method/frappe.client.get", {"doctype": "MCP Server", "name": server.name}),
		("/api/method/frappe.client.get_value", {"doctype": "MCP Server", "filters": server.name, "fieldname": "auth_header_value"}),
	):
		answer = web.get(path, headers, **params)
		assert answer.status_code == 403 and SECRET not in answer.text, path
		assert SECRET not in web.get(path, manager_headers, **params).text  # managers see the masked value only
	read = web.get(f"/api/resource/Agent/{agent}", headers)
	assert read.status_code == 200 and mcp.url not in read.text and SECRET not in read.text
	listed = web.get("/api/method/huf.ai.mcp.client.get_agent_mcp_servers", headers, agent_name=agent).json()["message"]
	assert listed == [{"mcp_server": server.name, "enabled": 1, "server_enabled": 1, "tool_count": 0}]
	with as_user(manager):
		assert get_agent_mcp_servers(agent)[0]["server_url"] == mcp.url + "/mcp"


def test_oauth_sign_in_through_the_callback_page(site, web):
	served, provider = auth_server()
	manager = make_user("mcp-oauth-manager@huf.test", ["Huf User", "Huf Manager"])
	headers = web.token_headers(manager)
	with served:
		server = mcp_server("huf-t-oauth", served.url + "/mcp", auth_type="oauth")
		begun = web.post("/api/method/huf.ai.mcp.oauth.begin_mcp_sign_in", {"server_name": server.name}, headers)
		assert begun.status_code == 200, begun.text
		authorize = requests.get(begun.json()["message"]["authorization_url"], allow_redirects=False, timeout=30)
		back = urlsplit(authorize.headers["location"])
		assert back.path == "/mcp-oauth-callback"
		stranger = web.get(f"{back.path}?{back.query}", web.token_headers(make_user("mcp-oauth-other@huf.test", ["Huf Manager"])))
		assert "as the person, that started it" in stranger.text
		page = web.get(f"{back.path}?{back.query}", headers)
		assert page.status_code == 200 and 'data-ok="1"' in page.text and "Connected to huf-oauth" in page.text, page.text[-2000:]
		again = web.get(f"{back.path}?{back.query}", headers)
		assert "expired or was already used" in again.text
		frappe.db.commit()
		doc = frappe.get_doc("MCP Server", server.name)
		token = doc.get_password("oauth_access_token")
		assert doc.oauth_status == "Connected" and token in provider.access and doc.oauth_token_expires_at
		assert token not in str(frappe.db.sql("select * from `tabMCP Server` where name=%s", server.name))
		assert test_mcp_connection(server.name)["ok"]  # the stored token is used
		assert web.post("/api/method/huf.ai.mcp.oauth.disconnect_mcp_server", {"server_name": server.name}, headers).ok
		frappe.db.commit()
		report = test_mcp_connection(server.name)
		assert not report["ok"] and report["error_kind"] == "sign_in"
		assert frappe.db.get_value("MCP Server", server.name, "oauth_status") == "Not Connected"


def queued_syncs() -> list[str]:
	return [job.kwargs["kwargs"]["server_name"] for job in queued_jobs("long", "huf.ai.mcp.client.sync_job")]


def test_auto_sync_from_the_minute_job(site, mcp):
	from frappe.utils import add_to_date, now_datetime

	from huf.ai.mcp.client import FAILED_SYNC, auto_sync, sync_job

	frappe.db.sql("update `tabMCP Server` set enable_auto_sync = 0")
	server = mcp_server("huf-t-auto", mcp.url + "/mcp", enable_auto_sync=1, auto_sync_interval=6)
	frappe.get_doc("Scheduled Job Type", {"method": "huf.ai.run.every_minute.run"}).execute()
	assert queued_syncs() == [server.name]
	sync_job(server.name)
	assert len(rows(server.name)) >= 10
	frappe.db.set_value("MCP Server", server.name, "last_sync", add_to_date(now_datetime(), hours=-5), update_modified=False)
	auto_sync()
	assert queued_syncs() == [server.name]  # only the first job: not due again within six hours
	frappe.db.set_value("MCP Server", server.name, {"last_sync": add_to_date(now_datetime(), hours=-7), "server_url": "http://127.0.0.1:9/mcp"}, update_modified=False)
	frappe.db.commit()
	sync_job(server.name)  # fails: logged, and no retry until an interval has passed
	try:
		assert frappe.cache.get_value(FAILED_SYNC + server.name, expires=True)
		drop_site_jobs(site, ("long",))
		auto_sync()
		assert queued_syncs() == []
	finally:
		frappe.cache.delete_value(FAILED_SYNC + server.name)
