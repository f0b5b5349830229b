"""MCP over stdio: mcp-server-calculator from PyPI, and the tests' own FastMCP server run as a program.

Real processes: the environment the child sees, its process group at the end of the run, a server
killed mid-call, and commands the site did not allow (never started).
"""

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from huf.ai.engine.mcp import MCPError, MCPPool, Policy, ServerConfig, check_server, test_connection
from huf.ai.engine.tools import ToolError

CALCULATOR = str(Path(sys.executable).parent / "mcp-server-calculator")
OWN_SERVER = str(Path(__file__).resolve().parents[2] / "support" / "mcp_server.py")
POLICY = Policy(stdio_commands=frozenset({CALCULATOR, sys.executable}))


def own(timeout: float = 20, env=()) -> ServerConfig:
	return ServerConfig(name="own", transport="stdio", namespace="own", command=sys.executable, args=(OWN_SERVER, "stdio"), env=env, timeout=timeout)


def alive(pid: int) -> bool:
	"""Running, as opposed to gone or a zombie nobody reaped yet."""
	try:
		state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
	except (FileNotFoundError, ProcessLookupError):
		return False
	return state != "Z"


def gone_soon(pid: int) -> bool:
	deadline = time.monotonic() + 5
	while alive(pid) and time.monotonic() < deadline:
		time.sleep(0.02)
	return not alive(pid)


def test_calculator_from_pypi_handshake_list_and_calls():
	calculator = ServerConfig(name="calc", transport="stdio", namespace="calc", command=CALCULATOR, timeout=20)
	report = test_connection(calculator, POLICY)
	assert report.ok, report.error
	assert (report.server_name, report.tool_count) == ("calculator", 1)
	assert report.tools[0].name == "calc__calculate" and report.tools[0].tool == "calculate"
	assert report.tools[0].description.startswith("[MCP:calc] ")
	with MCPPool(POLICY) as pool:
		assert pool.call_tool(calculator, "calculate", {"expression": "2+3*4"}) == "14"
		with pytest.raises(ToolError, match="reported an error: .*division by zero"):
			pool.call_tool(calculator, "calculate", {"expression": "1/0"})
		with pytest.raises(ToolError, match="Invalid arguments for calculate: 'expression' is a required property"):
			pool.call_tool(calculator, "calculate", {})


def test_the_child_sees_only_its_declared_environment_and_path(monkeypatch):
	monkeypatch.setenv("HUF_TEST_SITE_SECRET", "db-password-of-the-site")
	server = own(env=(("VISIBLE", "declared"),))
	with MCPPool(POLICY) as pool:
		seen = {name: pool.call_tool(server, "env", {"name": name}) for name in ("HUF_TEST_SITE_SECRET", "VISIBLE", "HOME", "USER", "PATH")}
	# the declared variable is there; its value, like every declared value, never reaches the model
	assert seen == {"HUF_TEST_SITE_SECRET": "<unset>", "VISIBLE": "[hidden]", "HOME": "<unset>", "USER": "<unset>", "PATH": os.environ["PATH"]}


def test_closing_the_pool_kills_the_server_and_everything_in_its_process_group():
	server = own()
	pool = MCPPool(POLICY)
	server_pid = int(pool.call_tool(server, "pid", {}))
	child_pid = int(pool.call_tool(server, "spawn", {}))
	assert os.getpgid(child_pid) == os.getpgid(server_pid) == server_pid  # its own group
	assert alive(server_pid) and alive(child_pid)
	pool.close()
	assert not alive(server_pid)
	assert gone_soon(child_pid)  # signalled by close(); dying takes the kernel a moment


def test_one_process_per_run_and_a_server_killed_mid_call_is_an_error_then_a_new_session():
	server = own(timeout=30)
	with MCPPool(POLICY) as pool:
		first_pid = int(pool.call_tool(server, "pid", {}))
		assert int(pool.call_tool(server, "pid", {})) == first_pid  # the session (and process) is reused
		outcome = {}

		def call():
			try:
				outcome["text"] = pool.call_tool(server, "sleep", {"seconds": 25})
			except ToolError as error:
				outcome["error"] = str(error)

		caller = threading.Thread(target=call)
		caller.start()
		time.sleep(1.0)
		os.kill(first_pid, signal.SIGKILL)
		caller.join(20)
		assert not caller.is_alive(), "the call hung after its server died"
		assert "stopped answering (exit code -9)" in outcome["error"]
		second_pid = int(pool.call_tool(server, "pid", {}))
		assert second_pid != first_pid


def test_a_call_past_the_server_timeout_is_a_tool_error_and_the_session_goes_on():
	server = own(timeout=1)
	with MCPPool(POLICY) as pool:
		pid = pool.call_tool(own(timeout=20), "pid", {})  # starting Python may take longer than a second
		with pytest.raises(ToolError, match=r"MCP server own: did not answer within 1 seconds"):
			pool.call_tool(server, "sleep", {"seconds": 5})
		assert pool.call_tool(server, "pid", {}) == pid


def test_commands_the_site_did_not_allow_are_refused_and_never_started(tmp_path):
	marker = tmp_path / "started"
	script = tmp_path / "server.sh"
	script.write_text(f"#!/bin/sh\ntouch {marker}\n")
	script.chmod(0o755)
	unlisted = ServerConfig(name="x", transport="stdio", command=str(script))
	report = test_connection(unlisted, POLICY)
	assert (report.ok, report.error_kind) == (False, "config")
	assert "is not an allowed command" in report.error and "huf_mcp_stdio_commands" in report.error
	with MCPPool(POLICY) as pool, pytest.raises(ToolError, match="not an allowed command"):
		pool.call_tool(unlisted, "anything", {})
	with pytest.raises(MCPError, match="must be an absolute path"):
		check_server(ServerConfig(name="x", transport="stdio", command="mcp-server-calculator"), POLICY)
	assert not marker.exists()


def test_a_missing_command_is_said_in_words():
	missing = "/nonexistent/mcp-server"
	report = test_connection(ServerConfig(name="gone", transport="stdio", command=missing), Policy(stdio_commands=frozenset({missing})))
	assert report.error_kind == "process"
	assert report.error == "MCP server gone: the command /nonexistent/mcp-server could not be started (No such file or directory)."
