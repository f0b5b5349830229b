"""The outbound client (engine/safe_http.py) against real local servers: every method and body kind,
redirect methods, size and time caps, TLS to a pinned address, streaming through the async client;
and web addresses read as knowledge documents. The SSRF matrix is in test_safe_http_ssrf.py."""

from __future__ import annotations

import http.server
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from urllib.parse import quote

import anyio
import pytest

from huf.ai.engine.knowledge.types import ExtractError
from huf.ai.engine.knowledge.urls import fetch_document
from huf.ai.engine.safe_http import SafeHTTPError, async_client, client, request
from tests.engine.knowledge.test_knowledge_extract import pdf_pages
from tests.support.local_http import LocalServer

PAGES = {
	"/page": (
		"text/html; charset=utf-8",
		b"<html><title>Opening hours</title><body><nav>Menu</nav><main>Open 9 to 5.</main><script>steal()</script></body></html>",
	),
	"/manual": ("application/pdf", pdf_pages("Page one text", "Page two text")),
	"/notes.txt": ("text/plain", b"plain notes"),
	"/big": ("text/plain", b"x" * 5000),
	"/image": ("image/png", b"\x89PNG\r\n"),
}


class Handler(http.server.BaseHTTPRequestHandler):
	def log_message(self, *args):
		pass

	def do_GET(self):
		if self.path == "/hop":
			self.send_response(301)
			self.send_header("Location", "/page")
			self.end_headers()
			return
		if self.path == "/slow":
			time.sleep(2)
		if self.path in ("/trickle", "/trickle-headers"):
			return self.trickle(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n", b"x" * 200)
		if self.path not in PAGES:
			self.send_response(404)
			self.end_headers()
			return
		kind, body = PAGES[self.path]
		self.send_response(200)
		self.send_header("Content-Type", kind)
		self.send_header("Content-Length", str(len(body)))
		self.end_headers()
		self.wfile.write(body)

	def trickle(self, head: bytes, body: bytes) -> None:
		"""A byte every 0.05 s (the headers too, on /trickle-headers): no single read ever waits long."""
		if self.path == "/trickle":
			self.wfile.write(head)
			head = b""
		try:
			for byte in [bytes([b]) for b in head + body]:
				self.wfile.write(byte)
				time.sleep(0.05)
		except OSError:
			pass  # the client hung up


@pytest.fixture(scope="module")
def server():
	httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
	threading.Thread(target=httpd.serve_forever, daemon=True).start()
	yield f"127.0.0.1:{httpd.server_address[1]}"
	httpd.shutdown()


def test_a_local_address_is_refused_unless_an_administrator_allows_it(server):
	with pytest.raises(
		SafeHTTPError,
		match=r"points to 127\.0\.0\.1, a private address; Huf only connects to public web addresses\. An administrator can allow",
	):
		request("GET", f"http://{server}/page", max_bytes=10_000)
	assert b"Open 9 to 5." in request("GET", f"http://{server}/page", max_bytes=10_000, allow=frozenset({server})).body
	assert request("GET", f"http://{server}/page", max_bytes=10_000, allow=frozenset({"127.0.0.1"})).status == 200


def test_redirects_are_followed_and_limited(server):
	allow = frozenset({server})
	assert request("GET", f"http://{server}/hop", max_bytes=10_000, allow=allow).url == f"http://{server}/page"
	with pytest.raises(SafeHTTPError, match="redirects more than 0 times"):
		request("GET", f"http://{server}/hop", max_bytes=10_000, allow=allow, max_redirects=0)


def test_size_time_status_and_scheme_are_checked(server):
	allow = frozenset({server})
	with pytest.raises(SafeHTTPError, match="larger than"):
		request("GET", f"http://{server}/big", max_bytes=1000, allow=allow)
	with pytest.raises(SafeHTTPError, match=r"did not answer within 0\.5 seconds"):
		request("GET", f"http://{server}/slow", max_bytes=1000, allow=allow, timeout=0.5)
	assert request("GET", f"http://{server}/missing", max_bytes=1000, allow=allow).status == 404
	with pytest.raises(ExtractError, match="answered with HTTP 404"):
		fetch_document(f"http://{server}/missing", max_bytes=1000, timeout=5, allow=allow)
	for url in ("file:///etc/passwd", "ftp://example.com/x", "gopher://x", "http:///nohost"):
		with pytest.raises(SafeHTTPError, match="is not a web address"):
			request("GET", url, max_bytes=1000)
	with pytest.raises(SafeHTTPError, match="was not found"):
		request("GET", "http://no-such-host.invalid/", max_bytes=1000)


def test_a_server_trickling_bytes_is_cut_off_at_the_fetchs_deadline(server):
	allow = frozenset({server})
	for path in ("/trickle", "/trickle-headers"):
		started = time.monotonic()
		with pytest.raises(SafeHTTPError, match=r"took longer than 1.5 seconds to answer, the longest Huf waits"):
			request("GET", f"http://{server}{path}", max_bytes=1000, allow=allow, timeout=5, deadline=1.5)
		assert time.monotonic() - started < 3, path  # not the 10 s the whole page would take
	assert request("GET", f"http://{server}/page", max_bytes=10_000, allow=allow, deadline=5).status == 200


def test_web_pages_and_files_become_documents(server):
	allow = frozenset({server})
	page, body = fetch_document(f"http://{server}/page", max_bytes=10_000, timeout=5, allow=allow)
	assert page.title == "Opening hours" and page.text == "Open 9 to 5." and body == PAGES["/page"][1]
	manual, _ = fetch_document(f"http://{server}/manual", max_bytes=100_000, timeout=5, allow=allow)
	assert [s.locator for s in manual.segments] == ["page 1", "page 2"] and manual.title == f"http://{server}/manual"
	assert fetch_document(f"http://{server}/notes.txt", max_bytes=1000, timeout=5, allow=allow)[0].text == "plain notes"
	with pytest.raises(ExtractError, match=r"/image is image/png, which Huf cannot read"):
		fetch_document(f"http://{server}/image", max_bytes=1000, timeout=5, allow=allow)


@pytest.fixture(scope="module")
def echo():
	with LocalServer() as local:
		yield local


LOCAL = frozenset({"127.0.0.1", "localhost"})


def _echoed(response) -> dict:
	return json.loads(response.body)


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_every_method_with_headers_and_query(echo, method):
	answer = request(method, echo.url(), max_bytes=10_000, allow=LOCAL, headers={"X-Tool": "on"}, params={"q": "a b"})
	seen = _echoed(answer)
	assert (seen["method"], seen["path"], seen["headers"]["x-tool"]) == (method, "/echo?q=a+b", "on")
	assert answer.status == 200 and answer.content_type == "application/json"
	head = request("HEAD", echo.url(), max_bytes=10_000, allow=LOCAL)
	assert head.status == 200 and head.body == b"" and echo.seen[-1].method == "HEAD"


@pytest.mark.parametrize(
	("body", "kind", "sent"),
	[
		({"json": {"name": "Ada", "n": 1}}, "application/json", b'{"name":"Ada","n":1}'),
		({"data": {"name": "Ada", "n": "1"}}, "application/x-www-form-urlencoded", b"name=Ada&n=1"),
		(
			{"content": b"\x00raw bytes", "headers": {"Content-Type": "application/octet-stream"}},
			"application/octet-stream",
			b"\x00raw bytes",
		),
	],
)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_json_form_and_byte_bodies(echo, method, body, kind, sent):
	request(method, echo.url(), max_bytes=10_000, allow=LOCAL, **body)
	seen = echo.seen[-1]
	assert (seen.method, seen.headers["content-type"], seen.body) == (method, kind, sent)


@pytest.mark.parametrize(
	("status", "method", "then"),
	[
		(303, "POST", "GET"),
		(303, "PUT", "GET"),
		(302, "POST", "GET"),
		(301, "POST", "GET"),
		(302, "PUT", "PUT"),
		(307, "POST", "POST"),
		(308, "PATCH", "PATCH"),
	],
)
def test_redirects_change_the_method_as_browsers_do(echo, status, method, then):
	to = quote(echo.url(host="localhost"), safe="")
	request(method, echo.url(f"/redirect?status={status}&to={to}"), max_bytes=10_000, allow=LOCAL, json={"a": 1})
	seen = echo.seen[-1]
	assert seen.method == then
	assert (seen.body, "content-type" in seen.headers) == ((b'{"a":1}', True) if then == method else (b"", False))


def test_a_body_without_a_length_is_cut_off_at_the_cap(echo):
	assert len(request("GET", echo.url("/big?size=4000"), max_bytes=4000, allow=LOCAL).body) == 4000
	with pytest.raises(SafeHTTPError, match=r"is larger than 4,000 bytes, the most Huf reads") as error:
		request("GET", echo.url("/big?size=5000000"), max_bytes=4000, allow=LOCAL)
	assert error.value.kind == "too_large"


def test_an_sse_stream_is_read_as_it_comes_through_the_async_client(echo):
	"""The server holds its second event until the client has read the first: a client that
	buffered the body would wait until the server gave up (``waited`` False)."""
	echo.go_on.clear()

	async def read_events() -> list[str]:
		lines = []
		async with async_client(LOCAL) as http, http.stream("GET", echo.url("/events")) as answer:
			async for line in answer.aiter_lines():
				if line:
					lines.append(line)
					echo.go_on.set()
		return lines

	assert anyio.run(read_events) == ["data: one", "data: two"]
	assert echo.waited is True


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
	"""A test CA and a certificate it signed for localhost and secure.test (openssl's command line)."""
	if shutil.which("openssl") is None:
		pytest.skip("openssl is not installed")
	folder = tmp_path_factory.mktemp("tls")

	def openssl(*args):
		subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

	key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
	openssl("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Huf Test CA")
	openssl("req", *key, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=secure.test")
	(folder / "san.ext").write_text("subjectAltName=DNS:secure.test,DNS:localhost\n")
	openssl(*"x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 2 -extfile san.ext".split())
	return folder


def test_https_to_the_pinned_address_verifies_the_certificate_for_the_host_name(certificates, monkeypatch):
	trusted = ssl.create_default_context(cafile=str(certificates / "ca.pem"))
	real_lookup = socket.getaddrinfo
	names = {"secure.test", "other.test"}
	monkeypatch.setattr(
		socket, "getaddrinfo", lambda host, port, *a, **k: real_lookup("127.0.0.1" if host in names else host, port, *a, **k)
	)
	allow = frozenset({"secure.test", "other.test", "localhost"})
	with LocalServer(tls=(str(certificates / "leaf.pem"), str(certificates / "leaf.key"))) as tls:
		answer = request("GET", tls.url(host="secure.test"), max_bytes=10_000, allow=allow, verify=trusted)
		assert answer.status == 200 and tls.sni == ["secure.test"]
		assert _echoed(answer)["headers"]["host"] == f"secure.test:{tls.port}"
		with pytest.raises(SafeHTTPError, match="could not be reached securely") as error:
			request("GET", tls.url(host="other.test"), max_bytes=10_000, allow=allow, verify=trusted)
		assert error.value.kind == "tls" and tls.sni[-1] == "other.test"
		with pytest.raises(SafeHTTPError, match="could not be reached securely"):
			request("GET", tls.url(host="localhost"), max_bytes=10_000, allow=allow)  # the system's CAs do not know ours
		with client(allow, verify=trusted) as http:
			assert http.get(tls.url(host="localhost")).status_code == 200 and tls.sni[-1] == "localhost"
