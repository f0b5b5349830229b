"""The bench's RQ queues are shared by all its sites: the suite's clean-up between tests removes only
the test site's own jobs, and a test's worker stopped while running another site's job finishes it
first."""

from __future__ import annotations

import frappe
from frappe.utils.background_jobs import get_queue
from rq.job import Job
from rq.registry import StartedJobRegistry

from tests.site.conftest import drop_site_jobs, wait_for

OTHER_SITE = "other-site.localhost"


def other_sites_job(queue, started: bool = False) -> Job:
	"""A job as Frappe enqueues it for another site of the bench (straight through RQ)."""
	job = queue.enqueue_call(
		"frappe.utils.background_jobs.execute_job",
		kwargs={"site": OTHER_SITE, "user": "Administrator", "method": "frappe.ping", "event": None, "job_name": "frappe.ping", "is_async": True, "kwargs": {}},
		job_id=f"{OTHER_SITE}::huf-test-{frappe.generate_hash(length=8)}",
	)
	if started:  # as a worker of that site's would leave it while running it
		queue.remove(job)
		StartedJobRegistry(queue=queue).add(job, 600)
	return job


def test_the_clean_up_between_tests_leaves_other_sites_jobs_alone(site):
	"""No worker runs here, so the jobs stay where the test put them."""
	queue = get_queue("default")
	started = StartedJobRegistry(queue=queue)
	theirs_queued, theirs_started = other_sites_job(queue), other_sites_job(queue, started=True)
	ours_queued = frappe.enqueue("frappe.ping", queue="default")
	ours_started = frappe.enqueue("frappe.ping", queue="default")
	queue.remove(ours_started)
	started.add(ours_started, 600)
	try:
		drop_site_jobs(site)
		queued, running = queue.get_job_ids(), started.get_job_ids()
		assert theirs_queued.id in queued and theirs_started.id in running  # still waiting, still running
		assert Job.exists(theirs_queued.id, connection=queue.connection) and Job.exists(theirs_started.id, connection=queue.connection)
		assert ours_queued.id not in queued and ours_started.id not in running
		assert not Job.exists(ours_queued.id, connection=queue.connection) and not Job.exists(ours_started.id, connection=queue.connection)
	finally:
		for job in (theirs_queued, theirs_started):
			started.remove(job)
			job.delete()


def test_a_worker_stopped_at_the_end_of_a_test_finishes_another_sites_job(site, workers):
	queue = get_queue("default")
	job = queue.enqueue_call("time.sleep", args=(3,), job_id=f"{OTHER_SITE}::huf-test-{frappe.generate_hash(length=8)}")
	try:
		workers.start(1)
		wait_for(lambda: job.get_status(refresh=True) == "started", 90, 0.05, "the worker to take the job")
		workers.stop()
		assert job.get_status(refresh=True) == "finished"  # not failed by the stop
	finally:
		job.delete()
