"""OAuth 2.1 sign-in to an MCP server, against an authorization server the test starts (the SDK's auth
routes over an in-memory provider that approves every sign-in): discovery, dynamic client
registration, PKCE, the split begin/finish a callback route needs, refresh, and tokens kept only
through the TokenStore, on the caller's thread, never in a message."""

import copy
import threading
import time
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from huf.ai.engine.mcp import (
	Auth,
	MCPError,
	MCPPool,
	OAuthSettings,
	OAuthState,
	Policy,
	ServerConfig,
	begin_sign_in,
	finish_sign_in,
	test_connection,
)
from tests.support.mcp_server import auth_server

POLICY = Policy(allowed_hosts=frozenset({"127.0.0.1"}))
CALLBACK = "https://site.example/api/method/huf.ai.mcp_client.oauth_callback"


class MemoryStore:
	"""A TokenStore; remembers which threads used it."""

	def __init__(self):
		self.state: OAuthState | None = None
		self.threads: set[int] = set()

	def load(self) -> OAuthState | None:
		self.threads.add(threading.get_ident())
		return copy.deepcopy(self.state)

	def save(self, state: OAuthState) -> None:
		self.threads.add(threading.get_ident())
		self.state = OAuthState.from_json(state.to_json())


@pytest.fixture
def locked():
	served, provider = auth_server(token_seconds=3600)
	with served:
		yield served, provider


def oauth_server(served, store) -> ServerConfig:
	auth = Auth("oauth", oauth=OAuthSettings(redirect_uri=CALLBACK, client_name="Huf test"))
	return ServerConfig(name="Locked", url=served.url + "/mcp", namespace="locked", auth=auth, token_store=store, timeout=10)


def sign_in(served, store) -> tuple[str, str]:
	"""The person's part: follow the authorization URL (the test server approves at once) and
	return the code and state the callback route would get."""
	url = begin_sign_in(oauth_server(served, store), POLICY)
	answer = httpx.get(url, follow_redirects=False)
	assert answer.status_code == 302, answer.text
	location = answer.headers["location"]
	assert location.startswith(CALLBACK + "?")
	query = parse_qs(urlsplit(location).query)
	return query["code"][0], query["state"][0]


def test_begin_discovers_registers_and_sends_the_person_to_authorize_with_pkce(locked):
	served, provider = locked
	store = MemoryStore()
	before = test_connection(oauth_server(served, store), POLICY)
	assert (before.ok, before.error_kind) == (False, "sign_in")
	assert before.error == "MCP server Locked: needs a person to sign in (OAuth); use Sign in on the MCP Server."
	url = begin_sign_in(oauth_server(served, store), POLICY)
	query = parse_qs(urlsplit(url).query)
	assert url.startswith(f"{served.url}/authorize?")
	assert query["code_challenge_method"] == ["S256"] and query["redirect_uri"] == [CALLBACK]
	assert query["client_id"] == [store.state.client_info["client_id"]]  # registered dynamically
	assert list(provider.clients) == [store.state.client_info["client_id"]]
	assert query["resource"][0].startswith(served.url)  # RFC 8707, from the protected-resource metadata
	assert store.state.pending["state"] == query["state"][0]
	assert store.state.tokens is None
	assert store.threads == {threading.get_ident()}


def test_finish_exchanges_the_code_and_later_runs_use_the_stored_tokens(locked):
	served, _provider = locked
	store = MemoryStore()
	code, state = sign_in(served, store)
	report = finish_sign_in(oauth_server(served, store), POLICY, code, state)
	assert report.ok, report.error
	assert (report.server_name, report.tool_count) == ("huf-oauth", 12)
	tokens = store.state.tokens
	assert tokens["access_token"].startswith("at-") and tokens["refresh_token"].startswith("rt-")
	assert store.state.pending is None
	with MCPPool(POLICY) as pool:
		server = oauth_server(served, store)
		assert pool.call_tool(server, "add", {"a": 1, "b": 1}) == "2"
		assert pool.call_tool(server, "header", {"name": "authorization"}) == "Bearer [hidden]"
	assert store.threads == {threading.get_ident()}
	assert tokens["access_token"] not in repr(report) and tokens["refresh_token"] not in repr(report)


def test_a_callback_that_is_not_the_latest_sign_in_is_refused(locked):
	served, _provider = locked
	store = MemoryStore()
	code, _state = sign_in(served, store)
	report = finish_sign_in(oauth_server(served, store), POLICY, code, "forged-state")
	assert (report.ok, report.error_kind) == (False, "sign_in")
	assert report.error == "MCP server Locked: this sign-in link is not the latest one; start the sign-in again."
	assert store.state.tokens is None


def test_an_expired_access_token_is_refreshed_and_the_new_tokens_saved():
	served, provider = auth_server(token_seconds=1)
	with served:
		store = MemoryStore()
		code, state = sign_in(served, store)
		assert finish_sign_in(oauth_server(served, store), POLICY, code, state).ok
		first = store.state.tokens["access_token"]
		time.sleep(1.5)
		with MCPPool(POLICY) as pool:
			assert pool.call_tool(oauth_server(served, store), "echo", {"text": "after refresh"}) == "after refresh"
		assert provider.refreshed == 1
		assert store.state.tokens["access_token"] != first
		assert store.state.tokens["refresh_token"]


def test_oauth_needs_a_token_store():
	server = ServerConfig(name="NoStore", url="https://mcp.example/mcp", auth=Auth("oauth", oauth=OAuthSettings(CALLBACK)))
	with pytest.raises(MCPError, match="OAuth needs a place to keep its tokens"):
		begin_sign_in(server, POLICY)
