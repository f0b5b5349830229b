"""The one HTTP client for every request a person, an admin or a model can aim (SSRF-safe).

HTTP tools, MCP HTTP/SSE transports, knowledge URL inputs and the flow engine's ``http_request``
all go through here; nothing else in Huf opens outbound connections to such addresses.

Three ways in, one code path (``SafeTransport``, an httpx transport over an httpcore connection
pool whose network backend does the checking):

- ``request(method, url, *, allow, max_bytes, headers=, sensitive=, params=, json=, data=,
  content=, timeout=20, deadline=120, max_redirects=5) -> Response`` — one whole request, the body
  read into memory. ``Response(url, status, headers, body)``; ``url`` is the last hop's address,
  ``headers`` lower-case. Any status is returned (callers decide what 404 means).
- ``client(allow, headers=None, timeout=None, auth=None, *, sensitive=(), ...) -> httpx.Client``
- ``async_client(allow, headers=None, timeout=None, auth=None, *, sensitive=(), ...) -> httpx.AsyncClient``
  Ordinary httpx clients (streaming, keep-alive pooling, SSE all work). For the MCP SDK:
  ``streamablehttp_client(url, httpx_client_factory=functools.partial(async_client, allow, sensitive=names))``
  (same for ``sse_client``): the SDK calls it with ``headers=, timeout=, auth=``.

What every connection gets:

- The host is resolved once per new connection (``socket.getaddrinfo``); if ANY address it
  resolves to is not public, the request is refused — also when a public one comes first. The
  connection then goes to an address from that same answer, never a second lookup, so DNS
  rebinding cannot swap it. HTTPS verifies the certificate for the host name (SNI = host name).
- Not public: loopback, private, link-local (cloud metadata 169.254.169.254), CGNAT
  (100.100.100.200), unique-local (fd00:ec2::254), multicast, reserved, documentation, benchmark,
  unspecified, 6to4 and Teredo, IPv4-compatible ``::a.b.c.d``, local-use NAT64 ``64:ff9b:1::/48``;
  IPv4-mapped ``::ffff:a.b.c.d`` and well-known NAT64 ``64:ff9b::a.b.c.d`` are judged by the IPv4
  address inside; Azure's platform address 168.63.129.16. Numeric spellings (``2130706433``,
  ``0x7f.1``, ``127.1``) are whatever the resolver makes of them, and that address is checked.
- ``allow``: the hosts an administrator lets Huf reach although they are private ("host" or
  "host:port", matched on the name in the URL; ``huf.ai.outbound.allowed_hosts()`` reads them
  from ``huf_allowed_hosts`` in site_config.json). The engine never reads site config itself.
- Redirects are followed by the transport, never by httpx (a client's ``follow_redirects`` has no
  effect): at most ``max_redirects`` (5), every hop connects through the same check. When the
  origin (scheme, host, port) changes, Authorization, Cookie, Proxy-Authorization and the caller's
  ``sensitive`` header names (tool headers, API key headers) are dropped. 303 becomes GET (not
  HEAD), 301/302 turn POST into GET; 307/308 keep method and body. The final response's address is
  ``response.extensions["safe_http.url"]`` on httpx responses.
- Proxies from the environment are never used (``trust_env=False``); unix sockets are refused.
- ``request`` streams the body with a size cap (``max_bytes``: a bigger Content-Length is refused
  before reading, a longer body cut off), a per-read ``timeout``, and a ``deadline`` for the whole
  request (a watchdog shuts the socket down, so a server dripping one byte at a time is cut off).
  The httpx clients have httpx's timeouts; async callers put a total deadline around them with
  ``anyio.fail_after``.

Errors: ``SafeHTTPError`` (a ValueError; ``kind`` is one of ``invalid``, ``refused``,
``not_found``, ``timeout``, ``deadline``, ``too_large``, ``redirects``, ``tls``, ``unreachable``;
the message is a sentence a Desk user can act on). Refusals raise it from inside the httpx
clients too; ``explain(url, error, timeout)`` turns any httpx error into one, in words."""

from __future__ import annotations

import functools
import ipaddress
import socket
import ssl
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import anyio
import httpcore
import httpx

