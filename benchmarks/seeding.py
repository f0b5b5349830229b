"""Seeding 200 records from an app (huf/ai/seeding.py): the first time, and again (a second migrate).

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/seeding.py --site <site> [--again 20]

A throwaway app package is written to a temp folder, put on sys.path and counted as installed in
this process only (``frappe.get_installed_apps`` wrapped; no site or apps.txt changes). Its huf/
folder holds 200 records: 120 tools (Get List, in 12 files of 10), 40 knowledge sources (one file),
30 agents with 4 of those tools each (3 files) and 10 Draft flows (one file each). Seeded once
(timed), then seeded ``--again`` times more: each run's wall time and the SQL statements it sent,
writes among them. Everything is rolled back at the end: the site keeps nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

APP = "huf_bench_seed"
WRITES = ("insert", "update", "delete", "replace")


def write_app(root: Path) -> int:
	seeds = root / APP / "huf"
	for folder in ("tools", "knowledge", "agents", "flows"):
		(seeds / folder).mkdir(parents=True)
	(root / APP / "__init__.py").write_text("")
	count = 0
	for f in range(12):
		tools = [
			{"tool_name": f"bench_seed_tool_{f}_{i}", "types": "Get List", "reference_doctype": "ToDo", "tool_type": "Document Operations",
			 "description": f"List ToDos ({f}/{i})."}
			for i in range(10)
		]  # fmt: skip
		(seeds / "tools" / f"tools_{f:02}.json").write_text(json.dumps(tools))
		count += len(tools)
	sources = [{"source_name": f"Bench Seed Source {i}", "description": "Seeded for the benchmark."} for i in range(40)]
	(seeds / "knowledge" / "sources.json").write_text(json.dumps(sources))
	count += len(sources)
	for f in range(3):
		agents = [
			{"agent_name": f"Bench Seed Agent {f}-{i}", "instructions": "Benchmark.", "disabled": 1,
			 "agent_tool": [{"tool": f"bench_seed_tool_{(f * 10 + i) % 12}_{k}"} for k in range(4)]}
			for i in range(10)
		]  # fmt: skip
		(seeds / "agents" / f"agents_{f}.json").write_text(json.dumps(agents))
		count += len(agents)
	for i in range(10):
		flow = {
			"flow_id": f"bench-seed-flow-{i}", "flow_name": f"Bench seed flow {i}", "status": "Draft",
			"definition_json": {"nodes": [{"id": "done", "type": "end", "data": {"label": "Done", "config": {}}}], "edges": []},
		}  # fmt: skip
		(seeds / "flows" / f"flow_{i}.json").write_text(json.dumps(flow))
		count += 1
	return count


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--again", type=int, default=20)
	args = parser.parse_args()

	import frappe

	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from huf.ai import seeding
	with tempfile.TemporaryDirectory() as folder:
		records = write_app(Path(folder))
		sys.path.insert(0, folder)
		installed = frappe.get_installed_apps

		def with_bench_app(*, _ensure_on_bench=False):
			return installed(_ensure_on_bench=_ensure_on_bench) + ([] if _ensure_on_bench else [APP])

		frappe.get_installed_apps = with_bench_app
		real_sql = frappe.db.sql
		statements: list[str] = []

		def counted(query, *a, **kw):
			statements.append(str(query).lstrip()[:12].lower())
			return real_sql(query, *a, **kw)

		frappe.db.sql = counted
		try:
			if not frappe.db.exists("AI Model", {"disabled": 0}):  # agents take the site's first model (rolled back)
				frappe.get_doc({"doctype": "AI Provider", "provider_name": "Bench Seed Provider", "api_key": "sk-bench"}).insert()
				frappe.get_doc({"doctype": "AI Model", "model_name": "bench-seed-model", "provider": "Bench Seed Provider"}).insert()
			seeding.seed([APP])  # warm: meta, the controllers' imports (then undone)
			frappe.db.rollback()
			statements.clear()
			start = time.perf_counter()
			first = seeding.seed([APP])
			first_time = time.perf_counter() - start
			first_sql, first_writes = len(statements), sum(s.startswith(WRITES) for s in statements)
			assert len(first.created) == records, first.as_dict()
			times, sqls, writes = [], [], []
			for _ in range(args.again):
				statements.clear()
				start = time.perf_counter()
				report = seeding.seed([APP])
				times.append(time.perf_counter() - start)
				sqls.append(len(statements))
				writes.append(sum(s.startswith(WRITES) for s in statements))
				assert report.unchanged == records, report.as_dict()
		finally:
			frappe.db.sql = real_sql
			frappe.db.rollback()
			frappe.get_installed_apps = installed
			sys.path.remove(folder)
	print(f"records: {records}")
	print(f"first seeding: {first_time * 1000:.0f} ms, {first_sql} SQL statements ({first_writes} writes)")
	print(
		f"again (x{args.again}): median {statistics.median(times) * 1000:.1f} ms (max {max(times) * 1000:.1f} ms), "
		f"{statistics.median(sqls):.0f} SQL statements, writes: {max(writes)}"
	)
	frappe.destroy()


if __name__ == "__main__":
	main()
