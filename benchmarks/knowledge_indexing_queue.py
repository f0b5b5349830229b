"""Many inputs added at once: N Word files added to one knowledge source, one request each (as the
web app's uploader sends them), then one pasted text to a second source, with one RQ worker
(Frappe's, a fork per job) running all along.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed
(no other worker may serve the bench's queues meanwhile):
    ../env/bin/python /path/to/huf/benchmarks/knowledge_indexing_queue.py --site <site> --inputs 150 --rounds 3

Printed per round, then as medians:
- jobs: index jobs enqueued for the first source;
- all indexed: seconds from the first add until every one of its inputs is indexed;
- queue drained: seconds from the first add until the last of its jobs ended (the worker is free);
- second source waited: seconds from its input's add until its job started, and until indexed.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX_JOB = "huf.ai.knowledge.indexer.index_source"


def word_file(number: int) -> bytes:
	from docx import Document

	document = Document()
	document.add_heading(f"Procedure {number}", 1)
	for part in range(6):
		document.add_paragraph(
			f"Step {part} of procedure {number}: check valve V{number}-{part}, log the pressure reading, "
			"and sign the sheet before handing the station over to the next shift."
		)
	out = io.BytesIO()
	document.save(out)
	return out.getvalue()


def fresh_source(frappe, name: str) -> str:
	if frappe.db.exists("Knowledge Source", name):
		frappe.delete_doc("Knowledge Source", name, force=True)
	doc = frappe.get_doc({"doctype": "Knowledge Source", "source_name": name, "description": "benchmark"}).insert()
	frappe.db.commit()
	return doc.name


def jobs_for(frappe, source: str) -> list:
	"""Every index job of ``source`` still known to RQ: queued, running, finished or failed."""
	from rq.job import Job
	from rq.registry import FailedJobRegistry, FinishedJobRegistry, StartedJobRegistry

	from frappe.utils.background_jobs import get_queue

	queue = get_queue("long")
	ids = set(queue.get_job_ids())
	for registry in (StartedJobRegistry, FinishedJobRegistry, FailedJobRegistry):
		ids |= set(registry(queue=queue).get_job_ids())
	jobs = [j for j in Job.fetch_many(list(ids), connection=queue.connection) if j]
	return [
		j
		for j in jobs
		if j.kwargs.get("method") == INDEX_JOB
		and j.kwargs.get("site") == frappe.local.site
		and j.kwargs.get("kwargs", {}).get("source") == source
	]


def wait(frappe, predicate, timeout: float = 900):
	deadline = time.monotonic() + timeout
	while time.monotonic() < deadline:
		frappe.db.commit()
		if predicate():
			return time.monotonic()
		time.sleep(0.2)
	sys.exit("timed out")


def one_round(frappe, number: int, inputs: int) -> dict:
	from huf.ai.knowledge import api

	first = fresh_source(frappe, f"Bench Queue {number} A")
	second = fresh_source(frappe, f"Bench Queue {number} B")
	files = []
	for i in range(inputs):
		file = frappe.get_doc(
			{"doctype": "File", "file_name": f"bench-{number}-{i}.docx", "content": word_file(i), "is_private": 1}
		).insert()
		files.append(file.file_url)
	frappe.db.commit()

	started = time.monotonic()
	for url in files:
		api.add_input(first, "File", file_url=url)
		frappe.db.commit()
	other_added = time.monotonic()
	other = api.add_input(second, "Text", text=f"Round {number}: the loading bay closes at six.")["name"]
	frappe.db.commit()

	def done(source: str) -> bool:
		return not frappe.db.exists("Knowledge Input", {"knowledge_source": source, "status": ("in", ["Pending", "Indexing"])})

	all_indexed = wait(frappe, lambda: done(first))
	other_indexed = wait(frappe, lambda: done(second))
	wait(frappe, lambda: all(j.ended_at for j in jobs_for(frappe, first) + jobs_for(frappe, second)))
	jobs = jobs_for(frappe, first)
	other_job = min(jobs_for(frappe, second), key=lambda j: j.enqueued_at)
	# RQ's timestamps are UTC wall clock; this process's are monotonic: convert through "now"
	now_wall, now_mono = time.time(), time.monotonic()

	def mono(moment) -> float:
		return now_mono - (now_wall - moment.timestamp())

	indexed = frappe.db.count("Knowledge Input", {"knowledge_source": first, "status": "Indexed"})
	return {
		"jobs": len(jobs),
		"indexed": f"{indexed}/{inputs}",
		"all indexed": all_indexed - started,
		"queue drained": max(mono(j.ended_at) for j in jobs) - started,
		"second source: job started after": mono(other_job.started_at) - other_added,
		"second source: indexed after": other_indexed - other_added,
		"other": other,
	}


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--inputs", type=int, default=150)
	parser.add_argument("--rounds", type=int, default=3)
	args = parser.parse_args()
	sys.path.append(str(ROOT))
	import frappe

	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from tests.site.conftest import drop_site_jobs

	drop_site_jobs(args.site, ("long",))  # the bench's queue: other sites' jobs stay
	log = open(os.path.join(os.getcwd(), "..", "logs", "huf-bench-workers.log"), "ab")  # noqa: SIM115
	worker = subprocess.Popen(
		[sys.executable, "-m", "frappe.utils.bench_helper", "frappe", "worker", "--queue", "long,default,short"],
		stdout=log,
		stderr=subprocess.STDOUT,
		start_new_session=True,
	)
	rows = []
	try:
		time.sleep(5)  # the worker's start (imports) is not what is measured
		for number in range(1, args.rounds + 1):
			row = one_round(frappe, number, args.inputs)
			row.pop("other")
			rows.append(row)
			print(f"round {number}: " + ", ".join(f"{k} {v:.1f} s" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()))
	finally:
		os.killpg(worker.pid, 15)
		worker.wait()
		for number in range(1, args.rounds + 1):
			for suffix in ("A", "B"):
				if frappe.db.exists("Knowledge Source", f"Bench Queue {number} {suffix}"):
					frappe.delete_doc("Knowledge Source", f"Bench Queue {number} {suffix}", force=True)
		frappe.db.commit()
	print(f"medians over {len(rows)} rounds of {args.inputs} inputs:")
	for key in rows[0]:
		values = [r[key] for r in rows]
		print(f"  {key}: {statistics.median(values):.1f}" if isinstance(values[0], (int, float)) else f"  {key}: {values}")


if __name__ == "__main__":
	main()
