"""The in-flight registry and its watchers (huf/ai/run/inflight.py): a dead holder's work is claimed
once however many watchers race for it, a live holder's never; a worker that starts picks up what
the workers before it left."""

from __future__ import annotations

import json
import os
import subprocess
import threading

import frappe

from huf.ai.run import inflight
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.flow_helpers import edge, node, save, settle, start, steps, users
from tests.support.local_http import LocalServer


def plain_redis():
	"""The cache Redis as the watchers use it (frappe.cache prefixes keys and pickles values)."""
	import redis

	return redis.Redis.from_url(frappe.conf.redis_cache)


def dead_pid() -> tuple[int, float]:
	"""A process id that was alive a moment ago, and its start time."""
	import psutil

	proc = subprocess.Popen(["sleep", "5"])
	born = psutil.Process(proc.pid).create_time()
	proc.kill()
	proc.wait()
	return proc.pid, born


def entry(pid: int, born: float, **extra) -> str:
	return json.dumps({"machine": inflight._MACHINE, "pid": pid, "born": born, "lock": "", "token": "", **extra})


def test_racing_watchers_claim_each_dead_holders_work_once_and_leave_live_holders_alone(site):
	store, key = plain_redis(), f"huf:inflight:test-{frappe.generate_hash(length=8)}"  # not the bench's own
	pid, born = dead_pid()
	fields = [f"{site}|flow|huf-race-{i}" for i in range(40)]
	alive = f"{site}|flow|huf-race-alive"
	for field in fields:
		store.execute_command("HSET", key, field, entry(pid, born))
	store.execute_command("HSET", key, alive, entry(os.getpid(), inflight.born()))
	sent: list[tuple] = []
	watchers = [inflight.Watcher(store, lambda *job: sent.append(job), key) for _ in range(4)]
	claimed: list[list[str]] = [[] for _ in watchers]
	barrier = threading.Barrier(len(watchers))

	def race(index: int) -> None:
		barrier.wait()
		for _ in range(5):
			claimed[index].extend(f for f in watchers[index].look() if "huf-race" in f)

	threads = [threading.Thread(target=race, args=(i,)) for i in range(len(watchers))]
	try:
		for thread in threads:
			thread.start()
		for thread in threads:
			thread.join()
		everything = [field for each in claimed for field in each]
		assert sorted(everything) == sorted(fields)  # each once, by one watcher
		ours = [job for job in sent if "huf-race" in job[2]["flow_run"]]
		assert len(ours) == len(fields) and {job[1] for job in ours} == {"huf.ai.flow.runs.recover"}
		assert store.execute_command("HEXISTS", key, alive)  # its holder lives
	finally:
		store.execute_command("DEL", key)


def test_another_machines_holder_is_gone_when_its_lock_expired(site):
	store, key = plain_redis(), f"huf:inflight:test-{frappe.generate_hash(length=8)}"
	lock = frappe.cache.make_key("huf:test_inflight_lock").decode()
	field = f"{site}|flow|huf-elsewhere"
	remote = json.dumps({"machine": "elsewhere:boot", "pid": 1, "born": 0, "lock": lock, "token": "t"})
	store.execute_command("HSET", key, field, remote)
	store.execute_command("SET", lock, "t", "EX", 30)
	watcher = inflight.Watcher(store, lambda *job: None, key)
	try:
		assert field not in watcher.look()  # its lock is still held: it may be working
		store.execute_command("DEL", lock)
		assert field in watcher.look()
	finally:
		store.execute_command("DEL", key, lock)


