"""GET and POST tools (engine/http_tool.py): where a model may aim them, which headers go where, and
what the model reads — against real local servers (tests/support/local_http.py)."""

from __future__ import annotations

import json
import socket
from urllib.parse import quote

import pytest

from huf.ai.engine.http_tool import BODY_CHARS, HIDDEN, HttpTool, base_problem, parameters, request_key, run, send, target
from huf.ai.engine.tools import ToolError
from tests.support.local_http import LocalServer

BASE = "https://api.example.com/v1"
SECRET = "sk-live-0123456789abcdef"
LOCAL = frozenset({"127.0.0.1", "localhost"})


@pytest.fixture
def server():
	with LocalServer() as running:
		yield running


def tool(method: str, base_url: str | None, **headers: str) -> HttpTool:
	return HttpTool("t", method, base_url, tuple((name.replace("_", "-"), value) for name, value in headers.items()))


@pytest.mark.parametrize(
	("aimed", "expected"),
	[
		("", BASE),
		("/items/42", f"{BASE}/items/42"),
		("items/42?full=1#part", f"{BASE}/items/42?full=1"),
		("//other.example/x", f"{BASE}/other.example/x"),  # a path, not another host
		("v1:batchGet", f"{BASE}/v1:batchGet"),  # a colon in a path is not a scheme
		(f"{BASE}/items", f"{BASE}/items"),
		("https://API.example.com:443/v1", "https://API.example.com:443/v1"),
	],
)
def test_a_path_or_a_url_under_the_base_url_is_joined(aimed, expected):
	assert target(BASE, aimed) == expected


@pytest.mark.parametrize(
	("aimed", "why"),
	[
		("https://api.example.com/v10/items", "only reaches addresses under"),  # not a path segment of /v1
		("https://api.example.com/admin", "only reaches addresses under"),
		("https://evil.example/v1/items", "only reaches addresses under"),
		("http://api.example.com/v1/items", "only reaches addresses under"),
		("https://api.example.com:8443/v1/items", "only reaches addresses under"),
		("../admin", ". or .. segments"),
		("items/%2e%2e/%2E%2E/admin", ". or .. segments"),
		("items\\..\\admin", ". or .. segments"),
		("https://user:pw@api.example.com/v1/items", "user name or password"),
		("ftp://api.example.com/v1/x", "not a web address"),
	],
)
def test_the_model_cannot_aim_a_tool_with_a_base_url_elsewhere(aimed, why):
	with pytest.raises(ToolError, match=why):
		target(BASE, aimed)


def test_without_a_base_url_only_full_web_addresses():
	assert target(None, "https://anywhere.example/a?b=1") == "https://anywhere.example/a?b=1"
	for aimed, why in (("/items", "full web address"), ("localhost:8000/x", "full web address"), ("file:///etc/passwd", "not a web address")):
		with pytest.raises(ToolError, match=why):
			target(None, aimed)


def test_base_url_problems_are_named():
	assert base_problem("https://api.example.com/v1") is None
	assert "user name or password" in base_problem("https://me:pw@api.example.com")
	assert "query" in base_problem("https://api.example.com/v1?key=1")
	assert ". or .." in base_problem("https://api.example.com/v1/../admin")
	assert "http://" in base_problem("ftp://api.example.com")


def test_the_schema_asks_for_what_each_kind_of_tool_needs():
	get = parameters("GET", BASE)
	assert set(get["properties"]) == {"url", "params"} and "required" not in get
	assert BASE in get["properties"]["url"]["description"]
	post = parameters("POST", None)
	assert set(post["properties"]) == {"url", "params", "body", "body_format"} and post["required"] == ["url"]
	fields = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
	shaped = parameters("POST", BASE, fields)
	assert shaped["properties"]["body"]["properties"] == fields["properties"] and shaped["required"] == ["body"]
	assert parameters("GET", BASE, fields)["properties"]["params"]["required"] == ["title"]


