"""The SSRF guard against real local servers: private addresses refused (also behind a redirect),
allowed hosts fetched, size and time capped; and web addresses read as documents."""

from __future__ import annotations

import http.server
import threading
import time

import pytest

from huf.ai.engine.safe_http import SafeHTTPError, is_public, request, resolve
from huf.ai.engine.knowledge.types import ExtractError
from huf.ai.engine.knowledge.urls import fetch_document
from tests.engine.test_knowledge_extract import pdf_pages

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
		if self.path == "/leak":
			self.send_response(302)
			self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
			self.end_headers()
			return
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


@pytest.mark.parametrize(
	"ip",
	[
		"127.0.0.1",
		"10.1.2.3",
		"172.16.0.1",
		"192.168.1.1",
		"169.254.169.254",
		"100.64.0.1",
		"0.0.0.0",
		"224.0.0.1",
		"::1",
		"::ffff:127.0.0.1",
		"::ffff:169.254.169.254",
		"fd00::1",
		"fe80::1",
		"64:ff9b::a9fe:a9fe",
		"2002:7f00:1::",
	],
)
def test_private_and_special_addresses_are_not_public(ip):
	assert not is_public(ip)


@pytest.mark.parametrize("ip", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_are(ip):
	assert is_public(ip)


def test_a_local_address_is_refused_unless_an_administrator_allows_it(server):
	with pytest.raises(
		SafeHTTPError,
		match=r"points to 127\.0\.0\.1, a private address; Huf only connects to public web addresses\. An administrator can allow",
	):
		request("GET", f"http://{server}/page", max_bytes=10_000)
	assert b"Open 9 to 5." in request("GET", f"http://{server}/page", max_bytes=10_000, allow=frozenset({server})).body
	assert request("GET", f"http://{server}/page", max_bytes=10_000, allow=frozenset({"127.0.0.1"})).status == 200


def test_resolve_says_which_addresses_are_refused_unless_the_host_is_allowed():
	assert resolve("127.0.0.1", 8080, frozenset()) == (["127.0.0.1"], ["127.0.0.1"])
	assert resolve("127.0.0.1", 8080, frozenset({"127.0.0.1"})) == (["127.0.0.1"], [])
	assert resolve("127.0.0.1", 8080, frozenset({"127.0.0.1:8080"})) == (["127.0.0.1"], [])
	assert resolve("127.0.0.1", 8081, frozenset({"127.0.0.1:8080"}))[1] == ["127.0.0.1"]
	assert resolve("1.1.1.1", 443, frozenset()) == (["1.1.1.1"], [])


def test_a_redirect_to_a_private_address_is_refused_and_never_followed(server):
	with pytest.raises(SafeHTTPError) as error:
		request("GET", f"http://{server}/leak", max_bytes=10_000, allow=frozenset({server}))
	message = str(error.value)
	assert message.startswith(
		f"http://{server}/leak redirects to http://169.254.169.254/latest/meta-data/, which points to 169.254.169.254"
	)
	assert "private address" in message


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