def test_another_machines_holder_is_gone_when_its_pulse_stopped_and_its_lock_goes_with_the_claim(site):
	store, key = plain_redis(), f"huf:inflight:test-{frappe.generate_hash(length=8)}"
	lock, pulse = frappe.cache.make_key("huf:test_pulse_lock").decode(), f"huf:pulse:test-{frappe.generate_hash(length=8)}"
	field = f"{site}|flow|huf-elsewhere-pulse"
	store.execute_command("HSET", key, field, json.dumps({"machine": "elsewhere:boot", "pid": 1, "born": 0, "lock": lock, "token": "t", "pulse": pulse}))
	store.execute_command("SET", lock, "t", "EX", 30)
	store.execute_command("SET", pulse, "1", "EX", 10)
	watcher = inflight.Watcher(store, lambda *job: None, key)
	try:
		assert field not in watcher.look()  # it beats
		store.execute_command("DEL", pulse)  # ten seconds without a beat
		assert field in watcher.look()
		assert not store.exists(lock)  # the dead holder's lock is freed for the recovery job
	finally:
		store.execute_command("DEL", key, lock, pulse)


def test_a_holders_heartbeat_keeps_its_pulse_and_letting_go_removes_entry_and_pulse(site):
	from huf.ai.run.runs import heartbeat

	lock = frappe.cache.lock(frappe.cache.make_key(f"huf:test_beat:{frappe.generate_hash(length=8)}"), timeout=30, thread_local=False)
	assert lock.acquire(blocking=False)
	field = f"{site}|flow|huf-beating"
	try:
		with heartbeat(lock) as beat, inflight.held("flow", "huf-beating", lock, beat):
			pulse = json.loads(frappe.cache.execute_command("HGET", inflight.INFLIGHT, field))["pulse"]
			frappe.cache.execute_command("EXPIRE", pulse, 1)  # as if it had not beaten for a while
			wait_for(lambda: frappe.cache.execute_command("TTL", pulse) > 1, inflight.PULSE_EVERY + 3, 0.05, "the next beat")
		assert not frappe.cache.execute_command("HEXISTS", inflight.INFLIGHT, field)
		assert not frappe.cache.execute_command("EXISTS", pulse)
	finally:
		lock.release()


def test_a_worker_that_starts_picks_up_the_step_a_dead_worker_left(site, workers):
	users()
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as server:
		flow = save(
			"huf-test-restart",
			[node("fetch", "http_request", method="GET", url=server.url("/sleep?seconds=30")), node("done", "end")],
			[edge("fetch", "done")],
		)
		workers.start(1)
		name = start(flow)
		wait_for(lambda: server.seen, 30, 0.1, "the request")
		workers.kill(0)  # no worker is left
		server.go_on.set()
		workers.start(1)  # its watcher looks at once
		run = settle(name, timeout=30)
		assert run.status == "Success", run.last_error
		assert steps(name) == [("fetch", "Success"), ("done", "Success")]
		assert frappe.db.get_value("Flow Run Step", {"parent": name, "node_id": "fetch"}, "repeats") == 1  # a GET repeats
		assert len(server.seen) == 2


def queue_redis():
	import redis

	return redis.Redis.from_url(frappe.conf.redis_queue)


def rq_job(jobs, status: str, **fields) -> str:
	"""A job as RQ keeps it (only the fields a watcher reads), under an id no real job has."""
	job = f"{frappe.local.site}::huf-test-mark-{frappe.generate_hash(length=10)}"
	jobs.hset(f"rq:job:{job}", mapping={"status": status, **fields})
	jobs.expire(f"rq:job:{job}", 120)
	return job


