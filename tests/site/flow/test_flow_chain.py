"""A flow's ready steps run one after another in one job (huf/ai/flow/runs.py), through real RQ
workers: the job lets go when a step waits, when its time slice (Agent Settings' Flow time slice)
is used up, and when the run ends; a worker killed in the middle of a chain loses no step.

Which jobs ran a run's steps is read from RQ itself: every hop job's id is
``<site>::huf-flow:<run>:<hop>`` (a recovery job's ``huf-recover:flow:<run>:...``), and RQ keeps
the ids of finished jobs (for ten minutes), of the ones running and of the failed ones."""

from __future__ import annotations

import json
from itertools import pairwise

import frappe
import pytest

from huf.ai.run import inflight
from huf.ai.flow import api, runs
from tests.site import fixtures
from tests.site.conftest import as_user, wait_for
from tests.site.flow_helpers import APPROVER, edge, holder, node, save, settle, start, steps, users
from tests.support.local_http import LocalServer

ENDED = ("Success", "Failed")


@pytest.fixture
def time_slice(site):
	"""Set Agent Settings' Flow time slice for a test (the workers read the saved settings); the
	value before is put back after it."""
	before = frappe.db.get_single_value("Agent Settings", "flow_time_slice")

	def set_to(seconds: float) -> None:
		settings = frappe.get_doc("Agent Settings")
		settings.flow_time_slice = seconds
		settings.save(ignore_permissions=True)
		frappe.db.commit()

	yield set_to
	set_to(before)


def hop_jobs(flow_run: str, started: bool = True) -> list[str]:
	"""The ids of the RQ jobs that were queued to run steps of ``flow_run`` (hop jobs and recovery
	jobs) and have finished, failed or (``started``) are running now."""
	from frappe.utils.background_jobs import get_queue

	queue = get_queue("long")
	registries = [queue.finished_job_registry, queue.failed_job_registry] + ([queue.started_job_registry] if started else [])
	ours = (f"{frappe.local.site}::huf-flow:{flow_run}:", f"{frappe.local.site}::huf-recover:flow:{flow_run}:")
	return sorted({job for registry in registries for job in registry.get_job_ids() if job.startswith(ours)})


def all_done(flow_run: str) -> list[str]:
	"""The run's jobs once none of them is running any more (a job ends just after its last commit)."""
	wait_for(lambda: not set(hop_jobs(flow_run)) - set(hop_jobs(flow_run, started=False)), 30, 0.1, "the run's jobs to end")
	return hop_jobs(flow_run)


def transforms(flow_id: str, count: int, **extra) -> str:
	"""A chain of ``count`` instant steps."""
	nodes = [node(f"t{n}", "transform", mode="template", template=f"step {n}", key=f"v{n}") for n in range(count)]
	return save(flow_id, nodes, [edge(f"t{n}", f"t{n + 1}") for n in range(count - 1)], **extra)


def circle(flow_id: str, max_hops: int) -> str:
	"""Two instant steps that would go round for ever (the way out never holds): ``max_hops`` ends it."""
	return save(
		flow_id,
		[node("a", "transform", mode="template", template="x", key="a"), node("b", "transform", mode="template", template="y", key="b"), node("out", "end")],
		[edge("a", "b"), edge("b", "out", "expression", condition="nodes.b.b == 'stop'", priority=1), edge("b", "a")],
		max_hops=max_hops,
	)  # fmt: skip


def started_order(names: list[str]) -> list[str]:
	"""Which run each step belonged to, in the order the steps started."""
	rows = frappe.get_all(
		"Flow Run Step", {"parent": ["in", names]}, ["parent", "started_at", "hop"], order_by="started_at asc, hop asc"
	)
	return [row.parent for row in rows]


def switches(order: list[str]) -> int:
	return sum(1 for before, after in pairwise(order) if before != after)


def test_a_chain_of_instant_steps_runs_in_one_job_and_commits_every_step(site, workers, time_slice):
	users()
	time_slice(600)  # far more than ten instant steps take
	flow = transforms("huf-test-chain", 10)
	workers.start(1)
	name = start(flow)
	run = settle(name, statuses=ENDED)
	assert run.status == "Success", run.last_error
	assert steps(name) == [(f"t{n}", "Success") for n in range(10)]
	assert frappe.get_all("Flow Run Step", {"parent": name}, pluck="hop", order_by="hop asc") == list(range(10))
	assert run.hop_count == 10 and json.loads(run.context_json)["nodes"]["t9"] == {"v9": "step 9"}
	assert all_done(name) == [f"{site}::huf-flow:{name}:0"]  # the job of hop 0 ran them all


def test_a_slice_of_0_runs_every_step_as_a_job_of_its_own(site, workers, time_slice):
	users()
	time_slice(0)
	flow = transforms("huf-test-chain-none", 4)
	workers.start(1)
	name = start(flow)
	assert settle(name, statuses=ENDED).status == "Success"
	assert all_done(name) == sorted(f"{site}::huf-flow:{name}:{hop}" for hop in range(4))


