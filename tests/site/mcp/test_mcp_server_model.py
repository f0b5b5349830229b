"""The MCP Server data model: managers only, secrets encrypted, and tool call rows that link to it."""

from __future__ import annotations

import frappe
import pytest
from frappe.utils.password import get_decrypted_password

from huf.ai.mcp import tokens as mcp_tokens
from huf.ai.engine.events import ToolCall, ToolCallEvent
from huf.ai.engine.mcp import OAuthState
from huf.ai.run.recorder import Recorder
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


def stored_secrets(name: str) -> dict:
	"""What the server would send: its decrypted secrets, empty when gone."""
	doc = frappe.get_doc("MCP Server", name)
	return {
		"key": doc.get_password("auth_header_value", raise_exception=False),
		"headers": [row.get_password("header_value", raise_exception=False) for row in doc.custom_headers],
		"environment": [row.get_password("variable_value", raise_exception=False) for row in doc.environment],
		"oauth": [get_decrypted_password("MCP Server", name, f, raise_exception=False) for f in mcp_tokens.SECRET_FIELDS],
		"oauth_status": doc.oauth_status,
	}


def signed_in(name: str) -> None:
	mcp_tokens.MCPTokenStore(name).save(OAuthState({"client_id": "huf-client"}, {"access_token": "at-1", "refresh_token": "rt-1"}))


def test_a_new_address_removes_the_stored_secrets(site):
	name = mcp_server("huf-test-moved")
	signed_in(name)
	doc = frappe.get_doc("MCP Server", name)
	doc.description = "Same address, secrets kept"
	doc.save()
	kept = stored_secrets(name)
	assert (kept["key"], kept["headers"], kept["oauth_status"]) == (SECRET, ["team-secret"], "Connected")
	assert kept["oauth"][1:] == ["at-1", "rt-1"]

	doc = frappe.get_doc("MCP Server", name)  # as the form sends it: secrets masked
	doc.server_url = "http://127.0.0.1:10/mcp"
	doc.save()
	assert stored_secrets(name) == {"key": None, "headers": [None], "environment": [], "oauth": [None, None, None], "oauth_status": "Not Connected"}
	doc.reload()
	assert not doc.auth_header_value and not doc.custom_headers[0].header_value and not doc.oauth_access_token


def test_a_new_address_keeps_the_values_typed_with_it(site):
	name = mcp_server("huf-test-moved-with-key")
	signed_in(name)
	doc = frappe.get_doc("MCP Server", name)
	doc.server_url = "http://127.0.0.1:10/mcp"
	doc.auth_header_value = "sk-new-key"
	doc.custom_headers[0].header_value = "new-team-secret"
	doc.save()
	after = stored_secrets(name)
	assert (after["key"], after["headers"]) == ("sk-new-key", ["new-team-secret"])
	assert after["oauth"] == [None, None, None] and after["oauth_status"] == "Not Connected"  # a sign-in is never typed


def test_a_new_stdio_command_removes_the_environments_values(site):
	old, new = "/usr/local/bin/huf-test-mcp", "/usr/local/bin/huf-other-mcp"
	frappe.conf.huf_mcp_stdio_commands = [old, new]
	try:
		with as_user(make_user("mcp-env-manager@huf.test", ["Huf User", "Huf Manager"])):
			name = "huf-test-stdio-env"
			if frappe.db.exists("MCP Server", name):
				frappe.delete_doc("MCP Server", name, force=True)
			doc = frappe.get_doc(
				{"doctype": "MCP Server", "server_name": name, "transport_type": "stdio", "command": old, "environment": [{"variable_name": "API_KEY", "variable_value": "env-secret"}]}
			).insert()
			assert stored_secrets(name)["environment"] == ["env-secret"]
			doc = frappe.get_doc("MCP Server", name)
			doc.command = new
			doc.save()
			assert stored_secrets(name)["environment"] == [None]
	finally:
		frappe.conf.pop("huf_mcp_stdio_commands", None)


