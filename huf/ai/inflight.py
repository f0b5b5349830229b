"""Work in flight: which process holds a flow run's step or a conversation's runs, so that a live
worker notices a dead one's work within seconds and hands it on.

While a job holds a run's lock it keeps an entry in one bench-wide Redis hash (``huf:inflight`` in
the cache Redis; every site of the bench shares it): the field ``<site>|<kind>|<name>``, the value
who holds it (machine, process id and start time, the lock's key and token). The job deletes the
entry when it lets go: two Redis commands per held lock.

Every worker process runs a ``Watcher`` thread (Frappe's ``bench worker`` and ``worker-pool`` main
processes through ``huf/commands``, ``bench huf-worker``). Once a second it reads the hash; an entry
whose holder is gone is claimed and its recovery job queued on the entry's site:
- on this machine, the holder is gone when its process is (or is a zombie, or is another process
  that took its pid): seconds after a SIGKILL;
- on another machine, when the lock it held has expired (``huf_lock_ttl``, 30 s by default).
A claim is one Lua script: the entry (and the dead holder's lock, if it still holds its token) is
deleted only if the entry is unchanged, so of two watchers only one claims it, and its recovery
job is queued once. A worker that starts checks at once, so work left when every worker of a
machine died is picked up as soon as one starts again. The minute sweep stays the backstop.

Recovery jobs (``RECOVER``): a flow run's current hop (``huf.ai.flow.runs.recover``), a
conversation's runs (``huf.ai.resume.recover_conversation``). Both decide by what was committed
and by the work's effect (``engine/effects.py``) whether to repeat it."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from contextlib import contextmanager

import frappe

INFLIGHT = "huf:inflight"
INTERVAL = 1.0  # seconds between a watcher's looks
RECOVER = {
	"flow": ("huf.ai.flow.runs.recover", lambda name, entry: {"flow_run": name}),
	"conversation": ("huf.ai.resume.recover_conversation", lambda name, entry: {"conversation": name}),
}
CLAIM = """
if redis.call('hget', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('hdel', KEYS[1], ARGV[1])
if ARGV[3] ~= '' and redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end
return 1
"""


def machine() -> str:
	"""This machine (and boot): process ids are compared only between entries of the same one."""
	try:
		with open("/proc/sys/kernel/random/boot_id") as boot:
			return f"{socket.gethostname()}:{boot.read().strip()}"
	except OSError:
		return socket.gethostname()


_MACHINE = machine()
_born: dict[int, float] = {}


def born(pid: int | None = None) -> float:
	"""A process's start time (its identity together with its pid); this process's, cached."""
	import psutil

	pid = pid or os.getpid()
	if pid not in _born:
		_born.clear()  # a fork: the cache belonged to the parent
		_born[pid] = psutil.Process(pid).create_time()
	return _born[pid]


@contextmanager
def held(kind: str, name: str, lock, **extra):
	"""Keep an entry for ``name`` while the block runs under ``lock`` (a redis-py Lock, held)."""
	field = f"{frappe.local.site}|{kind}|{name}"
	token = lock.local.token
	entry = {
		"machine": _MACHINE, "pid": os.getpid(), "born": born(), "lock": _text(lock.name),
		"token": _text(token) if token else "", **extra,
	}  # fmt: skip
	frappe.cache.execute_command("HSET", INFLIGHT, field, json.dumps(entry))
	try:
		yield
	finally:
		frappe.cache.execute_command("HDEL", INFLIGHT, field)


def _text(value) -> str:
	return value.decode() if isinstance(value, bytes) else str(value)


def holder_gone(entry: dict, store) -> bool:
	"""Whether the process that wrote ``entry`` no longer holds its work."""
	if entry.get("machine") != _MACHINE:
		return not store.exists(entry.get("lock") or "")
	import psutil

	try:
		process = psutil.Process(int(entry["pid"]))
		return process.status() == psutil.STATUS_ZOMBIE or abs(process.create_time() - float(entry["born"])) > 0.01
	except (psutil.NoSuchProcess, KeyError, ValueError):
		return True


class Watcher:
	"""Looks for work whose holder died and hands it on. ``store``: the cache Redis; ``enqueue(site,
	method, kwargs, job_id)``: puts a job on the ``long`` queue of that site; ``key``: the hash."""

	def __init__(self, store, enqueue, key: str = INFLIGHT):
		self.store, self.enqueue, self.key = store, enqueue, key
		self.claim = store.register_script(CLAIM)

	def look(self) -> list[str]:
		"""One look; returns the fields it claimed."""
		claimed = []
		for field, value in (self.store.hgetall(self.key) or {}).items():
			field, value = _text(field), _text(value)
			try:
				entry = json.loads(value)
				site, kind, name = field.split("|", 2)
			except ValueError:
				self.store.hdel(self.key, field)  # not ours to read: nobody can recover it
				continue
			if kind not in RECOVER or not holder_gone(entry, self.store):
				continue
			if not self.claim(keys=[self.key, entry.get("lock") or ""], args=[field, value, entry.get("token") or ""]):
				continue  # another watcher claimed it, or the holder wrote again
			method, kwargs = RECOVER[kind]
			self.enqueue(site, method, kwargs(name, entry), f"huf-recover:{kind}:{name}:{time.time():.3f}")
			claimed.append(field)
		return claimed

	def run(self, stop: threading.Event) -> None:
		while True:
			try:
				self.look()
			except Exception:  # noqa: BLE001 - Redis away for a moment: look again next time
				pass
			if stop.wait(INTERVAL):
				return


def start_watcher() -> threading.Event:
	"""Start this process's watcher thread (daemon); set the returned event to stop it. Reads the
	bench's Redis settings (common_site_config.json) first, in the calling thread."""
	import redis
	from frappe.utils import get_bench_id

	with frappe.init_site():
		conf, bench = frappe.get_conf(), get_bench_id()
	store, queue_redis = redis.Redis.from_url(conf.redis_cache), redis.Redis.from_url(conf.redis_queue)
	stop = threading.Event()
	watcher = Watcher(store, job_sender(queue_redis, bench))
	threading.Thread(target=watcher.run, args=(stop,), name="huf-inflight-watcher", daemon=True).start()
	return stop


def job_sender(connection, bench: str):
	"""An ``enqueue`` for the watcher: a job as ``frappe.enqueue`` makes it, without a site loaded."""
	from frappe.utils.background_jobs import execute_job
	from rq import Queue

	queue = Queue(f"{bench}:long", connection=connection)

	def enqueue(site: str, method: str, kwargs: dict, job_id: str) -> None:
		queue.enqueue_call(
			execute_job, timeout=1500, job_id=f"{site}::{job_id}",
			kwargs={"site": site, "user": "Administrator", "method": method, "event": None, "job_name": method, "is_async": True, "kwargs": kwargs},
		)  # fmt: skip

	return enqueue
