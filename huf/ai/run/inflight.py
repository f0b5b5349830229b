"""Work in flight: which process holds a flow run's step or a conversation's runs, so that a live
worker notices a dead one's work within seconds and hands it on.

While a job holds a run's lock it keeps an entry in one bench-wide Redis hash (``huf:inflight`` in
the cache Redis; every site of the bench shares it): the field ``<site>|<kind>|<name>``, the value
who holds it (machine, process id and start time, the lock's key and token). The job deletes the
entry when it lets go: two round trips to Redis per held lock (a conversation's drainer sends its own
commands with both, so they cost it none). Its heartbeat thread (``runs.Beat``)
keeps a pulse key beside the entry, renewed every ``PULSE_EVERY`` seconds, lasting ``PULSE_TTL``.

A job is tracked from the moment it is queued, too: ``enqueue`` writes a mark for it (in the hash
``huf:queued``, field the RQ job id) just before RQ gets it, and ``held`` deletes the mark when the
job takes its lock. A mark whose job ended without taking the lock (its work horse killed while it
was starting; RQ says failed), or whose job's worker died while starting it (RQ says started, and
the worker's process is gone), is claimed the same way and its recovery queued. A mark whose job
finished without the lock (it found another holder) is just deleted. Recovery jobs are marked too;
after ``MAX_TRIES`` lost attempts in a row the minute sweep takes over.

Every worker process runs a ``Watcher`` thread (Frappe's ``bench worker`` and ``worker-pool`` main
processes through ``huf/commands``, ``bench huf-worker``). Once a second it reads the hash; an entry
whose holder is gone is claimed and its recovery job queued on the entry's site:
- on this machine, the holder is gone when its process is (or is a zombie, or is another process
  that took its pid): seconds after a SIGKILL;
- on another machine, when its pulse stopped (``PULSE_TTL``, 10 s after the last beat) or the lock
  it held has expired (``huf_lock_ttl``, 30 s by default).
A claim is one Lua script: the entry (or mark) (and the dead holder's lock, if it still holds its token) is
deleted only if the entry is unchanged, so of two watchers only one claims it, and its recovery
job is queued once. A worker that starts checks at once, so work left when every worker of a
machine died is picked up as soon as one starts again. The minute sweep stays the backstop.

Recovery jobs (``RECOVER``): a flow run's current hop (``huf.ai.flow.runs.recover``), a
conversation's runs (``huf.ai.run.resume.recover_conversation``). Both decide by what was committed
and by the work's effect (``engine/effects.py``) whether to repeat it."""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from contextlib import contextmanager

import frappe

INFLIGHT = "huf:inflight"
QUEUED = "huf:queued"
INTERVAL = 1.0  # seconds between a watcher's looks
GRACE = 10.0  # seconds a mark may name a job RQ does not have yet (it is being queued)
LIMBO = 3.0  # seconds a job may be out of its queue yet not started (a worker is forking for it)
LIMBO_SCANS, LIMBO_QUEUE = 20, 2000  # per look, queues searched for a queued job, and their longest
MAX_TRIES = 3  # recovery jobs lost in a row before only the minute sweep looks
PULSE_EVERY, PULSE_TTL = 2, 10  # seconds: a holder's pulse, and how long it lasts without a beat
RECOVER = {
	"flow": ("huf.ai.flow.runs.recover", lambda name: {"flow_run": name}),
	"conversation": ("huf.ai.run.resume.recover_conversation", lambda name: {"conversation": name}),
}
CLAIM = """
if redis.call('hget', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('hdel', KEYS[1], ARGV[1])
if ARGV[3] ~= '' and redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end
return 1
"""
FORGET = """
if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then
	redis.call('hdel', KEYS[1], ARGV[1])
	if KEYS[2] ~= '' then redis.call('del', KEYS[2]) end
end
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


def enqueue(kind: str, name: str, method: str, job_id: str, **kwargs) -> None:
	"""``frappe.enqueue`` on the long queue after the commit, the job marked just before RQ gets it
	(after-commit callbacks run in order). ``job_id`` without the site (Frappe adds it)."""
	marked = f"{frappe.local.site}::{job_id}"
	field = f"{frappe.local.site}|{kind}|{name}"
	frappe.db.after_commit.add(lambda: _write_mark(marked, field))
	frappe.enqueue(method, queue="long", job_id=job_id, enqueue_after_commit=True, **kwargs)


def _write_mark(job: str, field: str) -> None:
	try:
		frappe.cache.execute_command("HSET", QUEUED, job, mark(field))
	except Exception:  # noqa: BLE001 - without its mark the job still runs; only the minute sweep would see it lost
		frappe.logger("huf").exception("a queued job was not marked: %s", job)


def mark(field: str, tries: int = 0) -> str:
	return json.dumps({"field": field, "at": time.time(), "tries": tries})


class Holding:
	"""What ``held`` yields: ``extra``, the replies to the holder's own commands (``also``), and, for
	a holder that lets go in a round trip of its own, ``forget(pipe)``, the entry's deletion as a
	command of that pipeline."""

	def __init__(self, field: str, entry: str, pulse: str, extra: list):
		self.field, self.entry, self.pulse, self.extra = field, entry, pulse, extra

	def forget(self, pipe) -> None:
		"""Delete the entry (and its pulse) if it is still this holder's: a watcher may have handed it on."""
		pipe.eval(FORGET, 2, INFLIGHT, self.pulse, self.field, self.entry)


