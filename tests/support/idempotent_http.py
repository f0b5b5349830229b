"""A local HTTP receiver that honours ``Idempotency-Key`` as a payment API does: the first request
with a key is applied (after ``work`` seconds, so a client can die while it waits), a later one
with the same key gets the first answer back without being applied again, and one that arrives
while the first is still being worked on waits for it. Stdlib only; 127.0.0.1 on a free port.

``POST /apply`` with a JSON body: ``received`` lists every request's key, ``applied`` maps each
key to the body applied. A request without a key is refused (400)."""

from __future__ import annotations

import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class IdempotentReceiver:
	def __init__(self, work: tuple[float, float] = (0.02, 0.15)):
		self.work = work
		self.received: list[str] = []
		self.applied: dict[str, dict] = {}
		self.answers: dict[str, bytes] = {}
		self.guard = threading.Lock()
		self.key_locks: dict[str, threading.Lock] = {}
		self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
		self.server.daemon_threads = True
		self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

	def url(self, path: str = "/apply") -> str:
		return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

	def __enter__(self) -> IdempotentReceiver:
		self.thread.start()
		return self

	def __exit__(self, *exc) -> None:
		self.server.shutdown()
		self.server.server_close()

	def apply(self, key: str, body: dict) -> bytes:
		with self.guard:
			self.received.append(key)
			lock = self.key_locks.setdefault(key, threading.Lock())
		with lock:  # a repeat that comes while the first is being applied waits for it
			if key in self.answers:
				return self.answers[key]
			time.sleep(random.uniform(*self.work))
			answer = json.dumps({"applied": body, "key": key}).encode()
			self.applied[key] = body
			self.answers[key] = answer
			return answer


def _handler(receiver: IdempotentReceiver) -> type[BaseHTTPRequestHandler]:
	class Handler(BaseHTTPRequestHandler):
		protocol_version = "HTTP/1.1"

		def log_message(self, *args) -> None:
			pass

		def do_POST(self) -> None:
			body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
			key = self.headers.get("Idempotency-Key")
			answer, status = (receiver.apply(key, body), 200) if key else (b'{"error": "Idempotency-Key missing"}', 400)
			self.send_response(status)
			self.send_header("Content-Type", "application/json")
			self.send_header("Content-Length", str(len(answer)))
			self.end_headers()
			self.wfile.write(answer)

	return Handler
