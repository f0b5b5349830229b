"""MCP over streamable HTTP and SSE against a real FastMCP server (uvicorn on 127.0.0.1, in a thread),
through the SSRF-safe client with an allow-list that permits it.

Covers the handshake, listing, calls of every result kind, argument validation before sending,
isError, timeouts, one handshake per run, results left uncut for the loop, secrets, a server that dies mid-call, and
Test Connection's errors in words (DNS, TLS, refused, blocked, 401, timeout, not MCP).
"""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from huf.ai.engine.effects import ONCE, REPEATABLE
from huf.ai.engine.events import ToolCall
from huf.ai.engine.mcp import Auth, MCPPool, Policy, ServerConfig, list_tools, test_connection
from huf.ai.engine.tools import ToolError, execute_tool_call
from tests.support.mcp_server import AWOKE, Served, bound_socket, build
from tests.support.ports import wait_for_port

POLICY = Policy(allowed_hosts=frozenset({"127.0.0.1"}))
SECRET = "sk-live-0123456789abcdef"


@pytest.fixture(scope="module", params=["http", "sse"])
def served(request):
	app = build().streamable_http_app() if request.param == "http" else build().sse_app()
	with Served(app) as server:
		server.transport = request.param
		server.endpoint = server.url + ("/mcp" if request.param == "http" else "/sse")
		yield server


def config(served, **changes) -> ServerConfig:
	return ServerConfig(**{"name": "Test", "transport": served.transport, "url": served.endpoint, "namespace": "t", "timeout": 10, **changes})


def test_handshake_and_listing(served):
	report = test_connection(config(served), POLICY)
	assert report.ok, report.error
	assert (report.server_name, report.tool_count) == ("huf-test", 12)
	specs = {spec.name: spec for spec in report.tools}
	assert specs["t__add"].tool == "add"
	assert specs["t__add"].description == "[MCP:t] Add two whole numbers."
	assert specs["t__add"].input_schema["required"] == ["a", "b"]
	assert specs["t__files_read"].tool == "files.read" and specs["t__files_read"].read_only is True
	assert specs["t__wipe"].destructive is True and specs["t__add"].destructive is None
	assert specs["t__add"].idempotent is True and specs["t__echo"].idempotent is None and specs["t__echo"].read_only is None


def test_calls_text_structured_images_and_resources(served):
	with MCPPool(POLICY) as pool:
		server = config(served)
		assert pool.call_tool(server, "add", {"a": 2, "b": 3}) == "5"
		assert pool.call_tool(server, "files.read", {"path": "a.txt"}) == "contents of a.txt"
		assert pool.call_tool(server, "picture", {}).split("\n") == [
			"here it is",
			"[image: image/png, 70 bytes; not shown to you]",
			"[resource memo://note]",
			"the memo text",
		]


def test_one_handshake_per_server_per_run(served):
	before = served.initializes
	with MCPPool(POLICY) as pool:
		server = config(served)
		for n in range(3):
			assert pool.call_tool(server, "add", {"a": n, "b": 1}) == str(n + 1)
		pool.list_tools(server)
	assert served.initializes - before == 1
	with MCPPool(POLICY) as pool:
		pool.call_tool(config(served), "echo", {"text": "next run"})
	assert served.initializes - before == 2


def test_arguments_that_break_the_schema_are_refused_before_sending(served):
	with MCPPool(POLICY) as pool:
		server = config(served)
		pool.list_tools(server)
		calls = served.methods["tools/call"]
		with pytest.raises(ToolError, match=r"Invalid arguments for add: 'b' is a required property; a: 'x' is not of type 'integer'"):
			pool.call_tool(server, "add", {"a": "x"})
		with pytest.raises(ToolError, match=r"MCP server Test has no tool named 'nope'"):
			pool.call_tool(server, "nope", {})
		assert served.methods["tools/call"] == calls


