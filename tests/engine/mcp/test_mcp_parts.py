"""The MCP client's pure parts: provider-safe tool names, the save-time check, results as text."""

import re

import pytest
from mcp import types

from huf.ai.engine.mcp import Auth, MCPError, OAuthState, Policy, ServerConfig, ToolSpec, check_server
from huf.ai.engine.mcp.config import auth_headers, scrub, secrets_of
from huf.ai.engine.mcp.names import specs_from
from huf.ai.engine.mcp.results import render
from huf.ai.engine.tool_names import namespaced

PROVIDER_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$")  # OpenAI and Anthropic, with Gemini's first character


@pytest.mark.parametrize(
	("namespace", "tool", "expected"),
	[
		("gmail", "send_email", "gmail__send_email"),
		("github", "repos.list", "github__repos_list"),
		("my server", "créer/ticket", "my_server__cr_er_ticket"),
		("1password", "get", "_1password__get"),
	],
)
def test_safe_names(namespace, tool, expected):
	assert namespaced(namespace, tool) == expected
	assert PROVIDER_NAME.match(expected)


def test_long_and_colliding_names_stay_valid_unique_and_map_back():
	tools = [
		types.Tool(name="a.b", inputSchema={"type": "object"}),
		types.Tool(name="a_b", inputSchema={"type": "object"}),
		types.Tool(name="x" * 100, inputSchema={}),
	]
	specs = specs_from("ns", tools)
	names = [spec.name for spec in specs]
	assert len(set(names)) == 3 and all(PROVIDER_NAME.match(name) for name in names)
	assert {spec.name: spec.tool for spec in specs}["ns__a_b"] == "a.b"
	assert specs[2].input_schema == {"type": "object", "properties": {}}
	assert ToolSpec.from_dict(specs[0].to_dict()) == specs[0]


def test_check_server_says_what_is_wrong_without_any_io():
	policy = Policy(stdio_commands=frozenset({"/usr/bin/mcp"}))
	cases = [
		(ServerConfig(name="A", url="ftp://x/mcp"), "the Server URL must start with http:// or https://"),
		(ServerConfig(name="A", transport="websocket", url="https://x"), "the transport must be one of http, sse, stdio"),
		(ServerConfig(name="A", url="https://x", auth=Auth("bearer_token")), "the auth type bearer_token needs a value"),
		(ServerConfig(name="A", url="https://x", auth=Auth("custom_header", value="v")), "a custom header needs a header name"),
		(ServerConfig(name="A", url="https://x", headers=(("Bad Header", "v"),)), "'Bad Header' is not a valid HTTP header name"),
		(ServerConfig(name="A", transport="stdio", command="/usr/bin/mcp", env=(("PATH", "/tmp"),)), "'PATH' cannot be an environment"),
		(ServerConfig(name="A", transport="stdio", command="/usr/bin/mcp", auth=Auth("bearer_token", value="v")), "stdio servers take"),
	]
	for server, words in cases:
		with pytest.raises(MCPError, match=re.escape(words)) as raised:
			check_server(server, policy)
		assert raised.value.kind == "config" and str(raised.value).startswith("MCP server A: ")
	check_server(ServerConfig(name="ok", transport="stdio", command="/usr/bin/../bin/mcp"), policy)


def test_auth_headers_and_scrubbing():
	server = ServerConfig(name="A", url="https://x", auth=Auth("api_key", value="key-123456"), headers=(("X-Org", "org-secret"),))
	assert auth_headers(server) == {"X-Org": "org-secret", "X-API-Key": "key-123456"}
	state = OAuthState(tokens={"access_token": "at-abcdef", "refresh_token": "rt-abcdef"})
	secrets = secrets_of(server, state)
	assert scrub("key-123456 org-secret at-abcdef rt-abcdef ok", secrets) == "[hidden] [hidden] [hidden] [hidden] ok"
	assert OAuthState.from_json(state.to_json()) == state
	cleared = ServerConfig(name="B", url="https://x", headers=(("X-Org", ""), ("X-Team", "team-secret"), ("X-Blank", " ")))
	assert auth_headers(cleared) == {"X-Team": "team-secret"}  # a cleared value: neither name nor value is sent


def test_results_as_text():
	blob = types.BlobResourceContents(uri="file:///a.pdf", mimeType="application/pdf", blob="JVBERi0=")
	result = types.CallToolResult(
		content=[
			types.AudioContent(type="audio", data="AAAA", mimeType="audio/wav"),
			types.EmbeddedResource(type="resource", resource=blob),
			types.ResourceLink(type="resource_link", name="doc", uri="https://x/doc", mimeType="text/html"),
		],
		structuredContent={"n": 1},
	)
	assert render(result).split("\n") == [
		"[audio: audio/wav, 3 bytes; not shown to you]",
		"[resource file:///a.pdf: application/pdf, 5 bytes; not shown to you]",
		"[resource link: https://x/doc (text/html)]",
		'{"n": 1}',  # structured content without text: as JSON
	]
	with_text = types.CallToolResult(content=[types.TextContent(type="text", text='{"n": 1}')], structuredContent={"n": 1})
	assert render(with_text) == '{"n": 1}'