def test_get_sends_query_parameters_and_headers_and_reads_json(server):
	answer = send(
		tool("GET", server.url("/v1"), Authorization=f"Bearer {SECRET}", X_Api_Key="k-2024-long-key"),
		{"url": "/items", "params": {"q": "red shoes", "page": 2, "in_stock": True, "tags": ["a", "b"]}},
		LOCAL,
	)
	seen = server.seen[-1]
	assert seen.method == "GET" and seen.path == "/v1/items?q=red+shoes&page=2&in_stock=true&tags=a&tags=b"
	assert seen.headers["authorization"] == f"Bearer {SECRET}" and seen.headers["x-api-key"] == "k-2024-long-key"
	assert answer["success"] is True and answer["status_code"] == 200
	assert answer["final_url"] == server.url("/v1/items") + "?q=red+shoes&page=2&in_stock=true&tags=a&tags=b"
	assert answer["headers"]["content-type"] == "application/json"
	assert answer["data"]["path"] == seen.path  # parsed JSON, not text
	# the echo server sent the secrets back: the model reads none of them
	assert answer["data"]["headers"]["authorization"] == answer["data"]["headers"]["x-api-key"] == HIDDEN
	assert SECRET not in json.dumps(answer) and "k-2024-long-key" not in json.dumps(answer)
	token_only = send(tool("GET", server.url(""), Authorization=f"Bearer {SECRET}"), {"url": f"/reply?body=your+token+is+{SECRET}"}, LOCAL)
	assert token_only["data"] == f"your token is {HIDDEN}"


def test_post_sends_a_json_or_a_form_body(server):
	post = tool("POST", server.url("/api"))
	send(post, {"url": "/orders", "body": {"item": "tea", "qty": 2, "gift": False}}, LOCAL)
	as_json = server.seen[-1]
	assert as_json.method == "POST" and as_json.headers["content-type"] == "application/json"
	assert json.loads(as_json.body) == {"item": "tea", "qty": 2, "gift": False}
	send(post, {"url": "/orders", "body": {"item": "tea", "qty": 2, "gift": False, "tags": ["x"]}, "body_format": "form"}, LOCAL)
	as_form = server.seen[-1]
	assert as_form.headers["content-type"] == "application/x-www-form-urlencoded"
	assert as_form.body == b"item=tea&qty=2&gift=false&tags=%5B%22x%22%5D"


def test_a_post_carries_its_calls_idempotency_key_and_a_get_none(server):
	key = request_key("AR-0001", "TC-0007", {"url": "/orders"})
	assert key == "huf-AR-0001-TC-0007"
	send(tool("POST", server.url("/api"), X_Api_Key="k-2024-long-key"), {"url": "/orders", "body": {"item": "tea"}}, LOCAL, key=key)
	assert server.seen[-1].headers["idempotency-key"] == key and server.seen[-1].headers["x-api-key"] == "k-2024-long-key"
	send(tool("POST", None), {"url": server.url("/orders")}, LOCAL, key=key)  # no Base URL: the key still goes
	assert server.seen[-1].headers["idempotency-key"] == key
	send(tool("GET", server.url("/api")), {"url": "/orders"}, LOCAL, key=key)  # GET is idempotent by definition
	assert "idempotency-key" not in server.seen[-1].headers
	send(tool("POST", server.url("/api")), {"url": "/orders"}, LOCAL)  # nobody gave a key
	assert "idempotency-key" not in server.seen[-1].headers


def test_the_tools_own_idempotency_key_header_wins(server):
	send(tool("POST", server.url("/api"), IDEMPOTENCY_KEY="mine-1"), {"url": "/orders"}, LOCAL, key="huf-AR-1-TC-1")
	assert server.seen[-1].headers["idempotency-key"] == "mine-1"
	assert list(server.seen[-1].headers).count("idempotency-key") == 1


def test_without_a_call_id_the_key_is_the_run_and_the_arguments():
	args = {"url": "/orders", "body": {"item": "tea", "qty": 2}}
	key = request_key("AR-0001", "", args)
	assert key.startswith("huf-AR-0001-") and key != request_key("AR-0002", "", args)
	assert key == request_key("AR-0001", "", {"body": {"qty": 2, "item": "tea"}, "url": "/orders"})  # a repeat: the same
	assert key != request_key("AR-0001", "", {"url": "/orders", "body": {"item": "tea", "qty": 3}})
	assert request_key("", "FR-1-send-3", args) == "huf-FR-1-send-3"