REDIRECTS = {301, 302, 303, 307, 308}
DROPPED_ACROSS_HOSTS = frozenset({"authorization", "cookie", "proxy-authorization"})
ALLOW_HINT = "An administrator can allow a host with huf_allowed_hosts in site_config.json."
DEADLINE = 120.0  # seconds a whole request() may take: redirects, headers and body
DEFAULT_HEADERS = {"User-Agent": "Huf/1", "Accept": "*/*", "Accept-Encoding": "identity"}
FINAL_URL = "safe_http.url"

_BLOCKED = [
	ipaddress.ip_network(net)
	for net in (
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "168.63.129.16/32",
		"::/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
		"fe80::/10", "fec0::/10", "ff00::/8",
	)
]  # fmt: skip
_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class SafeHTTPError(ValueError):
	"""A request that was refused or failed. ``str()`` is "<subject> <reason>"; ``kind`` says which."""

	def __init__(self, subject: str, reason: str, kind: str):
		super().__init__(f"{subject} {reason}")
		self.subject, self.reason, self.kind = subject, reason, kind

	def about(self, subject: str) -> SafeHTTPError:
		return SafeHTTPError(subject, self.reason, self.kind)


def is_public(ip: str) -> bool:
	address = ipaddress.ip_address(ip.split("%")[0])
	if isinstance(address, ipaddress.IPv6Address) and (address in _MAPPED or address in _NAT64):
		return is_public(str(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
	if any(address in net for net in _BLOCKED if net.version == address.version):
		return False
	return address.is_global and not (address.is_multicast or address.is_reserved or address.is_unspecified)


def resolve(host: str, port: int, allow: frozenset[str]) -> tuple[list[str], list[str]]:
	"""(every address ``host`` resolves to, the ones Huf may not reach): the non-public ones, unless
	``allow`` names the host ("host" or "host:port"). socket.gaierror when the host is not found."""
	found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
	ips = list(dict.fromkeys(info[4][0] for info in found))
	if _allowed(host, port, allow):
		return ips, []
	return ips, [ip for ip in ips if not is_public(ip)]


def _allowed(host: str, port: int, allow: frozenset[str]) -> bool:
	host = host.lower()
	return any(entry.lower() in (host, f"{host}:{port}") for entry in allow)


def checked_addresses(host: str, port: int, allow: frozenset[str]) -> list[str]:
	"""The addresses to connect to for ``host``, all checked; SafeHTTPError when any is refused."""
	try:
		ips, refused = resolve(host, port, allow)
	except (socket.gaierror, UnicodeError):
		raise SafeHTTPError(host, "could not be reached: the host was not found.", "not_found") from None
	if refused:
		raise SafeHTTPError(
			host, f"points to {refused[0]}, a private address; Huf only connects to public web addresses. {ALLOW_HINT}", "refused"
		)
	return ips


class _Backend(httpcore.NetworkBackend):
	"""Connects only to the checked addresses of a host; ``watch`` (request's deadline) sees each socket."""

	def __init__(self, allow: frozenset[str], watch: _Watchdog | None = None):
		self.allow, self.watch, self.inner = allow, watch, httpcore.SyncBackend()

	def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
		failure: Exception | None = None
		for ip in checked_addresses(host, port, self.allow):
			try:
				stream = self.inner.connect_tcp(ip, port, timeout, local_address, socket_options)
			except httpcore.ConnectError as error:  # the next checked address, as create_connection does
				failure = error
				continue
			return _Watched(stream, self.watch) if self.watch else stream
		raise failure or httpcore.ConnectError(f"{host} has no address")

	def connect_unix_socket(self, path, timeout=None, socket_options=None):
		raise SafeHTTPError(path, "is a local socket; Huf only connects to web addresses.", "refused")

	def sleep(self, seconds: float) -> None:
		self.inner.sleep(seconds)


class _AsyncBackend(httpcore.AsyncNetworkBackend):
	def __init__(self, allow: frozenset[str]):
		self.allow, self.inner = allow, httpcore.AnyIOBackend()

	async def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
		failure: Exception | None = None
		for ip in await anyio.to_thread.run_sync(checked_addresses, host, port, self.allow):
			try:
				return await self.inner.connect_tcp(ip, port, timeout, local_address, socket_options)
			except httpcore.ConnectError as error:
				failure = error
		raise failure or httpcore.ConnectError(f"{host} has no address")

	async def connect_unix_socket(self, path, timeout=None, socket_options=None):
		raise SafeHTTPError(path, "is a local socket; Huf only connects to web addresses.", "refused")

	async def sleep(self, seconds: float) -> None:
		await self.inner.sleep(seconds)


@functools.cache
def default_ssl_context() -> ssl.SSLContext:
	"""The system's certificate authorities (SSL_CERT_FILE/SSL_CERT_DIR apply), else certifi's."""
	context = ssl.create_default_context()
	if not context.cert_store_stats()["x509_ca"]:
		import certifi

		context.load_verify_locations(certifi.where())
	return context


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
	return url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80)


def next_hop(request: httpx.Request, response: httpx.Response, sensitive: frozenset[str]) -> httpx.Request | None:
	"""The request a redirect asks for (headers dropped across hosts, methods as browsers do), or None."""
	location = response.headers.get("location")
	if response.status_code not in REDIRECTS or not location:
		return None
	url = request.url.join(location)
	if url.scheme not in ("http", "https"):
		raise SafeHTTPError(f"{request.url} redirects to {url}, which", "is not a web address.", "invalid")
	method, status = request.method, response.status_code
	if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
		method = "GET"
	headers = httpx.Headers(request.headers)
	headers.pop("host", None)
	extensions = dict(request.extensions)
	if _origin(url) != _origin(request.url):
		for name in DROPPED_ACROSS_HOSTS | sensitive:
			headers.pop(name, None)
		extensions.pop("sni_hostname", None)
	content = None
	if method != request.method:
		for name in ("content-length", "transfer-encoding", "content-type"):
			headers.pop(name, None)
	elif isinstance(request.stream, httpx.ByteStream):
		content = b"".join(request.stream)
	else:
		raise SafeHTTPError(f"{request.url} redirects to {url}", "with a streamed body that cannot be sent again.", "redirects")
	return httpx.Request(method, url, headers=headers, content=content, extensions=extensions)


class _Redirects:
	"""Follows redirects for both transports: ``hops`` yields each request to send, with its subject."""

	def __init__(self, request: httpx.Request, sensitive: Iterable[str], max_redirects: int):
		self.start, self.request = str(request.url), request
		self.sensitive = frozenset(name.lower() for name in sensitive)
		self.max_redirects = max_redirects

	def subject(self, hop: int) -> str:
		return self.start if hop == 0 else f"{self.start} redirects to {self.request.url}, which"

	def follow(self, hop: int, response: httpx.Response) -> httpx.Request | None:
		following = next_hop(self.request, response, self.sensitive)
		if following is None:
			response.extensions[FINAL_URL] = str(self.request.url)
			return None
		if hop >= self.max_redirects:
			raise SafeHTTPError(self.start, f"redirects more than {self.max_redirects} times.", "redirects")
		self.request = following
		return following


def _pool_options(context: ssl.SSLContext, limits: httpx.Limits) -> dict:
	"""httpx's own pool settings, for the pools the two transports build around a checking backend."""
	return {
		"ssl_context": context,
		"max_connections": limits.max_connections,
		"max_keepalive_connections": limits.max_keepalive_connections,
		"keepalive_expiry": limits.keepalive_expiry,
	}


class SafeTransport(httpx.HTTPTransport):
	"""httpx's transport on a pool whose every connection goes to a checked address; follows redirects."""

	def __init__(
		self,
		allow: frozenset[str],
		*,
		sensitive: Iterable[str] = (),
		max_redirects: int = 5,
		verify: ssl.SSLContext | None = None,
		limits: httpx.Limits = httpx.Limits(max_connections=20, max_keepalive_connections=10),  # noqa: B008
		watch: _Watchdog | None = None,
	):
		context = verify or default_ssl_context()
		super().__init__(verify=context, trust_env=False, limits=limits)
		self._pool = httpcore.ConnectionPool(**_pool_options(context, limits), network_backend=_Backend(frozenset(allow), watch))
		self.sensitive, self.max_redirects = tuple(sensitive), max_redirects

	def handle_request(self, request: httpx.Request) -> httpx.Response:
		redirects = _Redirects(request, self.sensitive, self.max_redirects)
		for hop in range(self.max_redirects + 1):
			try:
				response = super().handle_request(redirects.request)
			except SafeHTTPError as error:
				raise error.about(redirects.subject(hop)) from None
			if redirects.follow(hop, response) is None:
				return response
			response.close()
		raise AssertionError("unreachable: follow() raises after max_redirects")


class AsyncSafeTransport(httpx.AsyncHTTPTransport):
	"""The async twin of SafeTransport (the same check, the same redirect rules)."""

	def __init__(
		self,
		allow: frozenset[str],
		*,
		sensitive: Iterable[str] = (),
		max_redirects: int = 5,
		verify: ssl.SSLContext | None = None,
		limits: httpx.Limits = httpx.Limits(max_connections=20, max_keepalive_connections=10),  # noqa: B008
	):
		context = verify or default_ssl_context()
		super().__init__(verify=context, trust_env=False, limits=limits)
		self._pool = httpcore.AsyncConnectionPool(**_pool_options(context, limits), network_backend=_AsyncBackend(frozenset(allow)))
		self.sensitive, self.max_redirects = tuple(sensitive), max_redirects

	async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
		redirects = _Redirects(request, self.sensitive, self.max_redirects)
		for hop in range(self.max_redirects + 1):
			try:
				response = await super().handle_async_request(redirects.request)
			except SafeHTTPError as error:
				raise error.about(redirects.subject(hop)) from None
			if redirects.follow(hop, response) is None:
				return response
			await response.aclose()
		raise AssertionError("unreachable: follow() raises after max_redirects")


def client(
	allow: frozenset[str],
	headers: dict[str, str] | None = None,
	timeout: httpx.Timeout | float | None = None,
	auth: httpx.Auth | None = None,
	*,
	sensitive: Iterable[str] = (),
	max_redirects: int = 5,
	verify: ssl.SSLContext | None = None,
) -> httpx.Client:
	"""An httpx.Client whose every connection and redirect goes through the check (see the module)."""
	transport = SafeTransport(allow, sensitive=sensitive, max_redirects=max_redirects, verify=verify)
	timeout = httpx.Timeout(30.0) if timeout is None else timeout
	return httpx.Client(transport=transport, headers=headers, timeout=timeout, auth=auth, trust_env=False)


def async_client(
	allow: frozenset[str],
	headers: dict[str, str] | None = None,
	timeout: httpx.Timeout | float | None = None,
	auth: httpx.Auth | None = None,
	*,
	sensitive: Iterable[str] = (),
	max_redirects: int = 5,
	verify: ssl.SSLContext | None = None,
) -> httpx.AsyncClient:
	"""An httpx.AsyncClient whose every connection and redirect goes through the check; fits the MCP
	SDK's ``httpx_client_factory(headers=, timeout=, auth=)`` once ``allow`` is bound."""
	transport = AsyncSafeTransport(allow, sensitive=sensitive, max_redirects=max_redirects, verify=verify)
	timeout = httpx.Timeout(30.0) if timeout is None else timeout
	return httpx.AsyncClient(transport=transport, headers=headers, timeout=timeout, auth=auth, trust_env=False)


def explain(url: str, error: BaseException, timeout: float | None = None) -> SafeHTTPError:
	"""Any failure of a request to ``url`` as a SafeHTTPError whose message says what happened."""
	if isinstance(error, SafeHTTPError):
		return error
	if isinstance(error, httpx.UnsupportedProtocol):
		return SafeHTTPError(url, "is not a web address; use one that starts with http:// or https://.", "invalid")
	if isinstance(error, httpx.InvalidURL):
		return SafeHTTPError(url, f"is not a valid web address ({error}); check it.", "invalid")
	if isinstance(error, (httpx.TimeoutException, TimeoutError)):
		within = f" within {timeout:g} seconds" if timeout else " in time"
		return SafeHTTPError(url, f"did not answer{within}.", "timeout")
	cause: BaseException | None = error
	while cause is not None and not isinstance(cause, ssl.SSLError):
		cause = cause.__cause__ or cause.__context__
	if cause is not None:
		reason = getattr(cause, "verify_message", None) or getattr(cause, "reason", None) or str(cause)
		return SafeHTTPError(url, f"could not be reached securely: its certificate was not accepted ({reason}).", "tls")
	return SafeHTTPError(url, f"could not be reached ({type(error).__name__}: {error}).", "unreachable")


@dataclass(frozen=True)
class Response:
	url: str  # the last hop's address
	status: int
	headers: dict[str, str]  # lower-case names
	body: bytes

	@property
	def content_type(self) -> str:
		return self.headers.get("content-type", "").split(";")[0].strip().lower()


def request(
	method: str,
	url: str,
	*,
	allow: frozenset[str] = frozenset(),
	max_bytes: int,
	headers: dict[str, str] | None = None,
	sensitive: Iterable[str] = (),
	params: dict | None = None,
	json: object = None,
	data: dict | None = None,
	content: bytes | None = None,
	timeout: float = 20.0,
	deadline: float = DEADLINE,
	max_redirects: int = 5,
	verify: ssl.SSLContext | None = None,
) -> Response:
	"""Send one request and read its whole body (at most ``max_bytes``). ``timeout``: seconds the
	server may stay silent; ``deadline``: seconds the whole request may take, redirects included."""
	parts = urlsplit(url)
	if parts.scheme not in ("http", "https") or not parts.hostname:
		raise SafeHTTPError(url, "is not a web address; use one that starts with http:// or https://.", "invalid")
	watch = _Watchdog(deadline)
	too_slow = SafeHTTPError(
		url, f"took longer than {deadline:g} seconds to answer, the longest Huf waits for a web address.", "deadline"
	)
	transport = SafeTransport(allow, sensitive=sensitive, max_redirects=max_redirects, verify=verify, watch=watch)
	try:
		with (
			httpx.Client(transport=transport, headers=DEFAULT_HEADERS, timeout=min(timeout, deadline), trust_env=False) as http,
			http.stream(method, url, headers=headers, params=params, json=json, data=data, content=content) as answer,
		):
			body = _read(answer, url, max_bytes)
			watch.check()  # a body cut short by the watchdog is not the whole body
			final = answer.extensions.get(FINAL_URL, url)
			return Response(final, answer.status_code, {k.lower(): v for k, v in answer.headers.items()}, body)
	except SafeHTTPError as error:
		raise (too_slow if error.kind == "deadline" else error) from None
	except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:
		raise (too_slow if watch.expired.is_set() else explain(url, error, timeout)) from None
	finally:
		watch.cancel()


def _read(answer: httpx.Response, url: str, max_bytes: int) -> bytes:
	too_large = SafeHTTPError(url, f"is larger than {_size(max_bytes)}, the most Huf reads from a web address.", "too_large")
	if int(answer.headers.get("content-length") or 0) > max_bytes:
		raise too_large
	chunks, size = [], 0
	for chunk in answer.iter_bytes():
		size += len(chunk)
		if size > max_bytes:
			raise too_large
		chunks.append(chunk)
	return b"".join(chunks)


def _size(count: int) -> str:
	return f"{count / 1024 / 1024:.0f} MB" if count >= 1024 * 1024 else f"{count:,} bytes"


class _Watchdog:
	"""Shuts down every socket of a request when its time is up, which wakes a read that a trickling
	server keeps alive; ``expired`` tells the request why its read ended."""

	def __init__(self, seconds: float):
		self.expired = threading.Event()
		self.streams: list[_Watched] = []
		self.timer = threading.Timer(seconds, self._fire)
		self.timer.daemon = True
		self.timer.start()

	def add(self, stream: _Watched) -> None:
		self.streams.append(stream)
		if self.expired.is_set():
			stream.shutdown()

	def _fire(self) -> None:
		self.expired.set()
		for stream in list(self.streams):
			stream.shutdown()

	def check(self) -> None:
		if self.expired.is_set():
			raise SafeHTTPError("", "", "deadline")

	def cancel(self) -> None:
		self.timer.cancel()


class _Watched(httpcore.NetworkStream):
	"""A connection's stream the watchdog can shut down, also after TLS has wrapped its socket."""

	def __init__(self, inner: httpcore.NetworkStream, watch: _Watchdog):
		self.inner = inner
		watch.add(self)

	def shutdown(self) -> None:
		sock = self.inner.get_extra_info("socket")
		if sock is not None:
			try:
				socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain method, also on a TLS socket
			except OSError:
				pass

	def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
		return self.inner.read(max_bytes, timeout)

	def write(self, buffer: bytes, timeout: float | None = None) -> None:
		self.inner.write(buffer, timeout)

	def close(self) -> None:
		self.inner.close()

	def start_tls(self, ssl_context, server_hostname=None, timeout=None):
		self.inner = self.inner.start_tls(ssl_context, server_hostname, timeout)
		return self

	def get_extra_info(self, info: str):
		return self.inner.get_extra_info(info)
