"""The SSRF matrix of the one outbound client (engine/safe_http.py), against real local servers.

Every private spelling points at a live local server where it can (the loopback forms carry its
port), so a guard that let one through would get a 200 instead of the refusal. Redirect hops are
checked again, a resolver that mixes public and private answers is refused before any connection,
and a second DNS answer (rebinding) is never asked for: the connection goes to the checked address.
Decision: a host with ANY non-public address is refused, even when a public one comes first."""

from __future__ import annotations

import json
import socket
from urllib.parse import quote

import anyio
import pytest

from huf.ai.engine import safe_http
from huf.ai.engine.safe_http import SafeHTTPError, async_client, client, is_public, request, resolve
from tests.support.local_http import LocalServer

LOOPBACK_SPELLINGS = [
	"127.0.0.1",
	"127.1",
	"127.0.1",
	"2130706433",
	"0x7f.1",
	"0x7f000001",
	"017700000001",
	"0.0.0.0",
	"0",
	"localhost",
	"[::1]",
	"[::ffff:127.0.0.1]",
	"[::ffff:7f00:1]",
	"[::127.0.0.1]",
	"[64:ff9b::7f00:1]",
	"[2002:7f00:1::]",
]
OTHER_PRIVATE = [
	"10.0.0.1",
	"172.16.0.1",
	"172.31.255.254",
	"192.168.0.1",
	"169.254.169.254",  # cloud metadata (AWS, GCP, Azure)
	"100.64.0.1",  # carrier-grade NAT
	"100.100.100.200",  # Alibaba metadata, inside CGNAT
	"192.0.0.192",  # Oracle metadata, IETF protocol assignments
	"168.63.129.16",  # Azure platform address
	"198.18.0.1",
	"192.0.2.1",
	"224.0.0.1",
	"239.255.255.250",
	"240.0.0.1",
	"255.255.255.255",
	"[::]",
	"[fd00:ec2::254]",  # AWS metadata over IPv6
	"[fc00::1]",
	"[fe80::1]",
	"[ff02::1]",
	"[::ffff:169.254.169.254]",
	"[::ffff:a00:1]",
	"[64:ff9b::a9fe:a9fe]",  # NAT64 of the metadata address
	"[64:ff9b:1::a00:1]",  # local-use NAT64
	"[2002:a9fe:a9fe::]",  # 6to4 of the metadata address
	"[2001:0:4136:e378:8000:63bf:3fff:fdd2]",  # Teredo
	"[2001:db8::1]",
]


@pytest.fixture(scope="module")
def server():
	with LocalServer() as local:
		yield local


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS)
def test_every_spelling_of_the_local_machine_is_refused(server, host):
	server.seen.clear()
	with pytest.raises(SafeHTTPError) as error:
		request("GET", f"http://{host}:{server.port}/echo", max_bytes=10_000, timeout=3)
	assert error.value.kind == "refused", str(error.value)
	assert "a private address; Huf only connects to public web addresses" in str(error.value)
	assert server.seen == []


@pytest.mark.parametrize("host", OTHER_PRIVATE)
def test_private_reserved_and_metadata_addresses_are_refused_before_connecting(host):
	with pytest.raises(SafeHTTPError) as error:
		request("GET", f"http://{host}/latest/meta-data/", max_bytes=10_000, timeout=3)
	assert error.value.kind == "refused", str(error.value)  # not "unreachable": no connection was tried


def test_an_octal_dotted_address_is_not_even_a_valid_address(server):
	with pytest.raises(SafeHTTPError, match="is not a valid web address") as error:
		request("GET", f"http://0177.0.0.1:{server.port}/echo", max_bytes=10_000)
	assert error.value.kind == "invalid" and server.seen == []