def test_tool_headers_never_follow_a_redirect_to_another_host(server):
	elsewhere = server.url("/echo", host="localhost")  # another host (same machine, allowed)
	answer = send(
		tool("GET", server.url(""), Authorization=f"Bearer {SECRET}", X_Api_Key="k-2024-long-key"),
		{"url": f"/redirect?status=302&to={quote(elsewhere)}"},
		LOCAL,
	)
	first, second = server.seen[-2:]
	assert first.headers["x-api-key"] == "k-2024-long-key"
	assert second.path == "/echo" and "x-api-key" not in second.headers and "authorization" not in second.headers
	assert answer["final_url"] == elsewhere


def test_a_tool_without_base_url_sends_no_headers_at_all(server):
	send(tool("GET", None, X_Api_Key="k-2024-long-key"), {"url": server.url("/echo")}, LOCAL)
	assert "x-api-key" not in server.seen[-1].headers


def test_a_header_without_a_value_is_not_sent_at_all(server):
	send(tool("GET", server.url(""), Authorization="", X_Blank="  ", X_Api_Key="k-2024-long-key"), {"url": "/echo"}, LOCAL)
	seen = server.seen[-1].headers
	assert "authorization" not in seen and "x-blank" not in seen and seen["x-api-key"] == "k-2024-long-key"


def test_a_redirect_to_a_host_the_site_does_not_allow_is_a_tool_error(server):
	allow = frozenset({f"localhost:{server.port}"})  # the tool's own host only
	loopback = server.url("/echo")  # 127.0.0.1: not on the list
	with pytest.raises(ToolError, match="127.0.0.1, a private address.*huf_allowed_hosts"):
		send(tool("GET", server.url("", host="localhost")), {"url": f"/redirect?to={quote(loopback)}"}, allow)
	assert [seen.path for seen in server.seen] == [f"/redirect?to={quote(loopback)}"]
	with pytest.raises(ToolError, match="private address"):
		send(tool("GET", None), {"url": loopback}, frozenset())


def test_unreachable_addresses_are_tool_errors_in_words():
	with socket.socket() as probe:
		probe.bind(("127.0.0.1", 0))
		closed = probe.getsockname()[1]
	with pytest.raises(ToolError, match="could not be reached"):
		send(tool("GET", None), {"url": f"http://127.0.0.1:{closed}/x"}, LOCAL)
	with pytest.raises(ToolError, match="host was not found"):
		send(tool("GET", None), {"url": "http://no-such-host.invalid/x"}, LOCAL)


def test_a_silent_server_and_a_10_mb_answer_are_cut_off(server):
	with pytest.raises(ToolError, match="did not answer within 0.3 seconds|took longer than 1 seconds"):
		send(tool("GET", None), {"url": server.url("/events")}, LOCAL, timeout=0.3, deadline=1)
	with pytest.raises(ToolError, match="larger than 2 MB.*Ask for less"):
		send(tool("GET", None), {"url": server.url("/big?size=10000000")}, LOCAL)


def test_an_error_status_is_an_answer_for_the_button_and_a_tool_error_for_the_model(server):
	args = {"url": server.url("/reply?status=404&body=no+such+item")}
	answer = send(tool("GET", None), args, LOCAL)
	assert answer["success"] is False and answer["status_code"] == 404 and answer["data"] == "no such item"
	with pytest.raises(ToolError, match=r"GET .* answered 404 Not Found\. Nothing was found.*The server said: no such item"):
		run(tool("GET", None), args, LOCAL)
	with pytest.raises(ToolError, match="401 Unauthorized.*check the tool's HTTP Headers"):
		run(tool("GET", None), {"url": server.url("/reply?status=401")}, LOCAL)


def test_binary_long_and_broken_json_bodies(server):
	image = send(tool("GET", None), {"url": server.url("/reply?type=image/png&body=%89PNG%00%01")}, LOCAL)
	assert image["data"] == "[binary content: 6 bytes of image/png; not shown]"
	long = send(tool("GET", None), {"url": server.url(f"/big?size={BODY_CHARS + 500}")}, LOCAL)
	assert long["data"].startswith("x" * BODY_CHARS) and f"has {BODY_CHARS + 500:,} characters" in long["data"]
	broken = send(tool("GET", None), {"url": server.url("/reply?type=application/json&body=%7Bnot+json")}, LOCAL)
	assert broken["data"] == "{not json"
