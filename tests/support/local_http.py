"""A real local HTTP(S) server that records what it receives, for the outbound client's tests and
benchmarks (stdlib only).

Paths: ``/redirect?status=302&to=<url>`` answers a redirect; ``/reply?status=404&type=text/plain&body=...``
answers that (the body percent-encoded byte by byte); ``/big?size=n`` sends n bytes with no
Content-Length (the end is the connection closing); ``/events`` sends two server-sent events, the
second only after ``server.go_on`` is set (``server.waited`` says whether the client asked in time);
``/sleep?seconds=n`` answers an echo after n seconds, or as soon as ``server.go_on`` is set;
anything else echoes the request as JSON (method, path, headers, body). Every request is recorded
in ``server.seen``.

	with LocalServer() as server:                      # http://127.0.0.1:<port>
		server.url("/echo", host="localhost")
	with LocalServer(tls=(cert_file, key_file)) as s:  # https; ``s.sni`` lists the names asked for
"""

from __future__ import annotations

import http.server
import json
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True)
class Seen:
	method: str
	path: str
	headers: dict[str, str]
	body: bytes


class _Handler(http.server.BaseHTTPRequestHandler):
	protocol_version = "HTTP/1.1"
	disable_nagle_algorithm = True  # headers and body go out as two writes; no 40 ms delayed-ACK stall on keep-alive

	def log_message(self, *args):
		pass

	def _any(self):
		length = int(self.headers.get("Content-Length") or 0)
		body = self.rfile.read(length) if length else b""
		headers = {k.lower(): v for k, v in self.headers.items()}
		self.server.owner.seen.append(Seen(self.command, self.path, headers, body))
		parts = urlsplit(self.path)
		query = dict(parse_qsl(parts.query))
		if parts.path == "/redirect":
			return self._reply(int(query.get("status", 302)), b"", Location=query["to"])
		if parts.path == "/reply":
			content = dict(parse_qsl(parts.query, encoding="latin-1")).get("body", "").encode("latin-1")
			return self._reply(int(query.get("status", 200)), content, **{"Content-Type": query.get("type", "text/plain")})
		if parts.path == "/big":
			self.send_response(200)
			self.send_header("Connection", "close")
			self.end_headers()
			self.close_connection = True
			try:
				self.wfile.write(b"x" * int(query["size"]))
			except OSError:
				pass  # the client hung up
			return None
		if parts.path == "/events":
			return self._events()
		if parts.path == "/sleep":
			self.server.owner.go_on.wait(float(query.get("seconds", 10)))
		echo = {"method": self.command, "path": self.path, "headers": headers, "body": body.decode("latin-1")}
		return self._reply(200, json.dumps(echo).encode(), **{"Content-Type": "application/json"})

	do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _any

	def _reply(self, status: int, body: bytes, **headers: str) -> None:
		self.send_response(status)
		for name, value in headers.items():
			self.send_header(name, value)
		self.send_header("Content-Length", str(len(body)))
		self.end_headers()
		if self.command != "HEAD":
			self.wfile.write(body)

	def _events(self) -> None:
		self.send_response(200)
		self.send_header("Content-Type", "text/event-stream")
		self.send_header("Transfer-Encoding", "chunked")
		self.end_headers()
		owner = self.server.owner
		for n, event in enumerate((b"data: one\n\n", b"data: two\n\n")):
			if n:
				owner.waited = owner.go_on.wait(5)
			self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
			self.wfile.flush()
		self.wfile.write(b"0\r\n\r\n")


class LocalServer:
	def __init__(self, tls: tuple[str, str] | None = None):
		self.seen: list[Seen] = []
		self.sni: list[str | None] = []
		self.go_on, self.waited = threading.Event(), None
		self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
		self.httpd.daemon_threads = True
		self.httpd.owner = self
		self.port = self.httpd.server_address[1]
		self.scheme = "https" if tls else "http"
		if tls:
			context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
			context.load_cert_chain(*tls)
			context.sni_callback = lambda _sock, name, _context: self.sni.append(name)
			self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)

	def url(self, path: str = "/echo", host: str = "127.0.0.1") -> str:
		return f"{self.scheme}://{host}:{self.port}{path}"

	def __enter__(self) -> LocalServer:
		threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
		return self

	def __exit__(self, *exc) -> None:
		self.httpd.shutdown()
		self.httpd.server_close()
