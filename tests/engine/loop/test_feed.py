"""The model stream's helper thread: what it does with the connection when the caller stops."""

import socket
import threading
import time

from huf.ai.engine.feed import Feed


class Network:
	"""What httpx puts in a response's extensions: the connection's socket on request."""

	def __init__(self, sock):
		self.sock = sock

	def get_extra_info(self, name):
		return self.sock if name == "socket" else None


class Stream:
	"""A LiteLLM-shaped stream over a real socket: one chunk per line the other end sends."""

	received_finish_reason = "stop"

	def __init__(self, sock):
		self.sock = sock
		self.completion_stream = type("Completion", (), {"response": type("Response", (), {"extensions": {"network_stream": Network(sock)}})()})()

	def __iter__(self):
		reader = self.sock.makefile("rb")
		while line := reader.readline():
			if line == b"end\n":
				return
			yield line.decode().strip()


def test_a_stream_that_ended_leaves_its_connection_alone_for_the_next_call():
	ours, theirs = socket.socketpair()
	theirs.sendall(b"hello\nend\n")
	feed = Feed(lambda: Stream(ours), {})
	assert feed.next(time.monotonic() + 5, None) == ("chunk", "hello")
	assert feed.next(time.monotonic() + 5, None) == ("end", True)
	feed.stop()
	ours.sendall(b"still open")  # a pooled keep-alive connection must not be shut down under the next call
	assert theirs.recv(100) == b"still open"


def test_stopping_mid_stream_hangs_up_at_once_even_while_the_read_waits():
	ours, theirs = socket.socketpair()
	theirs.sendall(b"first\n")
	feed = Feed(lambda: Stream(ours), {})
	assert feed.next(time.monotonic() + 5, None) == ("chunk", "first")
	assert feed.next(time.monotonic() + 0.3, None) == ("timeout", None)  # the provider is silent
	feed.stop()
	assert theirs.recv(100) == b""  # the other end sees the hang-up
	until = time.monotonic() + 3
	while any(thread.name == "huf-model-stream" for thread in threading.enumerate()) and time.monotonic() < until:
		time.sleep(0.02)
	assert not any(thread.name == "huf-model-stream" for thread in threading.enumerate())