def test_a_marked_job_lost_before_it_held_its_work_is_handed_on_once_and_others_are_left_or_forgotten(site):
	"""What each RQ state of a marked job means: failed, or started on a worker whose process is gone,
	or out of its queue yet never started: lost, recovered once however many watchers race (the
	recovery job is marked, one try more); queued or started on a live worker: left; finished, or
	never reaching RQ: forgotten; lost too often: forgotten, for the minute sweep."""
	import socket

	from rq.utils import utcformat, utcnow

	store, jobs, key = plain_redis(), queue_redis(), f"huf:queued:test-{frappe.generate_hash(length=8)}"
	pid, born = dead_pid()
	dead_worker, live_worker = (f"huf-test-worker-{frappe.generate_hash(length=8)}" for _ in range(2))
	birth = utcformat(utcnow())
	jobs.hset(f"rq:worker:{dead_worker}", mapping={"pid": pid, "hostname": socket.gethostname(), "birth": utcformat(utcnow())})
	jobs.hset(f"rq:worker:{live_worker}", mapping={"pid": os.getpid(), "hostname": socket.gethostname(), "birth": birth})
	queue = f"huf-test-queue-{frappe.generate_hash(length=8)}"
	waiting = rq_job(jobs, "queued", origin=queue)
	jobs.rpush(f"rq:queue:{queue}", waiting)
	cases = {
		"failed": (rq_job(jobs, "failed"), 0),
		"died starting": (rq_job(jobs, "started", worker_name=dead_worker), 0),
		"left its queue": (rq_job(jobs, "queued", origin=queue), 0),
		"queued": (waiting, 0),
		"running": (rq_job(jobs, "started", worker_name=live_worker), 0),
		"finished": (rq_job(jobs, "finished"), 0),
		"never queued": (f"{site}::huf-test-mark-never", 0),
		"lost too often": (rq_job(jobs, "failed"), inflight.MAX_TRIES),
	}
	for label, (job, tries) in cases.items():
		mark = json.loads(inflight.mark(f"{site}|flow|huf-mark-{label.replace(' ', '-')}", tries))
		if label == "never queued":
			mark["at"] -= inflight.GRACE + 1
		store.hset(key, job, json.dumps(mark))
	sent: list[tuple] = []
	watchers = [inflight.Watcher(store, lambda *job: sent.append(job), f"{key}:held", jobs=jobs, queued=key) for _ in range(3)]
	try:
		claimed = [job for watcher in watchers for job in watcher.look()]  # "left its queue" is only seen
		for watcher in watchers:
			watcher.limbo = {job: seen - inflight.LIMBO - 1 for job, seen in watcher.limbo.items()}  # ...until LIMBO passed
		claimed += [job for watcher in watchers for job in watcher.look()]
		lost = [cases[label][0] for label in ("failed", "died starting", "left its queue")]
		assert sorted(claimed) == sorted(lost)
		assert sorted(job[2]["flow_run"] for job in sent) == ["huf-mark-died-starting", "huf-mark-failed", "huf-mark-left-its-queue"]
		left = {inflight._text(job) for job in store.hkeys(key)}
		recoveries = {job[3] for job in sent}
		assert left == {waiting, cases["running"][0], *recoveries}  # the recovery jobs are marked...
		assert {json.loads(store.hget(key, job))["tries"] for job in recoveries} == {1}  # ...one try more
	finally:
		store.delete(key)
		jobs.delete(f"rq:worker:{dead_worker}", f"rq:worker:{live_worker}", f"rq:queue:{queue}", *(f"rq:job:{job}" for job, _ in cases.values()))


def test_a_hop_job_killed_before_it_took_its_runs_lock_is_handed_on_by_a_live_worker(site, workers):
	"""The hop job is started, then its worker is killed while the job waits for the run's lock (the
	test holds it): no holder entry was written, only the job's mark tells."""
	from rq.job import Job

	from huf.ai.flow import runs

	users()
	flow = save("huf-test-lost-hop", [node("shape", "transform", mode="template", template="hi", key="x"), node("done", "end")], [edge("shape", "done")])
	name = start(flow)
	job = f"{site}::huf-flow:{name}:0"
	assert frappe.cache.execute_command("HEXISTS", inflight.QUEUED, job)  # marked as it was queued
	lock = frappe.cache.lock(runs.lock_key(name), timeout=60, thread_local=False)
	assert lock.acquire(blocking=False)
	try:
		workers.start(1)
		wait_for(lambda: Job.fetch(job, connection=queue_redis()).get_status() == "started", 60, 0.01, "the hop job to start")
		workers.kill(0)
	finally:
		lock.release()
	workers.start(1)  # a live worker: its watcher sees the job's worker is gone
	run = settle(name, timeout=40)
	assert run.status == "Success", run.last_error
	assert steps(name) == [("shape", "Success"), ("done", "Success")]
	assert not frappe.cache.execute_command("HEXISTS", inflight.QUEUED, job)
