"""GET and POST tools on a real site: an agent calling them through a real worker against a local
server (127.0.0.1 and localhost are on the test site's huf_allowed_hosts), secret headers kept to
the Base URL's host and out of every answer and row, the Idempotency-Key a POST carries, who may try
a request, and bad input."""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from urllib.parse import quote

import frappe
import pytest

from huf.ai.agent.integration import get_agent_run_status, run_agent_sync
from huf.ai.http_handler import handle_get_request, handle_http_request, handle_post_request, validate_url
from huf.ai.tools import build_tool
from huf.ai.tools.context import RunContext
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import text, tool_calls

SECRET = "sk-http-tool-7b2e9d41c0"


@pytest.fixture
def server():
	with LocalServer() as running:
		yield running


def http_tool(name: str, types: str, base_url: str | None, secret: bool = True, **extra) -> str:
	headers = [{"key": "Authorization", "value": f"Bearer {SECRET}"}] if secret else []
	return fixtures.tool(name, types, base_url=base_url, http_headers=headers, tool_type="HTTP Requests", **extra)


def test_an_agent_calls_get_and_post_tools_through_a_worker(site, llm, workers, server):
	http_tool("huf_t_forecast", "GET", server.url(""))
	http_tool("huf_t_order", "POST", server.url("/api"))
	agent = fixtures.agent(llm, name="HTTP Agent", tools=("huf_t_forecast", "huf_t_order"))
	elsewhere = server.url("/echo", host="localhost")  # another host the site allows
	llm.script(
		tool_calls(
			[
				("c1", "huf_t_forecast", json.dumps({"url": "/forecast", "params": {"city": "Oslo", "days": 3}})),
				("c2", "huf_t_order", json.dumps({"url": "/orders", "body": {"item": "tea", "qty": 2}})),
				("c3", "huf_t_forecast", json.dumps({"url": f"/redirect?to={quote(elsewhere)}"})),
			]
		),
		text("Sunny, and your tea is ordered."),
	)
	user = make_user("http-tools@huf.test", ["Huf User"])
	with as_user(user):
		queued = run_agent_sync(agent, "Weather in Oslo, and order tea")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: get_agent_run_status(queued["run"])["status"] in ("Success", "Failed"), 60, message="the run")
	assert get_agent_run_status(queued["run"])["status"] == "Success"

	by_path = {seen.path: seen for seen in server.seen}
	forecast, order = by_path["/forecast?city=Oslo&days=3"], by_path["/api/orders"]
	assert forecast.method == "GET" and forecast.headers["authorization"] == f"Bearer {SECRET}"
	assert order.method == "POST" and json.loads(order.body) == {"item": "tea", "qty": 2}
	assert order.headers["authorization"] == f"Bearer {SECRET}"
	assert order.headers["idempotency-key"].startswith(f"huf-{queued['run']}-") and "idempotency-key" not in forecast.headers
	# the redirect to another host got no secret
	assert by_path[f"/redirect?to={quote(elsewhere)}"].headers["authorization"] == f"Bearer {SECRET}"
	assert "authorization" not in by_path["/echo"].headers

	calls = frappe.get_all("Agent Tool Call", {"agent_run": queued["run"]}, ["call_id", "status", "tool_result"], order_by="call_id")
	assert [(c.call_id, c.status) for c in calls] == [("c1", "Success"), ("c2", "Success"), ("c3", "Success")]
	forecast_result = json.loads(calls[0].tool_result)
	assert forecast_result["status_code"] == 200 and forecast_result["data"]["path"] == "/forecast?city=Oslo&days=3"
	assert json.loads(calls[2].tool_result)["final_url"] == elsewhere
	# the echo server sent the secret back; no row holds it
	rows = frappe.get_all("Agent Message", {"agent_run": queued["run"]}, ["content"]) + calls
	assert SECRET not in json.dumps(rows, default=str)
	assert "[hidden]" in calls[0].tool_result


