"""Waiting on a model without letting it decide how long: a provider's stream read in a thread of
its own, and a sleep that wakes when the run is stopped.

HTTP clients time out per socket read, so a provider that sends a byte now and then (or a model
that writes one chunk a second) holds a call for as long as it likes. ``Feed`` reads the stream in
a helper thread and hands chunks over through a small queue; the caller waits for each with the
call's total deadline and checks for a cancel while the provider is silent. All reading and
closing of the stream happens in the helper thread; when the caller gives up, ``stop`` also shuts
the connection's socket down (when it can find it), which wakes a read that is stuck. The helper is
a reader thread kept between calls (``readers.py``).
"""

from __future__ import annotations

import queue
import socket
import threading
import time
from typing import Any, Callable

from huf.ai.engine import readers

POLL = 0.25  # seconds between cancel checks while the provider is silent or a retry waits
BACKLOG = 256  # chunks read ahead of the caller at most
EAGER = 2  # first items handed over at once (see _handed_over)
HANDOVER = 0.005  # seconds the reader waits for the caller to take one of those


class Feed:
	"""``completion(**kwargs)`` (a streamed LiteLLM call) read in a helper thread."""

	def __init__(self, completion: Callable[..., Any], kwargs: dict):
		self.items: queue.Queue = queue.Queue(BACKLOG)
		self.stopped = threading.Event()
		self.stream: Any = None
		self.reading = True  # False once the stream has ended: its connection may be back in the pool
		self.handed = 0
		readers.run(lambda: self._pump(completion, kwargs))

	def next(self, deadline: float, should_cancel: Callable[[], bool] | None) -> tuple[str, Any]:
		"""The next ("chunk", chunk), ("end", finished), ("error", exception), or ("timeout", None)
		once ``deadline`` (a ``time.monotonic()`` value) passes, or ("cancel", None)."""
		while True:
			left = deadline - time.monotonic()
			if left <= 0:
				return "timeout", None
			try:
				return self.items.get(timeout=min(POLL, left))
			except queue.Empty:
				if should_cancel and should_cancel():
					return "cancel", None

	def stop(self) -> None:
		"""Stop reading: the helper hangs up at once if the socket can be reached, else at its next chunk.
		A stream that has ended is left alone: its connection may already serve another call."""
		if self.stopped.is_set():
			return
		self.stopped.set()
		if self.reading:
			_shut_down(self.stream)

	def _pump(self, completion: Callable[..., Any], kwargs: dict) -> None:
		try:
			self.stream = completion(**kwargs)
			for chunk in self.stream:
				if not self._hand(("chunk", chunk)):
					return
			self.reading = False
			# LiteLLM invents finish_reason "stop" when a stream just ends; its own record tells the truth.
			self._hand(("end", getattr(self.stream, "received_finish_reason", "") is not None))
		except BaseException as error:  # noqa: BLE001 - handed to the caller, who says what it means
			self.reading = False
			self._hand(("error", error))
		finally:
			if self.reading:  # the caller stopped listening before the stream ended
				close(self.stream)

	def _hand(self, item: tuple[str, Any]) -> bool:
		"""Queue ``item`` for the caller; False once the caller has stopped listening."""
		while not self.stopped.is_set():
			try:
				self.items.put(item, timeout=POLL)
				self.handed += 1
				if self.handed <= EAGER:
					self._handed_over()
				return True
			except queue.Full:
				continue
		return False

	def _handed_over(self) -> None:
		"""Wait until the caller has taken what was just queued (at most ``HANDOVER``). Otherwise this
		thread keeps the GIL for up to sys.getswitchinterval() (5 ms) while it parses the chunks already
		read, and the first words show that much later; ``time.sleep(0)`` gave it up, but took it back
		before the caller's thread was awake about as often as not. Only the first ``EAGER`` items:
		later ones go in the GIL's own batches, as a switch per chunk costs more than it saves (50-100 µs
		each here). Two: an OpenAI stream's role chunk, then its first words."""
		items = self.items
		with items.not_full:  # get() notifies it
			items.not_full.wait_for(lambda: not items._qsize() or self.stopped.is_set(), timeout=HANDOVER)


def close(stream: Any) -> None:
	"""Hang up on a stream so the provider stops generating (and billing)."""
	for target in (stream, getattr(stream, "completion_stream", None), getattr(stream, "response", None)):
		method = getattr(target, "close", None)
		if callable(method):
			try:
				method()
			except Exception:  # noqa: BLE001 - best effort; the call is ending anyway
				pass
			return


def _shut_down(stream: Any) -> None:
	"""Shut the stream's socket down from the caller's thread, which wakes a read blocked in the
	helper. Only the OpenAI-style path exposes it (httpx's ``network_stream``); otherwise the helper
	notices at its next chunk. ``shutdown`` (never ``close``) is safe while another thread reads."""
	response = getattr(getattr(stream, "completion_stream", None), "response", None)
	network = getattr(response, "extensions", {}).get("network_stream") if response is not None else None
	sock = network.get_extra_info("socket") if network is not None else None
	if isinstance(sock, socket.socket):
		try:
			socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain method, also on a TLS socket
		except OSError:
			pass


def pause(seconds: float, should_cancel: Callable[[], bool] | None) -> bool:
	"""Sleep ``seconds``, looking at ``should_cancel`` every ``POLL``; False as soon as it says stop."""
	until = time.monotonic() + seconds
	while (left := until - time.monotonic()) > 0:
		if should_cancel and should_cancel():
			return False
		time.sleep(min(POLL, left))
	return not (should_cancel and should_cancel())
