"""What Huf's doc-event hook costs a site where no trigger matches: inserting and saving ToDo
documents with 20 Doc Event triggers on other doctypes.

Run from the bench's sites folder with the bench's Python:
    ../env/bin/python /path/to/huf/benchmarks/trigger_overhead.py --site <site with huf> [--baseline-site <site without huf>] [--docs 2000]

1. On the Huf site, in one process, rounds alternate between Huf's hook in place and taken out of
   Frappe's hook table, so both see the same database state: the ratios of this process's CPU time
   (target under 1.03) and the SQL statements the hook adds per insert and per save (target 0).
2. With --baseline-site, the same work on a site without Huf, each site in its own fresh process,
   one after the other (noisier: the two databases differ).
3. The first insert of a fresh process on each site: the hook must not import the agent stack.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OTHER_DOCTYPES = ["Note", "Contact", "Address", "Event", "Communication", "File", "Comment", "Email Group", "Web Page", "Blog Post"]
ROUNDS = 10


def setup(site: str, with_triggers: bool):
	import frappe

	frappe.init(site=site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	made = []
	if with_triggers:
		agent = frappe.get_all("Agent", filters={"disabled": 0}, pluck="name", limit=1)
		if not agent:
			sys.exit("The Huf site needs one enabled Agent for the triggers (any will do).")
		for doctype in OTHER_DOCTYPES:
			for event in ("after_insert", "on_update"):
				made.append(frappe.get_doc({"doctype": "Agent Trigger", "agent": agent[0], "trigger_type": "Doc Event", "reference_doctype": doctype, "doc_event": event, "trigger_name": f"bench {doctype} {event}"}).insert().name)
		frappe.db.commit()
	return frappe, made


class Counter:
	def __init__(self, frappe):
		self.frappe, self.real, self.n = frappe, frappe.db.sql, 0
		frappe.db.sql = self

	def __call__(self, *args, **kwargs):
		self.n += 1
		return self.real(*args, **kwargs)


def batch(frappe, count: int, counter: Counter) -> tuple[float, float, int, int, list[str]]:
	"""Insert ``count`` ToDos, then save each once: (insert s, save s, insert SQL, save SQL, names).

	Times are this process's CPU time: the hook's cost is Python work, while the wall time of a
	commit-heavy loop on a shared 2-core machine swings by more than the whole budget."""
	counter.n = 0
	started = time.process_time()
	names = [frappe.get_doc({"doctype": "ToDo", "description": f"benchmark {i}"}).insert().name for i in range(count)]
	frappe.db.commit()
	insert_s, insert_q = time.process_time() - started, counter.n
	counter.n = 0
	started = time.process_time()
	for name in names:
		doc = frappe.get_doc("ToDo", name)
		doc.description += " (edited)"
		doc.save()
	frappe.db.commit()
	return insert_s, time.process_time() - started, insert_q, counter.n, names


def measure(site: str, docs: int, with_triggers: bool, alternate: bool) -> dict:
	started = time.perf_counter()
	frappe, made = setup(site, with_triggers)
	first = frappe.get_doc({"doctype": "ToDo", "description": "first in this process"}).insert()
	first_ms = (time.perf_counter() - started) * 1000
	counter = Counter(frappe)
	hooks = frappe.get_doc_hooks()
	with_hook = {doctype: {event: list(methods) for event, methods in events.items()} for doctype, events in hooks.items()}
	without = {doctype: {event: [m for m in methods if not m.startswith("huf.")] for event, methods in events.items()} for doctype, events in hooks.items()}
	modes = ("huf", "hook out") if alternate else ("site",)
	rows: dict[str, list] = {mode: [] for mode in modes}
	names = [first.name]
	for round_ in range(ROUNDS):
		for mode in modes if round_ % 2 == 0 else tuple(reversed(modes)):  # neither always goes first
			frappe.local.doc_events_hooks = without if mode == "hook out" else with_hook
			result = batch(frappe, docs // ROUNDS, counter)
			rows[mode].append(result[:4])
			names += result[4]
	frappe.db.sql = counter.real
	frappe.local.doc_events_hooks = with_hook
	hook_us = hook_call_us(frappe) if alternate else None
	frappe.db.delete("ToDo", {"name": ["in", names]})
	for name in made:
		frappe.delete_doc("Agent Trigger", name, force=True)
	frappe.db.commit()
	per = docs // ROUNDS
	return {
		mode: {
			"insert_s": statistics.median(r[0] for r in results) * ROUNDS,
			"save_s": statistics.median(r[1] for r in results) * ROUNDS,
			"queries_per_insert": sum(r[2] for r in results) / (per * ROUNDS),
			"queries_per_save": sum(r[3] for r in results) / (per * ROUNDS),
			"first_ms": first_ms,
			"hook_us": hook_us,
		}
		for mode, results in rows.items()
	}


def hook_call_us(frappe, calls: int = 20000) -> float:
	"""One call of Huf's hook for a document no trigger listens to, through Frappe's own dispatch
	(frappe.call + get_attr, as Document.run_method does it), in microseconds."""
	doc = frappe.get_doc({"doctype": "ToDo", "description": "unwatched"})
	started = time.process_time()
	for _ in range(calls):
		frappe.call(frappe.get_attr("huf.ai.triggers.doc_events.on_doc_event"), doc, "on_update")
	return (time.process_time() - started) / calls * 1e6


def fresh(site: str, docs: int, with_triggers: bool, alternate: bool) -> dict:
	args = [sys.executable, __file__, "--measure", site, "--docs", str(docs)] + (["--with-triggers"] if with_triggers else []) + (["--alternate"] if alternate else [])
	out = subprocess.run(args, capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
	return json.loads(out.strip().splitlines()[-1])


def compare(huf: dict, base: dict) -> None:
	print(f"    insert CPU time ratio: {huf['insert_s'] / base['insert_s']:.3f}   ({huf['insert_s']:.2f} s vs {base['insert_s']:.2f} s)")
	print(f"    save CPU time ratio:   {huf['save_s'] / base['save_s']:.3f}   ({huf['save_s']:.2f} s vs {base['save_s']:.2f} s)")
	print(f"    SQL statements added per insert: {huf['queries_per_insert'] - base['queries_per_insert']:+.2f}   per save: {huf['queries_per_save'] - base['queries_per_save']:+.2f}")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site")
	parser.add_argument("--baseline-site")
	parser.add_argument("--docs", type=int, default=2000)
	parser.add_argument("--measure")
	parser.add_argument("--with-triggers", action="store_true")
	parser.add_argument("--alternate", action="store_true")
	args = parser.parse_args()
	if args.measure:
		print(json.dumps(measure(args.measure, args.docs, args.with_triggers, args.alternate)))
		return
	print(f"{args.docs} ToDo inserts and saves each way; 20 Doc Event triggers on other doctypes; medians of {ROUNDS} rounds")
	same = fresh(args.site, args.docs, True, alternate=True)
	print("  Huf's hook in place vs taken out, same site and process, rounds alternating:")
	compare(same["huf"], same["hook out"])
	per_insert = same["hook out"]["insert_s"] / args.docs * 1e6
	hook = same["huf"]["hook_us"]
	print(f"    the hook itself: {hook:.1f} us a call with Frappe's dispatch; an insert fires 3 of its events and a save 2:")
	print(f"    {3 * hook:.0f} us of an insert's {per_insert:.0f} us of CPU, ratio {1 + 3 * hook / per_insert:.3f}")
	if args.baseline_site:
		base = fresh(args.baseline_site, args.docs, False, alternate=False)["site"]
		huf = fresh(args.site, args.docs, True, alternate=False)["site"]
		print("  Huf site vs a site without Huf, one fresh process each:")
		compare(huf, base)
		print(f"  first insert of a fresh process (connect included): {huf['first_ms']:.0f} ms with Huf, {base['first_ms']:.0f} ms without")


if __name__ == "__main__":
	main()