def test_a_post_sends_the_same_idempotency_key_when_its_call_is_repeated(site, server):
	post, get = http_tool("huf_t_keyed_post", "POST", server.url("/api")), http_tool("huf_t_keyed_get", "GET", server.url("/api"))
	own_header = [{"key": "idempotency-key", "value": "order-7"}]
	own = fixtures.tool("huf_t_own_key", "POST", base_url=server.url("/api"), http_headers=own_header, tool_type="HTTP Requests")
	call = RunContext(run="AR-0042", conversation="c", agent="a", user="Administrator", step_key="TC-0007")
	built = lambda name, ctx=call: build_tool(frappe.get_doc("Agent Tool Function", name), ctx)  # noqa: E731
	for _ in range(2):  # the same call, done again after a dead worker
		built(post).handler({"url": "/orders", "body": {"item": "tea"}})
		assert server.seen[-1].headers["idempotency-key"] == "huf-AR-0042-TC-0007"
	built(post, replace(call, step_key="TC-0008")).handler({"url": "/orders", "body": {"item": "tea"}})
	assert server.seen[-1].headers["idempotency-key"] == "huf-AR-0042-TC-0008"  # another call, another key
	built(get).handler({"url": "/orders"})
	assert "idempotency-key" not in server.seen[-1].headers
	built(own).handler({"url": "/orders"})
	assert server.seen[-1].headers["idempotency-key"] == "order-7"  # the tool's own header wins
	before = len(server.seen)
	handle_post_request(post, url="/orders", body={"item": "tea"})
	handle_post_request(post, url="/orders", body={"item": "tea"})
	tried = [seen.headers["idempotency-key"] for seen in server.seen[before:]]
	assert all(key.startswith("huf-try-") for key in tried) and len(set(tried)) == 2  # each press is a request of its own


def test_a_failed_request_is_a_tool_error_and_the_run_goes_on(site, llm, server):
	http_tool("huf_t_fetch", "GET", None, secret=False)
	agent = fixtures.agent(llm, name="HTTP Fetch Agent", tools=("huf_t_fetch",))
	big, missing = server.url("/big?size=10000000"), server.url("/reply?status=404&body=no+such+page")
	llm.script(
		tool_calls([("b1", "huf_t_fetch", json.dumps({"url": big})), ("b2", "huf_t_fetch", json.dumps({"url": missing}))]),
		text("That page is too big, and the other one is gone."),
	)
	result = run_agent_sync(agent, "Read these pages", now=True)
	assert result["status"] == "Success"
	calls = frappe.get_all("Agent Tool Call", {"agent_run": result["run"]}, ["call_id", "status", "tool_result"], order_by="call_id")
	assert [c.status for c in calls] == ["Failed", "Failed"]
	assert "larger than 2 MB" in json.loads(calls[0].tool_result)["error"]
	assert "answered 404 Not Found" in json.loads(calls[1].tool_result)["error"]
	assert "no such page" in json.loads(calls[1].tool_result)["error"]


def test_a_header_without_a_stored_value_is_not_sent(site, server):
	from frappe.utils.password import remove_encrypted_password

	from huf.ai.tools import http

	name = fixtures.tool(
		"huf_t_cleared_header", "GET", base_url=server.url(""), tool_type="HTTP Requests",
		http_headers=[{"key": "Authorization", "value": f"Bearer {SECRET}"}, {"key": "X-Team", "value": "team-7c1d"}],
	)  # fmt: skip
	doc = frappe.get_doc("Agent Tool Function", name)
	cleared = doc.http_headers[0].name  # as an address change leaves it: no stored value, an empty field
	remove_encrypted_password("Agent Tool HTTP Header", cleared, "value")
	frappe.db.set_value("Agent Tool HTTP Header", cleared, "value", None)
	http.call(frappe.get_doc("Agent Tool Function", name), {"url": "/echo"}, RunContext(run="r", conversation="c", agent="a", user="Administrator"))
	seen = server.seen[-1].headers
	assert "authorization" not in seen and seen["x-team"] == "team-7c1d"  # neither the name nor an empty value


def test_a_huf_user_cannot_read_header_values(site, web, server):
	name = http_tool("huf_t_secret", "GET", server.url(""))
	frappe.db.commit()
	for user in (make_user("http-reader@huf.test", ["Huf User"]), make_user("http-manager@huf.test", ["Huf Manager", "Huf User"])):
		headers = web.token_headers(user)
		for answer in (
			web.get(f"/api/resource/Agent Tool Function/{name}", headers),
			web.get("/api/method/frappe.client.get", headers, doctype="Agent Tool Function", name=name),
		):
			assert answer.status_code == 200, answer.text
			assert "Authorization" in answer.text and SECRET not in answer.text


