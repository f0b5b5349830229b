"""The MCP Server data model: managers only, secrets encrypted, and tool call rows that link to it."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.engine.events import ToolCall, ToolCallEvent
from huf.ai.recorder import Recorder
from tests.site.conftest import as_user, make_user

SECRET = "sk-mcp-secret-value"


def mcp_server(name: str = "huf-test-github") -> str:
	if frappe.db.exists("MCP Server", name):
		frappe.delete_doc("MCP Server", name, force=True)
	doc = frappe.get_doc(
		{
			"doctype": "MCP Server",
			"server_name": name,
			"transport_type": "http",
			"server_url": "http://127.0.0.1:9/mcp",  # saving checks the address: one the test site allows
			"auth_type": "bearer_token",
			"auth_header_value": SECRET,
			"custom_headers": [{"header_name": "X-Team", "header_value": "team-secret"}],
			"tools": [{"tool_name": "create_issue", "namespaced_name": "github__create_issue", "requires_approval": 1}],
		}
	)
	doc.insert()
	return doc.name


def test_only_managers_create_or_read_mcp_servers_and_secrets_stay_encrypted(site):
	manager = make_user("mcp-manager@huf.test", ["Huf User", "Huf Manager"])
	user = make_user("mcp-user@huf.test", ["Huf User"])
	with as_user(manager):
		name = mcp_server()
		doc = frappe.get_doc("MCP Server", name)
		assert doc.auth_header_value != SECRET and doc.get_password("auth_header_value") == SECRET
		assert doc.custom_headers[0].get_password("header_value") == "team-secret"
		assert doc.tools[0].requires_approval == 1
	assert SECRET not in str(frappe.db.sql("select * from `tabMCP Server` where name=%s", name))
	with as_user(user):
		assert not frappe.has_permission("MCP Server", "read")
		with pytest.raises(frappe.PermissionError):
			frappe.get_doc("MCP Server", name).check_permission("read")
		with pytest.raises(frappe.PermissionError):
			mcp_server("huf-test-by-user")
	assert not frappe.db.exists("MCP Server", "huf-test-by-user")


def test_an_mcp_tool_call_row_names_its_server_and_tool(site):
	server = mcp_server()
	recorder = Recorder(run="huf-test-run", conversation="huf-test-conversation", agent="huf-test-agent", user="Administrator")
	origin = {"is_mcp_tool": 1, "mcp_server": server, "mcp_tool": "create_issue"}
	recorder(ToolCallEvent(call=ToolCall("c-mcp", "github__create_issue", "{}"), turn=1, origin=origin))
	name = recorder.tool_calls["c-mcp"]["name"]
	recorder.flush()
	row = frappe.db.get_value("Agent Tool Call", name, ["tool", "is_mcp_tool", "mcp_server", "mcp_tool"])
	assert row == ("github__create_issue", 1, server, "create_issue")
	meta = frappe.get_meta("Agent Tool Call").get_field("mcp_server")
	assert (meta.fieldtype, meta.options) == ("Link", "MCP Server")
	with pytest.raises(frappe.LinkValidationError):
		frappe.get_doc({"doctype": "Agent Tool Call", "tool": "x", "is_mcp_tool": 1, "mcp_server": "no-such-server"}).insert()
