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
CALLBACK = "https://site.example/api/method/huf.ai.mcp.client.oauth_callback"


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


def test_a_token_the_server_stops_taking_before_it_expires_is_refreshed_not_a_new_sign_in(locked):
	"""Revoked or rotated at the server while it still looks valid here: one refresh, the call goes
	through, and the new tokens are saved; no person is asked to sign in again."""
	served, provider = locked
	store = MemoryStore()
	code, state = sign_in(served, store)
	assert finish_sign_in(oauth_server(served, store), POLICY, code, state).ok
	first = store.state.tokens["access_token"]
	provider.access.clear()  # every access token revoked; the refresh token still good
	with MCPPool(POLICY) as pool:
		assert pool.call_tool(oauth_server(served, store), "echo", {"text": "still signed in"}) == "still signed in"
	assert provider.refreshed == 1
	assert store.state.tokens["access_token"] not in (first, None)
	provider.access.clear()
	provider.refresh.clear()  # and now the refresh token too: only a person can help
	report = test_connection(oauth_server(served, store), POLICY)
	assert (report.ok, report.error_kind) == (False, "sign_in")


def test_oauth_needs_a_token_store():
	server = ServerConfig(name="NoStore", url="https://mcp.example/mcp", auth=Auth("oauth", oauth=OAuthSettings(CALLBACK)))
	with pytest.raises(MCPError, match="OAuth needs a place to keep its tokens"):
		begin_sign_in(server, POLICY)


# --- what an admin sets by hand ---------------------------------------------------------------------

PRESET_SECRET = "preset-client-secret-42"


@pytest.fixture
def closed():
	"""An authorization server that registers no one: only the client an admin registered by hand."""
	from mcp.shared.auth import OAuthClientInformationFull

	served, provider = auth_server(registration=False)
	provider.clients["huf-preset"] = OAuthClientInformationFull(
		client_id="huf-preset",
		client_secret=PRESET_SECRET,
		redirect_uris=[CALLBACK],
		token_endpoint_auth_method="client_secret_post",
		grant_types=["authorization_code", "refresh_token"],
		scope="mcp",
	)
	with served:
		yield served, provider


def preset_server(served, store, **settings) -> ServerConfig:
	oauth = OAuthSettings(redirect_uri=CALLBACK, client_id="huf-preset", client_secret=PRESET_SECRET, **settings)
	return ServerConfig(name="Closed", url=served.url + "/mcp", namespace="closed", auth=Auth("oauth", oauth=oauth), token_store=store, timeout=10)


def follow(url: str) -> tuple[str, str]:
	answer = httpx.get(url, follow_redirects=False)
	assert answer.status_code == 302, answer.text
	query = parse_qs(urlsplit(answer.headers["location"]).query)
	return query["code"][0], query["state"][0]


def test_a_client_registered_by_hand_signs_in_where_the_server_registers_no_one(closed):
	served, provider = closed
	store = MemoryStore()
	with pytest.raises(MCPError, match="does not let Huf register itself for sign-in; enter the Client ID"):
		begin_sign_in(oauth_server(served, MemoryStore()), POLICY)
	url = begin_sign_in(preset_server(served, store, extra_params=(("access_type", "offline"), ("state", "forged"))), POLICY)
	query = parse_qs(urlsplit(url).query)
	assert query["client_id"] == ["huf-preset"] and query["access_type"] == ["offline"]
	assert query["state"] == [store.state.pending["state"]]  # an extra parameter never replaces the flow's own
	assert list(provider.clients) == ["huf-preset"] and store.state.client_info is None
	assert store.state.discovered["registration"] == "manual"
	assert store.state.discovered["metadata"]["token_endpoint"] == served.url + "/token"
	code, state = follow(url)
	report = finish_sign_in(preset_server(served, store), POLICY, code, state)
	assert report.ok, report.error
	assert report.tool_count == 12 and store.state.tokens["access_token"].startswith("at-")
	assert PRESET_SECRET not in store.state.to_json()  # the admin's secret stays in its own field


def test_the_sign_in_and_token_addresses_an_admin_sets_are_the_ones_used(closed):
	served, _provider = closed
	store = MemoryStore()
	url = begin_sign_in(preset_server(served, store, authorization_endpoint="https://login.example/authorize?tenant=7"), POLICY)
	assert url.startswith("https://login.example/authorize?tenant=7&")
	wrong = preset_server(served, store, token_endpoint=served.url + "/no-such-token")
	code, state = follow(begin_sign_in(wrong, POLICY))
	report = finish_sign_in(wrong, POLICY, code, state)
	assert (report.ok, report.error_kind) == (False, "sign_in") and store.state.tokens is None  # the admin's address was asked
	assert "the sign-in failed (Token exchange failed: 404)" in report.error and "Token Endpoint" in report.error
	nested = preset_server(served, store, token_endpoint=served.url + "/nested/token", token_path="authed_user.access_token")
	code, state = follow(begin_sign_in(nested, POLICY))
	report = finish_sign_in(nested, POLICY, code, state)
	assert report.ok, report.error
	assert store.state.tokens["access_token"].startswith("at-")


def test_a_token_path_that_finds_nothing_says_so(closed):
	served, _provider = closed
	store = MemoryStore()
	server = preset_server(served, store, token_endpoint=served.url + "/nested/token", token_path="team.access_token")
	code, state = follow(begin_sign_in(server, POLICY))
	report = finish_sign_in(server, POLICY, code, state)
	assert (report.ok, report.error_kind) == (False, "sign_in")
	assert "no access token at team.access_token" in report.error and "Token Response Path" in report.error


@pytest.mark.parametrize(
	("settings", "message"),
	[
		({"authorization_endpoint": "javascript:alert(1)"}, "sign-in address must start with https://"),
		({"token_endpoint": "file:///etc/passwd"}, "token address must start with https://"),
		({"token_path": "authed_user..access_token"}, "names joined by dots"),
	],
)
def test_the_save_check_refuses_oauth_settings_that_cannot_work(settings, message):
	from huf.ai.engine.mcp import check_server

	oauth = OAuthSettings(redirect_uri=CALLBACK, client_id="c", **settings)
	server = ServerConfig(name="Bad", url="https://mcp.example/mcp", auth=Auth("oauth", oauth=oauth), token_store=MemoryStore())
	with pytest.raises(MCPError, match=message):
		check_server(server, POLICY)


def test_a_client_secret_without_its_client_id_is_refused():
	from huf.ai.engine.mcp import check_server

	oauth = OAuthSettings(redirect_uri=CALLBACK, client_secret="s3cret-value")
	server = ServerConfig(name="Bad", url="https://mcp.example/mcp", auth=Auth("oauth", oauth=oauth), token_store=MemoryStore())
	with pytest.raises(MCPError, match="client secret needs its client ID"):
		check_server(server, POLICY)
