"""Fetch a URL that a person or a model chose, without letting it reach inside the network.

Every host is resolved once and every address it resolves to must be public (not loopback,
private, link-local such as the cloud metadata address 169.254.169.254, carrier-grade NAT,
unique-local, multicast or reserved, also when wrapped in an IPv6 form). The connection then goes
to that same address, so a second DNS answer cannot swap it; HTTPS still checks the certificate
for the host name. Redirects are followed by hand and each target is checked again. Size and time
are capped: ``timeout`` per read, and ``deadline`` for the whole fetch, so a server that sends a
byte every few seconds (no read ever times out) is still cut off. An administrator can allow named
hosts ("host" or "host:port")."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from huf.ai.engine.knowledge.types import KnowledgeError

REDIRECTS = {301, 302, 303, 307, 308}
ALLOW_HINT = "An administrator can allow a host with huf_allowed_hosts in site_config.json."
USER_AGENT = "Huf/1 (+knowledge fetcher)"
DEADLINE = 120.0  # seconds a whole fetch may take: redirects, headers and body


class GuardError(KnowledgeError):
	"""A URL that was refused or could not be fetched; the message says which and why."""


@dataclass(frozen=True)
class Response:
	url: str
	status: int
	headers: dict[str, str]
	body: bytes

	@property
	def content_type(self) -> str:
		return self.headers.get("content-type", "").split(";")[0].strip().lower()


def is_public(ip: str) -> bool:
	address = ipaddress.ip_address(ip.split("%")[0])
	if isinstance(address, ipaddress.IPv6Address):
		inner = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
		if inner is not None:
			return is_public(str(inner))
		if address in ipaddress.ip_network("64:ff9b::/96"):  # NAT64 of an IPv4 address
			return is_public(str(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
	if address.version == 4 and address in ipaddress.ip_network("100.64.0.0/10"):
		return False
	return address.is_global and not (address.is_multicast or address.is_reserved or address.is_unspecified)


def _target(url: str, allow: frozenset[str], start: str) -> tuple[str, str, int, str]:
	"""(scheme, host, port, ip to connect to), or why not; ``start`` is the address first asked for."""
	said = start if url == start else f"{start} redirects to {url}, which"
	parts = urlsplit(url)
	if parts.scheme not in ("http", "https") or not parts.hostname:
		raise GuardError(f"{said} is not a web address; use one that starts with http:// or https://.")
	host = parts.hostname
	port = parts.port or (443 if parts.scheme == "https" else 80)
	try:
		ips, refused = resolve(host, port, allow)
	except socket.gaierror:
		raise GuardError(f"{said} could not be reached: the host {host} was not found.") from None
	if refused:
		raise GuardError(f"{said} points to {refused[0]}, a private address; Huf only fetches public web addresses. {ALLOW_HINT}")
	return parts.scheme, host, port, ips[0]


def resolve(host: str, port: int, allow: frozenset[str]) -> tuple[list[str], list[str]]:
	"""(every address ``host`` resolves to, the ones Huf may not reach): the non-public ones, unless
	``allow`` names the host ("host" or "host:port"). socket.gaierror when the host is not found."""
	found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
	ips = list(dict.fromkeys(info[4][0] for info in found))
	if host in allow or f"{host}:{port}" in allow:
		return ips, []
	return ips, [ip for ip in ips if not is_public(ip)]


class _Pinned(http.client.HTTPConnection):
	def __init__(self, host: str, port: int, ip: str, timeout: float):
		super().__init__(host, port, timeout=timeout)
		self.ip = ip

	def connect(self) -> None:
		self.sock = socket.create_connection((self.ip, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
	def __init__(self, host: str, port: int, ip: str, timeout: float):
		super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
		self.ip = ip

	def connect(self) -> None:
		raw = socket.create_connection((self.ip, self.port), self.timeout)
		self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


def fetch(
	url: str,
	*,
	max_bytes: int,
	timeout: float = 20,
	deadline: float = DEADLINE,
	allow: frozenset[str] = frozenset(),
	max_redirects: int = 5,
) -> Response:
	"""GET ``url`` (following up to ``max_redirects`` redirects, each checked) and return the body.
	``timeout``: seconds the server may stay silent; ``deadline``: seconds the whole fetch may take."""
	ends = time.monotonic() + deadline
	too_slow = GuardError(f"{url} took longer than {deadline:g} seconds to send its page, the longest Huf waits for a web address.")
	current = url
	for _hop in range(max_redirects + 1):
		scheme, host, port, ip = _target(current, allow, url)
		left = ends - time.monotonic()
		if left <= 0:
			raise too_slow
		connection = (_PinnedTLS if scheme == "https" else _Pinned)(host, port, ip, min(timeout, left))
		watchdog = _Watchdog(connection, left)
		try:
			parts = urlsplit(current)
			path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
			connection.request("GET", path, headers={"User-Agent": USER_AGENT, "Accept": "*/*"})
			watchdog.check()  # connected: from here on the watchdog can reach the socket
			answer = connection.getresponse()
			headers = {k.lower(): v for k, v in answer.getheaders()}
			if answer.status in REDIRECTS and headers.get("location"):
				current = urljoin(current, headers["location"])
				continue
			if not 200 <= answer.status < 300:
				raise GuardError(f"{url} answered with HTTP {answer.status}; check the address.")
			body = _read(answer, url, max_bytes)
			watchdog.check()  # a body cut short by the watchdog is not a whole page
			return Response(current, answer.status, headers, body)
		except _TimeUp:
			raise too_slow from None
		except (OSError, http.client.HTTPException) as error:
			if watchdog.expired.is_set():
				raise too_slow from None
			if isinstance(error, TimeoutError):
				raise GuardError(f"{url} did not answer within {timeout:g} seconds.") from None
			raise GuardError(f"{url} could not be reached ({type(error).__name__}: {error}).") from None
		finally:
			watchdog.cancel()
			connection.close()
	raise GuardError(f"{url} redirects more than {max_redirects} times.")


class _TimeUp(Exception):
	pass


class _Watchdog:
	"""Shuts the connection's socket down when the fetch's time is up, which wakes a read that a
	trickling server keeps alive; ``expired`` tells the fetch why its read ended."""

	def __init__(self, connection: http.client.HTTPConnection, seconds: float):
		self.connection = connection
		self.expired = threading.Event()
		self.timer = threading.Timer(seconds, self._fire)
		self.timer.daemon = True
		self.timer.start()

	def _fire(self) -> None:
		self.expired.set()
		sock = self.connection.sock
		if sock is not None:
			try:
				socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain method, also on a TLS socket
			except OSError:
				pass

	def check(self) -> None:
		if self.expired.is_set():
			raise _TimeUp

	def cancel(self) -> None:
		self.timer.cancel()


def _read(answer, url: str, max_bytes: int) -> bytes:
	declared = int(answer.headers.get("content-length") or 0)
	if declared > max_bytes:
		raise GuardError(f"{url} is larger than {max_bytes / 1024 / 1024:.0f} MB, the most Huf reads from a web address.")
	body = answer.read(max_bytes + 1)
	if len(body) > max_bytes:
		raise GuardError(f"{url} is larger than {max_bytes / 1024 / 1024:.0f} MB, the most Huf reads from a web address.")
	return body