def test_is_error_results_and_timeouts_are_tool_errors_and_the_session_goes_on(served):
	with MCPPool(POLICY) as pool:
		assert pool.call_tool(config(served), "echo", {"text": "connected"}) == "connected"
		server = config(served, timeout=1)  # the same session: the timeout is per call
		with pytest.raises(ToolError, match="The tool fail of MCP server Test reported an error: .*it broke"):
			pool.call_tool(server, "fail", {"message": "it broke"})
		with pytest.raises(ToolError, match=r"^MCP server Test: did not answer within 1 seconds\.$"):
			pool.call_tool(server, "sleep", {"seconds": 4})
		assert pool.call_tool(server, "echo", {"text": "still here"}) == "still here"


def test_a_call_that_times_out_is_cancelled_at_the_server(served):
	"""MCP's notifications/cancelled names the timed-out request, so the server stops it rather than
	finishing work nobody waits for."""
	woke, cancels = len(AWOKE), served.methods["notifications/cancelled"]
	with MCPPool(POLICY) as pool:
		server = config(served, timeout=1)
		with pytest.raises(ToolError, match=r"did not answer within 1 seconds"):
			pool.call_tool(server, "sleep", {"seconds": 2.5})
		deadline = time.monotonic() + 2  # the SDK posts it from its own writer task
		while served.methods["notifications/cancelled"] == cancels and time.monotonic() < deadline:
			time.sleep(0.02)
		assert served.methods["notifications/cancelled"] == cancels + 1
		time.sleep(3)
		assert len(AWOKE) == woke  # the server stopped it: an unknown request id would have let it finish
		assert pool.call_tool(server, "sleep", {"seconds": 0.1}) == "awake"
	assert len(AWOKE) == woke + 1


def test_engine_tools_from_cached_specs_go_through_the_loops_tool_runner(served):
	specs = list_tools(config(served), POLICY)
	with MCPPool(POLICY) as pool:
		before = served.initializes
		tools = {tool.name: tool for tool in pool.tools(config(served), specs)}
		assert served.initializes == before  # nothing connects until a call
		# the server's hints say what a repeat after a dead worker may do: read-only or idempotent repeat
		effects = {name: tools[name].effect for name in ("t__add", "t__files_read", "t__wipe", "t__echo")}
		assert effects == {"t__add": REPEATABLE, "t__files_read": REPEATABLE, "t__wipe": ONCE, "t__echo": ONCE}
		outcome = execute_tool_call(ToolCall("c1", "t__add", '{"a": 20, "b": 22}'), tools, 1000)
		assert (outcome.ok, outcome.content) == (True, "42")
		refused = execute_tool_call(ToolCall("c2", "t__add", '{"a": 1}'), tools, 1000)
		assert refused.error == "Invalid arguments for t__add: 'b' is a required property"
		failed = execute_tool_call(ToolCall("c3", "t__fail", '{"message": "no"}'), tools, 1000)
		assert failed.ok is False and "reported an error" in failed.error


def test_results_are_not_cut_by_the_pool(served):
	"""The agent's one limit cuts them, in the loop (tests/engine/mcp/test_mcp_loop.py)."""
	with MCPPool(POLICY) as pool:
		assert pool.call_tool(config(served), "big", {"chars": 200_000}) == "x" * 200_000


def test_credentials_are_sent_and_never_shown_back(served):
	bearer = config(served, auth=Auth("bearer_token", value=SECRET), headers=(("X-Tenant", "tenant-secret-42"),))
	api_key = config(served, auth=Auth("api_key", header_name="X-Api-Key", value=SECRET))
	with MCPPool(POLICY) as pool:
		assert pool.call_tool(bearer, "header", {"name": "authorization"}) == "Bearer [hidden]"
		assert pool.call_tool(bearer, "header", {"name": "x-tenant"}) == "[hidden]"
		assert pool.call_tool(api_key, "header", {"name": "x-api-key"}) == "[hidden]"
		with pytest.raises(ToolError) as raised:
			pool.call_tool(bearer, "fail", {"message": f"bad key {SECRET}"})
	assert SECRET not in str(raised.value) and "bad key [hidden]" in str(raised.value)


