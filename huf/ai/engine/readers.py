"""Threads that read model streams (``feed.py``), kept from one call to the next.

A thread started per call and left to end cost about 1 ms of each short model round here, far more
than its own start-up (benchmarks/model_round.py: a new thread against one kept, same work). A
reader kept from an earlier call takes the next stream at once. It waits ``IDLE`` seconds for one,
then ends, so a burst of parallel calls leaves no threads behind for long. Its name says what it
does: "huf-model-stream" while it reads, "huf-model-stream-idle" while it waits (tests count the
readers still reading). Each job runs in an empty ``contextvars`` context, as in a new thread, so
nothing one call sets is seen by the next. A forked child (an RQ job) starts with no readers: the
parent's threads are not in it.
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
from typing import Callable

READING, WAITING = "huf-model-stream", "huf-model-stream-idle"
IDLE = 60.0  # seconds a reader waits for its next stream before it ends

_idle: list["_Reader"] = []
_lock = threading.Lock()


def run(job: Callable[[], None]) -> None:
	"""Run ``job`` in a reader thread: a waiting one, or a new one when all are busy."""
	with _lock:
		reader = _idle.pop() if _idle else None
	if reader is None:
		reader = _Reader()
		reader.start()
	reader.jobs.put(job)


class _Reader(threading.Thread):
	def __init__(self):
		super().__init__(name=READING, daemon=True)
		self.jobs: queue.SimpleQueue = queue.SimpleQueue()

	def run(self) -> None:
		while True:
			try:
				job = self.jobs.get(timeout=IDLE)
			except queue.Empty:
				with _lock:
					if self in _idle:  # nobody took it meanwhile: end
						_idle.remove(self)
						return
				continue  # taken just now: its job is on the way
			self.name = READING
			try:
				contextvars.Context().run(job)
			except BaseException:  # noqa: BLE001 - a job reports its own failures; the reader lives on
				pass
			del job  # the finished call's stream and queue are not kept alive while this waits
			self.name = WAITING
			with _lock:
				_idle.append(self)


def _forget() -> None:
	"""In a forked child: the parent's readers do not exist here, and the lock may have been held."""
	global _lock
	_lock = threading.Lock()
	_idle.clear()


if hasattr(os, "register_at_fork"):
	os.register_at_fork(after_in_child=_forget)