def oauth_server(name: str, **fields) -> frappe.model.document.Document:
	if frappe.db.exists("MCP Server", name):
		frappe.delete_doc("MCP Server", name, force=True)
	return frappe.get_doc(
		{"doctype": "MCP Server", "server_name": name, "transport_type": "http", "server_url": "http://127.0.0.1:9/mcp", "auth_type": "oauth", **fields}
	).insert()


def test_the_oauth_fields_an_admin_enters_reach_the_client(site):
	from huf.ai.mcp.client import server_config

	doc = oauth_server(
		"huf-test-oauth-preset",
		oauth_client_id="preset-id",
		oauth_client_secret="preset-secret",
		oauth_scope="read write",
		oauth_authorization_endpoint="https://login.example/authorize",
		oauth_token_endpoint="http://127.0.0.1:9/token",
		oauth_extra_authorize_params='{"access_type": "offline", "prompt": true}',
		oauth_token_response_path="authed_user.access_token",
	)
	settings = server_config(frappe.get_doc("MCP Server", doc.name)).auth.oauth
	assert (settings.client_id, settings.client_secret, settings.scope) == ("preset-id", "preset-secret", "read write")
	assert settings.extra_params == (("access_type", "offline"), ("prompt", "true"))
	assert (settings.authorization_endpoint, settings.token_endpoint, settings.token_path) == (
		"https://login.example/authorize",
		"http://127.0.0.1:9/token",
		"authed_user.access_token",
	)
	found = {"resource_metadata_url": "http://127.0.0.1:9/.well-known/oauth-protected-resource", "authorization_server": "http://127.0.0.1:9/", "metadata": {"issuer": "http://127.0.0.1:9/", "registration_endpoint": "http://127.0.0.1:9/register"}, "registration": "manual"}
	mcp_tokens.MCPTokenStore(doc.name).save(OAuthState(None, {"access_token": "at-9"}, discovered=found))
	doc.reload()
	assert doc.oauth_client_id == "preset-id"  # the admin's entry is never overwritten by a sign-in
	assert (doc.oauth_discovery_status, doc.oauth_registration_endpoint, doc.oauth_client_registration_method) == (
		"Discovered",
		"http://127.0.0.1:9/register",
		"Client ID entered here",
	)
	assert "registration_endpoint" in doc.oauth_metadata_json and doc.oauth_last_discovered_at


@pytest.mark.parametrize(
	("fields", "message"),
	[
		({"oauth_extra_authorize_params": "access_type=offline"}, "Extra Authorize Params must be a JSON object"),
		({"oauth_extra_authorize_params": '{"nested": {"a": 1}}'}, "Extra Authorize Params must be a JSON object"),
		({"oauth_authorization_endpoint": "javascript:alert(1)"}, "sign-in address must start with https://"),
		({"oauth_client_secret": "orphan-secret"}, "client secret needs its client ID"),
	],
)
def test_oauth_fields_that_cannot_work_are_refused_at_save(site, fields, message):
	with pytest.raises(frappe.ValidationError, match=message):
		oauth_server("huf-test-oauth-bad", **fields)
	assert not frappe.db.exists("MCP Server", "huf-test-oauth-bad")


def test_a_new_token_address_removes_the_client_secret_and_the_sign_in(site):
	doc = oauth_server("huf-test-oauth-moved", oauth_client_id="preset-id", oauth_client_secret="preset-secret")
	signed_in(doc.name)
	doc = frappe.get_doc("MCP Server", doc.name)
	doc.oauth_token_endpoint = "http://127.0.0.1:10/token"
	doc.save()
	assert doc.get_password("oauth_client_secret", raise_exception=False) is None
	assert stored_secrets(doc.name)["oauth"] == [None, None, None]
	assert frappe.db.get_value("MCP Server", doc.name, "oauth_client_id") == "preset-id"  # not a secret: kept


def test_program_arguments_are_one_per_line(site):
	from huf.ai.mcp.client import server_config

	doc = frappe.get_doc({"doctype": "MCP Server", "server_name": "x", "transport_type": "stdio", "command": "/bin/x", "command_args": "--root\n/srv/my files\n\n  --verbose  \n"})
	assert server_config(doc, decrypt=False).args == ("--root", "/srv/my files", "--verbose")