def test_a_step_that_waits_for_an_approval_lets_the_worker_go(site, workers, time_slice):
	users()
	time_slice(600)
	flow = save(
		"huf-test-chain-approval",
		[node("before", "transform", mode="template", template="a", key="a"),
		 node("ask", "human.approval", approval_type="users", users=[APPROVER], message="Go on?"),
		 node("after", "transform", mode="template", template="b", key="b"), node("done", "end")],
		[edge("before", "ask"), edge("ask", "after", meta={"outcome": "approved"}), edge("after", "done")],
	)  # fmt: skip
	workers.start(1)
	name = start(flow)
	assert settle(name).status == "Waiting Approval"
	assert all_done(name) == [f"{site}::huf-flow:{name}:0"]  # the job ended, no other was queued
	assert steps(name) == [("before", "Success"), ("ask", "Waiting")]
	assert not frappe.cache.get(runs.lock_key(name))  # nobody holds the run while it waits
	assert not frappe.cache.execute_command("HEXISTS", inflight.INFLIGHT, f"{site}|flow|{name}")
	with as_user(APPROVER):
		assert api.approve_flow_run(name)["status"] == "Queued"
	run = settle(name, statuses=ENDED)
	assert run.status == "Success", run.last_error
	assert steps(name) == [("before", "Success"), ("ask", "Success"), ("after", "Success"), ("done", "Success")]
	assert len(all_done(name)) == 2  # the approval queued one job, which ran the rest


def test_a_long_chain_lets_other_jobs_in_after_its_slice(site, workers, time_slice):
	"""One worker, two runs of 300 instant steps queued together: with a short slice their steps
	take turns (with one job a run, all of one run's steps would come before the other's), and a
	job runs several steps of its run. The slice is longer than a job's first step (a fresh fork
	imports what the step needs) and shorter than a run's 300 steps."""
	users()
	time_slice(0.5)
	flow = transforms("huf-test-chain-turns", 300, max_hops=400)
	first, second = start(flow), start(flow)
	workers.start(1)
	for name in (first, second):
		assert settle(name, timeout=120, statuses=ENDED).status == "Success"
		assert [status for _, status in steps(name)] == ["Success"] * 300
	order = started_order([first, second])
	assert switches(order) >= 3, order  # first's slice, second's, first's again, second's again at least
	for name in (first, second):
		assert 2 <= len(all_done(name)) < 300  # it let go in between; some job ran more than one step


def test_a_run_that_would_go_round_for_ever_ends_at_max_hops_and_lets_other_runs_in(site, workers, time_slice):
	users()
	time_slice(0.5)
	spinning = circle("huf-test-chain-circle", max_hops=300)
	other = transforms("huf-test-chain-other", 3)
	looping = start(spinning)
	meanwhile = start(other)  # queued behind the circle's first job
	workers.start(1)
	run = settle(looping, timeout=120, statuses=ENDED)
	assert run.status == "Failed" and "max_hops" in run.last_error and run.hop_count == 301
	assert settle(meanwhile, statuses=ENDED).status == "Success"
	assert frappe.db.get_value("Flow Run", meanwhile, "completed_at") < run.completed_at  # it did not wait for the circle's end
	assert 2 <= len(all_done(looping)) < 301  # it let go of the worker in between; some job ran more than one step


def test_a_worker_killed_in_the_middle_of_a_chain_loses_no_step_and_repeats_none(site, workers, time_slice):
	"""The chain's job dies during its fifth step (a GET, safe to repeat, answered only once it is
	asked again); a second worker's watcher hands the run on: the steps the dead job had finished
	are not run again, the one it was in runs once more, the rest once."""
	users()
	time_slice(600)
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as server:
		before = [node(f"b{n}", "transform", mode="template", template=f"b{n}", key="v") for n in range(4)]
		after = [node(f"a{n}", "transform", mode="template", template=f"a{n}", key="v") for n in range(4)]
		fetch = node("fetch", "http_request", method="GET", url=server.url("/sleep?seconds=60"))
		ids = [n["id"] for n in (*before, fetch, *after)]
		flow = save("huf-test-chain-killed", [*before, fetch, *after], [edge(a, b) for a, b in pairwise(ids)])
		workers.start(1)
		name = start(flow)
		wait_for(lambda: server.seen, 30, 0.1, "the request")
		assert hop_jobs(name) == [f"{site}::huf-flow:{name}:0"]  # one job is on its fifth step
		finished = {row.hop: row.started_at for row in frappe.get_all("Flow Run Step", {"parent": name}, ["hop", "started_at"])}
		assert sorted(finished) == [0, 1, 2, 3, 4]
		workers.start(1)  # a second worker stays alive
		assert holder(workers, [name]) == 0
		workers.kill(0)
		server.go_on.set()  # the request asked again is answered at once
		run = settle(name, timeout=60, statuses=ENDED)
	assert run.status == "Success", run.last_error
	assert steps(name) == [(id, "Success") for id in ids]
	rows = {row.hop: row for row in frappe.get_all("Flow Run Step", {"parent": name}, ["hop", "started_at", "repeats"])}
	assert sorted(rows) == list(range(len(ids)))  # each step has one row
	assert {hop: rows[hop].started_at for hop in range(4)} == {hop: finished[hop] for hop in range(4)}  # not run again
	assert [rows[hop].repeats or 0 for hop in range(len(ids))] == [0, 0, 0, 0, 1, 0, 0, 0, 0]  # the GET, once more
	assert len(server.seen) == 2
	assert any(":huf-recover:flow:" in job for job in hop_jobs(name))  # the watcher handed it on (the dead job stays "started")


def test_the_slice_is_refused_below_0_and_above_600_seconds_and_empty_is_the_default(site, time_slice):
	for wrong in (-1, 601):
		settings = frappe.get_doc("Agent Settings")  # a failed save has moved its timestamp on
		settings.flow_time_slice = wrong
		with pytest.raises(frappe.ValidationError, match="between 0 and 600 seconds"):
			settings.save(ignore_permissions=True)
	frappe.db.rollback()
	time_slice(None)
	assert frappe.db.get_single_value("Agent Settings", "flow_time_slice", cache=False) == runs.TIME_SLICE
	time_slice(0)
	assert runs.time_slice() == 0.0  # 0 is kept: a job per step
