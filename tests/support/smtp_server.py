"""A real local SMTP server (aiosmtpd) that keeps every message it receives, for the email
integration's tests.

	with LocalSMTP() as smtp:          # 127.0.0.1:<smtp.port>, no authentication, no TLS
		...
		smtp.wait_for(1)               # the parsed email.message.Message objects
"""

from __future__ import annotations

import email
import socket
import threading
import time
from email.message import Message

from aiosmtpd.controller import Controller


class _Keep:
	def __init__(self, owner: LocalSMTP):
		self.owner = owner

	async def handle_DATA(self, server, session, envelope):
		message = email.message_from_bytes(envelope.original_content or envelope.content)
		with self.owner.lock:
			self.owner.received.append((list(envelope.rcpt_tos), message))
		return "250 Message accepted for delivery"


class LocalSMTP:
	def __init__(self):
		self.received: list[tuple[list[str], Message]] = []
		self.lock = threading.Lock()
		with socket.socket() as probe:  # a free port, as the controller needs one up front
			probe.bind(("127.0.0.1", 0))
			self.port = probe.getsockname()[1]
		self.controller = Controller(_Keep(self), hostname="127.0.0.1", port=self.port)

	def __enter__(self) -> LocalSMTP:
		self.controller.start()
		return self

	def __exit__(self, *exc) -> None:
		self.controller.stop()

	def wait_for(self, count: int, timeout: float = 10.0) -> list[tuple[list[str], Message]]:
		deadline = time.monotonic() + timeout
		while time.monotonic() < deadline:
			with self.lock:
				if len(self.received) >= count:
					return list(self.received)
			time.sleep(0.05)
		raise AssertionError(f"the SMTP server received {len(self.received)} messages, not {count}, in {timeout}s")


def text_of(message: Message) -> str:
	"""The message's text parts, decoded, one after another."""
	parts = message.walk() if message.is_multipart() else [message]
	return "\n".join(
		part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8", "replace")
		for part in parts
		if part.get_content_maintype() == "text"
	)
