"""Local ports for servers the tests and benchmarks start: a free one, and waiting until one listens."""

from __future__ import annotations

import socket
import time


def free_port() -> int:
	with socket.socket() as sock:
		sock.bind(("127.0.0.1", 0))
		return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> bool:
	"""True once something accepts connections on 127.0.0.1:``port``; False after ``seconds``."""
	deadline = time.monotonic() + seconds
	while time.monotonic() < deadline:
		try:
			socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
			return True
		except OSError:
			time.sleep(0.1)
	return False