@contextmanager
def held(kind: str, name: str, lock, beat=None, also=None, forget: bool = True):
	"""Keep an entry for ``name`` while the block runs under ``lock`` (a redis-py Lock, held); the
	job's mark goes, as it now holds its work. ``beat`` (``runs.Beat``) keeps the entry's pulse.
	``also(pipe)``: the holder's own commands, sent in the same round trip as the entry; their replies
	are the yielded ``Holding``'s ``extra``. ``forget``: delete the entry when the block ends (False:
	the holder puts ``Holding.forget`` in the round trip that releases its lock, before the release)."""
	from rq import get_current_job

	field = f"{frappe.local.site}|{kind}|{name}"
	token, pulse = lock.local.token, f"huf:pulse:{field}"
	entry = json.dumps({
		"machine": _MACHINE, "pid": os.getpid(), "born": born(), "lock": _text(lock.name),
		"token": _text(token) if token else "", "pulse": pulse if beat else "",
	})  # fmt: skip
	job = get_current_job()
	with frappe.cache.pipeline(transaction=False) as pipe:
		pipe.execute_command("HSET", INFLIGHT, field, entry)
		if beat:
			pipe.execute_command("SET", pulse, "1", "EX", PULSE_TTL)
		if job:
			pipe.execute_command("HDEL", QUEUED, job.id)
		own = len(pipe.command_stack)
		if also:
			also(pipe)
		replies = pipe.execute()
	if beat:
		beat.pulse = pulse
	holding = Holding(field, entry, pulse if beat else "", replies[own:])
	try:
		yield holding
	finally:
		if beat:
			beat.pulse = None
		if forget:
			holding.forget(frappe.cache)


def _text(value) -> str:
	return value.decode() if isinstance(value, bytes) else str(value)


def holder_gone(entry: dict, store) -> bool:
	"""Whether the process that wrote ``entry`` no longer holds its work."""
	if entry.get("machine") != _MACHINE:  # its lock expired, or its pulse stopped
		return not store.exists(entry.get("lock") or "") or bool(entry.get("pulse")) and not store.exists(entry["pulse"])
	try:
		pid, started = int(entry["pid"]), float(entry["born"])
	except (KeyError, ValueError):
		return True
	return process_gone(pid, lambda created: abs(created - started) > 0.01)


def worker_gone(jobs, worker: str | None) -> bool:
	"""Whether the RQ worker named ``worker`` is gone: its key expired or was deleted, or it is on
	this machine and its process is. Another machine's worker is left to the minute sweep."""
	from datetime import timezone

	from rq.utils import utcparse

	pid, host, birth = (_text(v) if v else None for v in jobs.hmget(f"rq:worker:{worker}", "pid", "hostname", "birth"))
	if not pid or not birth:
		return True
	if host != socket.gethostname():
		return False
	started = utcparse(birth).replace(tzinfo=timezone.utc).timestamp()
	return process_gone(int(pid), lambda created: created > started + 1)  # a later process with its pid


def process_gone(pid: int, another) -> bool:
	"""Whether process ``pid`` is gone: no such process, a zombie, or ``another(its start time)``."""
	import psutil

	try:
		process = psutil.Process(pid)
		return process.status() == psutil.STATUS_ZOMBIE or another(process.create_time())
	except psutil.NoSuchProcess:
		return True