def test_only_who_may_change_a_tool_may_try_it(site, server):
	get, post = http_tool("huf_t_try_get", "GET", server.url("/api")), http_tool("huf_t_try_post", "POST", server.url("/api"))
	reader = make_user("http-try-user@huf.test", ["Huf User"])
	manager = make_user("http-try-manager@huf.test", ["Huf Manager", "Huf User"])
	frappe.db.commit()
	with as_user(reader), pytest.raises(frappe.PermissionError):
		handle_http_request(get, url="/items")
	assert server.seen == []
	with as_user(manager):
		answer = handle_http_request(get, url="/items", params='{"q": "tea"}')
		posted = handle_post_request(post, url="/orders", body={"item": "tea"}, body_format="form")
		with pytest.raises(frappe.ValidationError, match="is a POST tool"):
			handle_get_request(post)
		with pytest.raises(frappe.ValidationError, match="must be a JSON object"):
			handle_http_request(get, params="[1, 2")
	assert set(answer) == {"success", "status_code", "headers", "data", "final_url"}
	assert answer["success"] and answer["status_code"] == 200 and answer["final_url"] == server.url("/api/items") + "?q=tea"
	assert answer["data"]["headers"]["authorization"] == "[hidden]"
	assert posted["success"] and server.seen[-1].body == b"item=tea"


def test_bad_addresses_are_answers_in_words(site, server):
	with socket.socket() as probe:
		probe.bind(("127.0.0.1", 0))
		closed = probe.getsockname()[1]
	fetch = http_tool("huf_t_try_fetch", "GET", None, secret=False)
	unreachable = handle_http_request(fetch, url=f"http://127.0.0.1:{closed}/x")
	assert unreachable["success"] is False and "could not be reached" in unreachable["error"]
	too_big = handle_http_request(fetch, url=server.url("/big?size=10000000"))
	assert "larger than 2 MB" in too_big["error"]
	asked = len(server.seen)
	outside = handle_http_request(http_tool("huf_t_try_base", "GET", server.url("/api")), url="https://example.com/api")
	assert "only reaches addresses under" in outside["error"] and len(server.seen) == asked


def test_a_redirect_to_127_0_0_1_is_refused_when_only_localhost_is_allowed(site, server):
	before = fixtures.allowed_hosts("localhost")
	try:
		fixtures.set_allowed_hosts([host for host in before if host != "127.0.0.1"] + ["localhost"])
		tool = http_tool("huf_t_try_local", "GET", server.url("", host="localhost"))
		answer = handle_http_request(tool, url=f"/redirect?to={quote(server.url('/echo'))}")
	finally:
		fixtures.set_allowed_hosts(before)
	assert answer["success"] is False and "points to 127.0.0.1, a private address" in answer["error"]
	assert [seen.path for seen in server.seen] == [f"/redirect?to={quote(server.url('/echo'))}"]


@pytest.mark.parametrize(
	("base_url", "headers", "message"),
	[
		("ftp://files.example.com", False, "must be a full URL that starts with http:// or https://"),
		("https://me:pw@api.example.com", False, "must not hold a user name or password"),
		("https://api.example.com/v1?key=1", False, "must not have a query"),
		("http://10.20.30.40/v1", False, "points to 10.20.30.40, a private network address.*huf_allowed_hosts"),
		(None, True, "HTTP Headers are sent only to the host of the Base URL"),
	],
)
def test_saving_a_tool_with_a_bad_base_url_is_a_clear_form_error(site, base_url, headers, message):
	with pytest.raises(frappe.ValidationError, match=message):
		http_tool("huf_t_bad_base", "GET", base_url, secret=headers)
	assert not frappe.db.exists("Agent Tool Function", "huf_t_bad_base")


def test_parameters_rows_shape_the_query_or_the_body(site, server):
	get = http_tool("huf_t_shaped", "GET", server.url("/api"), parameters=[{"fieldname": "city", "type": "string", "required": 1}])
	definition = json.loads(frappe.db.get_value("Agent Tool Function", get, "function_definition"))
	assert definition["parameters"]["properties"]["params"]["properties"] == {"city": {"type": "string"}}
	assert definition["parameters"]["required"] == ["params"]


def test_validate_url_applies_the_tool_rules_and_the_address_check(site, server):
	tool = http_tool("huf_t_validate", "GET", server.url("/api"), secret=False)
	assert validate_url("/items/1", tool) == server.url("/api/items/1")
	with pytest.raises(frappe.ValidationError, match="only reaches addresses under"):
		validate_url("https://example.com/api", tool)
	with pytest.raises(frappe.ValidationError, match="points to 10.20.30.40, a private network address"):
		validate_url("http://10.20.30.40/x")
	with pytest.raises(frappe.DoesNotExistError):
		validate_url("/x", "huf_t_no_such_tool")