def test_an_http_server_that_dies_mid_call_is_an_error_not_a_hang():
	sock = bound_socket()
	port = sock.getsockname()[1]
	sock.close()
	program = Path(__file__).resolve().parents[2] / "support" / "mcp_server.py"
	process = subprocess.Popen([sys.executable, str(program), "http", str(port)], stderr=subprocess.DEVNULL)
	try:
		server = ServerConfig(name="Dying", url=f"http://127.0.0.1:{port}/mcp", timeout=30)
		assert wait_for_port(port, 20), f"nothing listens on {port}"
		with MCPPool(POLICY) as pool:
			assert pool.call_tool(server, "echo", {"text": "up"}) == "up"
			outcome = {}
			caller = threading.Thread(target=lambda: outcome.update(_error_of(pool, server)))
			caller.start()
			time.sleep(1.0)
			process.kill()
			caller.join(25)
			assert not caller.is_alive(), "the call hung after its server died"
			assert outcome["error"].startswith("MCP server Dying: ")
			assert "did not answer within" not in outcome["error"]
	finally:
		process.kill()
		process.wait()


def test_connection_errors_in_words():
	free = bound_socket()
	closed_port = free.getsockname()[1]
	free.close()
	cases = {
		f"http://127.0.0.1:{closed_port}/mcp": ("refused", "MCP server X: 127.0.0.1 refused the connection"),
		"http://no-such-host.invalid/mcp": ("dns", "MCP server X: http://no-such-host.invalid/mcp could not be reached: the host was not found."),
		"http://10.0.0.1/mcp": ("blocked", "points to 10.0.0.1, a private address"),
	}
	for url, (kind, words) in cases.items():
		report = test_connection(ServerConfig(name="X", url=url, timeout=3), POLICY)
		assert (report.ok, report.error_kind) == (False, kind), report.error
		assert words in report.error


def test_a_web_page_is_not_an_mcp_server():
	page = Starlette(routes=[Route("/mcp", lambda r: HTMLResponse("<h1>hello</h1>"), methods=["GET", "POST"])])
	with Served(page) as web:
		for transport, path in (("http", "/mcp"), ("sse", "/mcp")):
			report = test_connection(ServerConfig(name="Web", transport=transport, url=web.url + path, timeout=3), POLICY)
			assert report.error_kind == "not_mcp", report.error
			assert "not as an MCP server" in report.error
		missing = test_connection(ServerConfig(name="Web", url=web.url + "/other", timeout=3), POLICY)
		assert missing.error == f"MCP server Web: has no MCP endpoint at {web.url}/other (HTTP 404); check the Server URL and the transport type."


def test_a_server_that_never_answers_is_a_timeout_after_its_timeout_not_twice_that():
	silent = bound_socket()
	silent.listen()
	began = time.monotonic()
	try:
		report = test_connection(ServerConfig(name="Mute", url=f"http://127.0.0.1:{silent.getsockname()[1]}/mcp", timeout=2), POLICY)
	finally:
		silent.close()
	assert (report.error_kind, report.error) == ("timeout", "MCP server Mute: did not answer within 2 seconds.")
	assert time.monotonic() - began < 3.5  # it said 2 seconds: not 4 (the wait again for the session to close)


def test_an_untrusted_certificate_is_a_tls_error(tmp_path):
	key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
	subprocess.run(
		["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
		check=True,
		capture_output=True,
	)
	with Served(build().streamable_http_app(), ssl=(cert, key)) as tls:
		report = test_connection(ServerConfig(name="Self", url=f"https://127.0.0.1:{tls.port}/mcp", timeout=5), POLICY)
	assert report.error_kind == "tls", report.error
	assert "certificate" in report.error


def test_a_wrong_token_is_a_401_in_words():
	from tests.support.mcp_server import auth_server

	served, _provider = auth_server()
	with served:
		report = test_connection(ServerConfig(name="Locked", url=served.url + "/mcp", auth=Auth("bearer_token", value=SECRET)), POLICY)
	assert report.error == "MCP server Locked: refused the credentials (HTTP 401); check the auth type and its value."
	assert report.error_kind == "auth"


def _error_of(pool: MCPPool, server: ServerConfig) -> dict:
	try:
		return {"text": pool.call_tool(server, "sleep", {"seconds": 25})}
	except ToolError as error:
		return {"error": str(error)}