class Watcher:
	"""Looks for work whose holder died, or whose job was lost before it began, and hands it on.
	``store``: the cache Redis; ``enqueue(site, method, kwargs, job_id)``: puts a job on the ``long``
	queue of that site; ``key``, ``queued``: the hashes; ``jobs``: RQ's Redis (marks are read only
	with it)."""

	def __init__(self, store, enqueue, key: str = INFLIGHT, jobs=None, queued: str = QUEUED):
		self.store, self.enqueue, self.key, self.jobs, self.queued = store, enqueue, key, jobs, queued
		self.claim = store.register_script(CLAIM)
		self.limbo: dict[str, float] = {}
		self.scans = LIMBO_SCANS

	def look(self) -> list[str]:
		"""One look; returns the fields (and job ids) it claimed."""
		return self.look_held() + (self.look_queued() if self.jobs is not None else [])

	def look_held(self) -> list[str]:
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
			self.recover(site, kind, name, tries=1)
			claimed.append(field)
		return claimed

	def look_queued(self) -> list[str]:
		claimed, now = [], time.time()
		marks = {_text(job): _text(value) for job, value in (self.store.hgetall(self.queued) or {}).items()}
		self.limbo = {job: seen for job, seen in self.limbo.items() if job in marks}
		self.scans = LIMBO_SCANS
		for job, value in random.sample(list(marks.items()), len(marks)):  # each queued job gets its turn
			try:
				found = json.loads(value)
				site, kind, name = found["field"].split("|", 2)
			except (ValueError, KeyError, TypeError):
				found, kind = None, None
			fate = self.fate(job, found, now) if kind in RECOVER else "gone"
			if fate == "waiting" or not self.claim(keys=[self.queued, ""], args=[job, value, ""]):
				continue
			if fate == "lost" and found["tries"] < MAX_TRIES:
				self.recover(site, kind, name, tries=found["tries"] + 1)
				claimed.append(job)
		return claimed

	def fate(self, job: str, found: dict, now: float) -> str:
		"""``waiting`` (queued or running), ``gone`` (it ended, or never reached RQ: forget it) or
		``lost`` (it ended or stopped before it held its work)."""
		status, worker, origin = (_text(v) if v else None for v in self.jobs.hmget(f"rq:job:{job}", "status", "worker_name", "origin"))
		if status is None:
			return "gone" if now - found["at"] > GRACE else "waiting"
		if status in ("failed", "stopped", "canceled"):
			return "lost"
		if status == "started":
			return "lost" if worker_gone(self.jobs, worker) else "waiting"
		if status == "queued" and origin and self.out_of_queue(job, f"rq:queue:{origin}"):
			return "lost" if now - self.limbo.setdefault(job, now) > LIMBO else "waiting"
		return "gone" if status == "finished" else "waiting"

	def out_of_queue(self, job: str, queue: str) -> bool:
		"""Whether a queued job is no longer in its queue (a worker took it and has not started it).
		Searching a queue reads all of it, so a look searches at most ``LIMBO_SCANS`` queues of at
		most ``LIMBO_QUEUE`` jobs; a job not searched now is searched at a later look."""
		if job in self.limbo:
			return True
		if self.scans <= 0 or self.jobs.llen(queue) > LIMBO_QUEUE:
			return False
		self.scans -= 1
		return self.jobs.lpos(queue, job) is None

	def recover(self, site: str, kind: str, name: str, tries: int) -> None:
		method, kwargs = RECOVER[kind]
		job = f"{site}::huf-recover:{kind}:{name}:{time.time():.3f}"
		self.store.hset(self.queued, job, mark(f"{site}|{kind}|{name}", tries))
		self.enqueue(site, method, kwargs(name), job)

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
	watcher = Watcher(store, job_sender(queue_redis, bench), jobs=queue_redis)
	threading.Thread(target=watcher.run, args=(stop,), name="huf-inflight-watcher", daemon=True).start()
	return stop


def job_sender(connection, bench: str):
	"""An ``enqueue`` for the watcher: a job as ``frappe.enqueue`` makes it, without a site loaded."""
	from frappe.utils.background_jobs import execute_job
	from rq import Queue

	queue = Queue(f"{bench}:long", connection=connection)

	def enqueue(site: str, method: str, kwargs: dict, job_id: str) -> None:  # job_id with its site
		queue.enqueue_call(
			execute_job, timeout=1500, job_id=job_id,
			kwargs={"site": site, "user": "Administrator", "method": method, "event": None, "job_name": method, "is_async": True, "kwargs": kwargs},
		)  # fmt: skip

	return enqueue