@pytest.mark.parametrize("ip", ["1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])
def test_public_addresses_pass(ip):
	assert is_public(ip)


def test_the_allow_list_names_a_host_or_a_host_and_port(server):
	port = server.port
	assert request("GET", server.url(), max_bytes=10_000, allow=frozenset({"127.0.0.1"})).status == 200
	assert request("GET", server.url(), max_bytes=10_000, allow=frozenset({f"127.0.0.1:{port}"})).status == 200
	assert request("GET", server.url(host="LOCALHOST"), max_bytes=10_000, allow=frozenset({"localhost"})).status == 200
	with pytest.raises(SafeHTTPError, match="private address"):
		request("GET", server.url(), max_bytes=10_000, allow=frozenset({f"127.0.0.1:{port + 1}", "localhost"}))
	assert resolve("127.0.0.1", 8080, frozenset({"127.0.0.1:8080"})) == (["127.0.0.1"], [])
	assert resolve("127.0.0.1", 8081, frozenset({"127.0.0.1:8080"})) == (["127.0.0.1"], ["127.0.0.1"])


def _redirect(server: LocalServer, to: str, status: int = 302) -> str:
	return server.url(f"/redirect?status={status}&to={quote(to, safe='')}")


@pytest.mark.parametrize(
	"target",
	[
		"http://169.254.169.254/latest/meta-data/",
		"http://10.0.0.1/",
		"http://[::ffff:127.0.0.1]:{port}/echo",
		"http://localhost:{port}/echo",  # the same machine under a name that is not allowed
		"http://127.0.0.1:{other}/echo",  # another port of an allowed host:port
	],
)
def test_an_allowed_server_redirecting_to_a_private_address_is_refused_at_the_hop(server, target):
	with LocalServer() as other:
		target = target.format(port=server.port, other=other.port)
		start = _redirect(server, target)
		with pytest.raises(SafeHTTPError) as error:
			request("GET", start, max_bytes=10_000, allow=frozenset({f"127.0.0.1:{server.port}"}))
		assert str(error.value).startswith(f"{start} redirects to {target}, which points to ")
		assert error.value.kind == "refused" and other.seen == []


def test_at_most_five_redirects_each_one_checked(server):
	allow = frozenset({"127.0.0.1"})
	chain = server.url()
	for _ in range(5):
		chain = _redirect(server, chain)
	assert json.loads(request("GET", chain, max_bytes=10_000, allow=allow).body)["path"] == "/echo"
	with pytest.raises(SafeHTTPError, match="redirects more than 5 times") as error:
		request("GET", _redirect(server, chain), max_bytes=10_000, allow=allow)
	assert error.value.kind == "redirects"
	with pytest.raises(SafeHTTPError, match="is not a web address"):
		request("GET", _redirect(server, "file:///etc/passwd"), max_bytes=10_000, allow=allow)


SECRETS = {
	"Authorization": "Bearer s3cret",
	"Cookie": "session=s3cret",
	"Proxy-Authorization": "Basic s3cret",
	"X-Api-Key": "s3cret",
}


def test_credentials_and_tool_headers_are_dropped_when_a_redirect_changes_host(server):
	allow = frozenset({"127.0.0.1", "localhost"})
	headers = {**SECRETS, "X-Trace": "kept"}
	with LocalServer() as second:
		request(
			"GET",
			_redirect(server, second.url(host="localhost")),
			max_bytes=10_000,
			allow=allow,
			headers=headers,
			sensitive=["x-api-key"],
		)
		received = second.seen[-1].headers
		assert received["x-trace"] == "kept" and received["host"] == f"localhost:{second.port}"
		assert not {"authorization", "cookie", "proxy-authorization", "x-api-key"} & set(received)
		# another port of the same host is another origin too
		request("GET", _redirect(server, second.url()), max_bytes=10_000, allow=allow, headers=headers, sensitive=["X-API-Key"])
		assert "authorization" not in second.seen[-1].headers and "x-api-key" not in second.seen[-1].headers
	server.seen.clear()
	request("GET", _redirect(server, server.url()), max_bytes=10_000, allow=allow, headers=headers, sensitive=["x-api-key"])
	assert {k.lower(): v for k, v in SECRETS.items()}.items() <= server.seen[-1].headers.items()  # same origin: kept


def test_the_httpx_clients_follow_the_same_rules(server):
	allow = frozenset({"127.0.0.1", "localhost"})
	with LocalServer() as second:
		to_second = _redirect(server, second.url(host="localhost"))
		with client(allow, headers=SECRETS, sensitive=["X-Api-Key"]) as http:
			assert http.get(to_second).status_code == 200
			with pytest.raises(SafeHTTPError, match=r"which points to 169\.254\.169\.254"):
				http.get(_redirect(server, "http://169.254.169.254/"))

		async def through_async_client():
			async with async_client(allow, headers=SECRETS, sensitive=["X-Api-Key"]) as http:
				answer = await http.post(to_second, json={"a": 1}, follow_redirects=True)
				assert answer.status_code == 200 and answer.extensions[safe_http.FINAL_URL] == second.url(host="localhost")
			async with async_client(frozenset()) as http:
				with pytest.raises(SafeHTTPError, match="a private address"):
					await http.get(second.url())

		anyio.run(through_async_client)
		assert len(second.seen) == 2 and second.seen[-1].method == "GET"  # 302 turned the POST into a GET
		for seen in second.seen:
			assert not {"authorization", "cookie", "proxy-authorization", "x-api-key"} & set(seen.headers)


@pytest.fixture
def dns(monkeypatch):
	"""A resolver the test scripts: ``answers[host]`` is a list of address lists, one per lookup;
	``lookups`` and ``connects`` record what the client asked for and where it connected."""
	real_lookup, real_connect = socket.getaddrinfo, socket.create_connection
	state = {"answers": {}, "lookups": [], "connects": [], "refuse": set()}

	def lookup(host, port, *args, **kwargs):
		if host not in state["answers"]:
			return real_lookup(host, port, *args, **kwargs)
		state["lookups"].append(host)
		answers = state["answers"][host]
		ips = answers.pop(0) if len(answers) > 1 else answers[0]
		return [(socket.AF_INET6 if ":" in ip else socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port)) for ip in ips]

	def connect(address, *args, **kwargs):
		state["connects"].append(address)
		if address[0] in state["refuse"]:
			raise ConnectionRefusedError(111, "Connection refused")
		return real_connect(address, *args, **kwargs)

	monkeypatch.setattr(socket, "getaddrinfo", lookup)
	monkeypatch.setattr(socket, "create_connection", connect)
	return state


def test_a_public_answer_followed_by_a_private_one_is_refused_before_any_connection(dns, server):
	dns["answers"]["mixed.test"] = [["93.184.216.34", "127.0.0.1"]]
	server.seen.clear()
	with pytest.raises(SafeHTTPError, match=r"mixed\.test:\d+/echo points to 127\.0\.0\.1, a private address"):
		request("GET", f"http://mixed.test:{server.port}/echo", max_bytes=10_000)
	assert dns["connects"] == [] and server.seen == []


def test_a_rebinding_resolver_never_gets_a_second_question(dns, server):
	"""First answer public, every later one the local machine: the connection goes to the checked
	(public) address only; here it is refused, as an unreachable public host would be."""
	dns["answers"]["rebind.test"] = [["93.184.216.34"], ["127.0.0.1"]]
	dns["refuse"].add("93.184.216.34")
	server.seen.clear()
	with pytest.raises(SafeHTTPError) as error:
		request("GET", f"http://rebind.test:{server.port}/echo", max_bytes=10_000)
	assert error.value.kind == "unreachable"
	assert dns["lookups"] == ["rebind.test"] and dns["connects"] == [("93.184.216.34", server.port)]
	assert server.seen == []


def test_the_connection_goes_to_the_checked_address_with_the_host_name_kept(dns, server):
	dns["answers"]["intranet.test"] = [["127.0.0.1"]]
	answer = request("GET", f"http://intranet.test:{server.port}/echo", max_bytes=10_000, allow=frozenset({"intranet.test"}))
	assert json.loads(answer.body)["headers"]["host"] == f"intranet.test:{server.port}"
	assert dns["lookups"] == ["intranet.test"] and dns["connects"] == [("127.0.0.1", server.port)]


def test_the_next_checked_address_is_tried_when_one_does_not_answer(dns, server):
	dns["answers"]["two.test"] = [["::1", "127.0.0.1"]]
	dns["refuse"].add("::1")
	answer = request("GET", f"http://two.test:{server.port}/echo", max_bytes=10_000, allow=frozenset({"two.test"}))
	assert answer.status == 200 and dns["connects"] == [("::1", server.port), ("127.0.0.1", server.port)]
