"""The in-flight registry and its watchers (huf/ai/inflight.py): a dead holder's work is claimed
once however many watchers race for it, a live holder's never; a worker that starts picks up what
the workers before it left."""

from __future__ import annotations

import json
import os
import subprocess
import threading

import frappe

from huf.ai import inflight
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
