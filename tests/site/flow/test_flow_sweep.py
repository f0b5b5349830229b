"""What the minute sweep does for flows, and who hears a run: an approval whose time ran out follows
its timeout edge (or fails the run saying why); a worker SIGKILLed during a POST that is not
marked repeatable stops the run as Needs Attention without sending it again, and Retry, Skip and
End do what they say; realtime node events reach the run's owner's room only."""

from __future__ import annotations

import json
import time

import frappe
from frappe.utils import add_to_date, now_datetime

from huf.ai.flow import approvals
from tests.site import fixtures
from tests.site.conftest import as_user, wait_for
from tests.site.flow_helpers import APPROVER, OTHER, OWNER, edge, holder, node, save, settle, start, steps, users
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


def _killed_during_post(server, flow_id: str, workers) -> str:
	"""A run whose worker is SIGKILLed while its POST (not marked repeatable) waits at the server; a
	second worker is alive. Returns the run."""
	flow = save(
		flow_id,
		[node("call", "http_request", method="POST", url=server.url("/sleep?seconds=30"), body={"n": 1}),
		 node("done", "end"), node("recover", "end")],
		[edge("call", "done", "on_success"), edge("call", "recover", "on_failure")],
	)  # fmt: skip
	workers.start(2 - len(workers.procs))
	sent = len(server.seen)
	name = start(flow)
	wait_for(lambda: len(server.seen) > sent, 30, 0.1, "the HTTP request")
	wait_for(lambda: holder(workers, [name]) is not None, 10, 0.05, "the worker holding the step")
	workers.kill(holder(workers, [name]))
	return name


def test_a_post_whose_worker_died_needs_attention_and_retry_skip_and_end_do_what_they_say(site, workers):
	from huf.ai.flow import api
	from huf.ai.flow.approvals import NotWaiting

	users()
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as server:
		names = []
		for i in range(3):
			names.append(_killed_during_post(server, f"huf-test-attention-{i}", workers))
			name = names[-1]
			run = settle(name, timeout=30, statuses=("Needs Attention", "Success", "Failed"))  # the watcher, not the sweep
			assert run.status == "Needs Attention", run.status
			assert steps(name) == [("call", "Needs Attention")]
			waiting = json.loads(run.waiting) if isinstance(run.waiting, str) else run.waiting
			assert "'Call'" in waiting["message"] and "may or may not have acted" in waiting["message"]
			note = frappe.get_all("Notification Log", {"document_type": "Flow Run", "document_name": name}, ["for_user", "subject"])
			assert [n.for_user for n in note] == [OWNER] and "needs attention" in note[0].subject
		assert len(server.seen) == 3  # no request was sent again on its own
		with as_user(OTHER):
			try:
				api.skip_flow_step(names[0], '{"sent": true}')
				raise AssertionError("someone else decided")
			except frappe.PermissionError:
				frappe.db.rollback()
		server.go_on.set()  # the server answers at once from now on
		with as_user(OWNER):
			assert api.skip_flow_step(names[0], '{"sent": "by hand"}')["status"] == "Queued"
			assert api.retry_flow_step(names[1])["status"] == "Queued"
			assert api.end_flow_run(names[2])["status"] == "Cancelled"
			try:
				api.end_flow_run(names[2])
				raise AssertionError("decided twice")
			except NotWaiting:
				frappe.db.rollback()
		skipped, retried = settle(names[0]), settle(names[1])
		assert skipped.status == "Success" and steps(names[0]) == [("call", "Skipped"), ("done", "Success")]
		assert json.loads(skipped.context_json)["nodes"]["call"] == {"sent": "by hand"}
		assert retried.status == "Success" and steps(names[1]) == [("call", "Success"), ("done", "Success")]
		ended = frappe.get_doc("Flow Run", names[2])
		assert ended.status == "Cancelled" and OWNER in ended.last_error and steps(names[2]) == [("call", "Cancelled")]
		assert len(server.seen) == 4  # the retried request only
		assert len({seen.headers["idempotency-key"] for seen in server.seen}) == 3  # a retry sends its step's key again


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
