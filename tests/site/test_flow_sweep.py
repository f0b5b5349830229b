"""What the minute sweep does for flows, and who hears a run: an approval whose time ran out follows
its timeout edge (or fails the run saying why); a worker SIGKILLed during an HTTP request is swept
and the request is not sent again; realtime node events reach the run's owner's room only."""

from __future__ import annotations

import json
import time

import frappe
from frappe.utils import add_to_date, now_datetime

from huf.ai.flow import approvals
from tests.site import fixtures
from tests.site.conftest import wait_for
from tests.site.flow_helpers import APPROVER, OTHER, OWNER, edge, killed_and_swept, node, save, settle, start, steps, users
from tests.support.local_http import LocalServer


def test_an_approval_whose_time_ran_out_follows_its_timeout_edge_or_fails(site, workers):
	users()
	ask = node("ask", "human.approval", approval_type="users", users=[APPROVER], timeout_seconds=3600)
	handled = save("huf-test-timeout", [ask, node("yes", "end"), node("late", "end")],
		[edge("ask", "yes", meta={"outcome": "approved"}), edge("ask", "late", meta={"outcome": "timeout"})])  # fmt: skip
	unhandled = save("huf-test-no-timeout-edge", [ask, node("yes", "end")], [edge("ask", "yes", meta={"outcome": "approved"})])
	workers.start(1)
	names = [start(handled), start(unhandled)]
	for name in names:
		assert settle(name).status == "Waiting Approval"
	approvals.sweep()  # not due yet: an hour to go
	assert [settle(name).status for name in names] == ["Waiting Approval"] * 2
	past = add_to_date(now_datetime(), seconds=-5)
	for name in names:
		frappe.db.set_value("Flow Run", name, "due_at", past, update_modified=False)
	frappe.db.commit()
	approvals.sweep()  # what the minute job does
	run = settle(names[0], statuses=("Success", "Failed"))
	assert run.status == "Success", run.last_error
	assert steps(run.name) == [("ask", "Success"), ("late", "Success")]
	assert json.loads(run.context_json)["nodes"]["ask"]["outcome"] == "timeout"
	run = settle(names[1], statuses=("Success", "Failed"))
	assert run.status == "Failed" and "no one decided in time" in run.last_error and "'Ask'" in run.last_error


def test_a_worker_killed_during_an_http_request_is_swept_and_the_request_not_sent_again(site, workers):
	users()
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as server:
		flow = save(
			"huf-test-killed-http",
			[node("call", "http_request", method="POST", url=server.url("/sleep?seconds=30"), body={"n": 1}),
			 node("done", "end"), node("recover", "end")],
			[edge("call", "done", "on_success"), edge("call", "recover", "on_failure")],
		)  # fmt: skip
		workers.start(1)
		name = start(flow)
		wait_for(lambda: server.seen, 30, 0.1, "the HTTP request")
		run = killed_and_swept(workers, name)
		server.go_on.set()
		assert run.status == "Success", run.last_error
		assert steps(name) == [("call", "Failed"), ("recover", "Success")]
		assert "worker stopped" in frappe.db.get_value("Flow Run Step", {"parent": name, "node_id": "call"}, "error")
		assert len(server.seen) == 1


def test_node_events_reach_the_owners_room_only(site, workers):
	from frappe.utils.background_jobs import get_redis_connection_without_auth

	users()
	flow = save("huf-test-events", [node("shape", "transform", mode="template", template="hi", key="x"), node("done", "end")], [edge("shape", "done")])
	pubsub = get_redis_connection_without_auth().pubsub()
	pubsub.subscribe("events")  # where frappe.publish_realtime sends, for the socket.io server
	try:
		workers.start(1)
		name = start(flow)
		heard, deadline = [], time.monotonic() + 30
		while time.monotonic() < deadline and not any(e["event"] == "flow_run_status" and e["message"]["status"] == "Success" for e in heard):
			message = pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
			if message:
				event = json.loads(message["data"])
				if event.get("namespace") == site and (event.get("message") or {}).get("flow_run") == name:
					heard.append(event)
	finally:
		pubsub.close()
	assert {e["room"] for e in heard} == {f"user:{OWNER}"}, heard  # never OTHER's, never the whole site's
	assert OTHER not in json.dumps(heard)
	started = [(e["message"]["node_id"], e["message"]["label"], e["message"]["type"]) for e in heard if e["event"] == "flow_node_started"]
	finished = [(e["message"]["node_id"], e["message"]["label"], e["message"]["type"], e["message"]["status"]) for e in heard if e["event"] == "flow_node_finished"]
	assert started == [("shape", "Shape", "transform"), ("done", "Done", "end")]
	assert finished == [("shape", "Shape", "transform", "Success"), ("done", "Done", "end", "Success")]
	statuses = [e["message"]["status"] for e in heard if e["event"] == "flow_run_status"]
	assert statuses[0] in ("Queued", "Running") and statuses[-1] == "Success"


def test_a_hop_started_while_the_hop_before_still_holds_the_lock_waits_for_it(site, workers):
	"""Hop N-1 enqueues hop N after its commit and lets go of the run's lock just after; a worker
	without a fork starts hop N in between. Here the test holds the lock in that moment's place."""
	from huf.ai.flow import runs

	users()
	flow = save("huf-test-handoff", [node("shape", "transform", mode="template", template="hi", key="x"), node("done", "end")], [edge("shape", "done")])
	workers.start(1, "huf-worker")
	assert settle(start(flow), timeout=60).status == "Success"  # the worker is up and waiting for jobs
	name = runs.start_run(flow, None, OWNER)  # hop 0 is enqueued at the commit
	lock = frappe.cache.lock(runs.lock_key(name), timeout=30, thread_local=False)
	assert lock.acquire(blocking=False)  # the run's lock, held as the hop before would hold it
	frappe.db.commit()
	try:
		time.sleep(0.5)  # the worker has taken hop 0 meanwhile
	finally:
		lock.release()
	run = settle(name, timeout=10)  # no sweep: the hop itself goes on
	assert run.status == "Success", run.status
