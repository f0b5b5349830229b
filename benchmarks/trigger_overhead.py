"""What Huf costs a site's ordinary writes: ToDo inserts and saves on a site with Huf (and 20 Doc
Event triggers on other doctypes, so the hook runs but nothing matches) against a site without Huf,
on the same bench.

Run from the bench's sites folder with the bench's Python:
    ../env/bin/python /path/to/huf/benchmarks/trigger_overhead.py --site <site with huf> --baseline-site <site without huf> [--rounds 100] [--ops 20]

Three measuring processes, started alike and warm the whole time: the Huf site, the Huf site with
Huf's hook taken out of Frappe's hook table (same database: what the hook itself costs), and the
site without Huf; a fourth adds the triggers before and removes them after. Rounds go through them in turn, each round in a new order, so drift of the shared machine falls
on all three. Each round inserts ``--ops`` ToDos and commits, then saves each once and commits.
Printed, against the site without Huf: the ratios of wall time and of the process's CPU time (wall
time includes what CPU time hides: waits on MariaDB, Redis, the disk), per round as a median with
its spread, and of the totals with a 90% bootstrap interval; the SQL statements per insert and per
save. Then: the hook's own cost per call, the first insert of a fresh process on each site, and how
many ToDo rows each site held (a much larger table makes its inserts slower on its own).
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
OTHER_DOCTYPES = [
	"Note",
	"Contact",
	"Address",
	"Event",
	"Communication",
	"File",
	"Comment",
	"Email Group",
	"Web Page",
	"Blog Post",
]


# --- the measuring process (one per site) --------------------------------------------------------


def connect(site: str):
	import frappe

	frappe.init(site=site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	return frappe


def add_triggers(frappe) -> list[str]:
	"""20 enabled Doc Event triggers, none on ToDo: the hook looks every event up and finds nothing."""
	agent = frappe.get_all("Agent", filters={"disabled": 0}, pluck="name", limit=1)
	if not agent:
		sys.path.append(str(ROOT))
		from tests.site import fixtures
		from tests.support.scripted_llm import ScriptedLLM

		fixtures.allowed_hosts(*fixtures.LOCAL_HOSTS)  # the scripted server's address, for the provider's check
		with ScriptedLLM() as llm:
			agent = [fixtures.agent(llm, name="Bench Trigger Agent")]
	made = []
	for doctype in OTHER_DOCTYPES:
		for event in ("after_insert", "on_update"):
			trigger = {"doctype": "Agent Trigger", "agent": agent[0], "trigger_type": "Doc Event", "reference_doctype": doctype}
			trigger |= {"doc_event": event, "trigger_name": f"bench {doctype} {event}"}
			made.append(frappe.get_doc(trigger).insert().name)
	frappe.db.commit()
	return made


class Clocks:
	"""Wall and CPU time of a block, and the SQL statements it sent."""

	def __init__(self, frappe):
		self.real_sql, self.queries = frappe.db.sql, 0

		def counted(*args, **kwargs):
			self.queries += 1
			return self.real_sql(*args, **kwargs)

		frappe.db.sql = counted

	def __enter__(self):
		self.queries, self.wall, self.cpu = 0, time.perf_counter(), time.process_time()
		return self

	def __exit__(self, *exc):
		self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def one_round(frappe, clocks: Clocks, ops: int, round_: int, names: list[str]) -> dict:
	with clocks:
		made = [frappe.get_doc({"doctype": "ToDo", "description": f"benchmark {round_} {i}"}).insert().name for i in range(ops)]
		frappe.db.commit()
	insert = {"insert_wall": clocks.wall, "insert_cpu": clocks.cpu, "insert_sql": clocks.queries / ops}
	with clocks:
		for name in made:
			doc = frappe.get_doc("ToDo", name)
			doc.description += " (edited)"
			doc.save()
		frappe.db.commit()
	names += made
	return insert | {"save_wall": clocks.wall, "save_cpu": clocks.cpu, "save_sql": clocks.queries / ops}


def hook_call_us(frappe, calls: int = 20000) -> dict:
	"""Huf's hook for a document no trigger listens to, through Frappe's own dispatch (frappe.call +
	get_attr, as Document.run_method does it): within a request, and as the first event of a request
	or job (when it reads the trigger version from Redis once)."""
	doc = frappe.get_doc({"doctype": "ToDo", "description": "unwatched"})
	hook = frappe.get_attr("huf.ai.triggers.doc_events.on_doc_event")
	started = time.perf_counter()
	for _ in range(calls):
		frappe.call(hook, doc, "on_update")
	within = (time.perf_counter() - started) / calls * 1e6
	started = time.perf_counter()
	for _ in range(calls // 10):
		frappe.local.huf_triggers_checked = False
		frappe.call(hook, doc, "on_update")
	first = (time.perf_counter() - started) / (calls // 10) * 1e6
	return {"hook_us": within, "hook_first_in_request_us": first}


def child(site: str, hook_out: bool, ops: int) -> None:
	"""Reads commands on stdin ("round <n>", "hook", "quit"), answers one JSON line each."""
	started = time.perf_counter()
	frappe = connect(site)
	if hook_out:  # this process keeps its frappe.local: the table stays as set here
		for events in frappe.get_doc_hooks().values():
			for event, methods in events.items():
				events[event] = [m for m in methods if not m.startswith("huf.")]
	first = frappe.get_doc({"doctype": "ToDo", "description": "first in this process"}).insert()
	frappe.db.commit()
	hello = {"first_ms": (time.perf_counter() - started) * 1000, "todos": frappe.db.count("ToDo")}
	clocks, names = Clocks(frappe), [first.name]
	print(json.dumps(hello), flush=True)
	for line in sys.stdin:
		command = line.split()
		if command[0] == "round":
			answer = one_round(frappe, clocks, ops, int(command[1]), names)
		elif command[0] == "hook":
			answer = hook_call_us(frappe)
		else:
			break
		print(json.dumps(answer), flush=True)
	frappe.db.sql = clocks.real_sql
	frappe.db.delete("ToDo", {"name": ["in", names]})
	frappe.db.commit()
	print(json.dumps({"bye": True}), flush=True)


def holder(site: str) -> None:
	"""Adds the triggers, waits for "quit", removes them. A process of its own, so that the measuring
	processes all start alike: one that had done this work first (imports, objects for the garbage
	collector to walk) saved ToDos 3% slower than its twin in an A/A comparison."""
	frappe = connect(site)
	made = add_triggers(frappe)
	print(json.dumps({"triggers": len(made)}), flush=True)
	sys.stdin.readline()
	for name in made:
		frappe.delete_doc("Agent Trigger", name, force=True)
	frappe.db.commit()
	print(json.dumps({"bye": True}), flush=True)


# --- the driver ----------------------------------------------------------------------------------


class Site:
	def __init__(self, site: str, ops: int, *flags: str):
		args = [sys.executable, __file__, "--child", site, "--ops", str(ops), *flags]
		env = dict(os.environ, PYTHONPATH=str(ROOT))
		self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
		self.hello = self.read()

	def ask(self, command: str) -> dict:
		self.proc.stdin.write(command + "\n")
		self.proc.stdin.flush()
		return self.read()

	def read(self) -> dict:
		line = self.proc.stdout.readline()
		if not line:
			sys.exit(f"the measuring process stopped (exit code {self.proc.wait()})")
		return json.loads(line)

	def close(self) -> None:
		self.ask("quit")
		self.proc.wait()


def spread(ratios: list[float]) -> str:
	ratios = sorted(ratios)
	deciles = statistics.quantiles(ratios, n=10, method="inclusive")
	return f"median {statistics.median(ratios):.3f} (p10-p90 {deciles[0]:.3f}-{deciles[-1]:.3f})"


def total_ratio(pairs: list[tuple[dict, dict]], what: str) -> str:
	"""Sum over the rounds, one side over the other, with a 90% bootstrap interval (rounds resampled)."""
	import random

	def ratio(sample):
		return sum(a[what] for a, _ in sample) / sum(b[what] for _, b in sample)

	rng = random.Random(15)
	boot = sorted(ratio(rng.choices(pairs, k=len(pairs))) for _ in range(2000))
	return f"total {ratio(pairs):.3f} [{boot[100]:.3f}-{boot[1899]:.3f}]"


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site")
	parser.add_argument("--baseline-site")
	parser.add_argument("--rounds", type=int, default=100)
	parser.add_argument("--ops", type=int, default=20)
	parser.add_argument("--child")
	parser.add_argument("--hold-triggers", action="store_true")
	parser.add_argument("--hook-out", action="store_true")
	args = parser.parse_args()
	if args.child:
		return holder(args.child) if args.hold_triggers else child(args.child, args.hook_out, args.ops)
	import random

	triggers = Site(args.site, args.ops, "--hold-triggers")
	sites = {
		"Huf site": Site(args.site, args.ops),
		"Huf site, hook out": Site(args.site, args.ops, "--hook-out"),
		"baseline": Site(args.baseline_site, args.ops),
	}
	rounds: list[dict] = []
	rng = random.Random(15)
	try:
		for round_ in range(args.rounds):
			order = list(sites)
			rng.shuffle(order)
			rounds.append({name: sites[name].ask(f"round {round_}") for name in order})
		hook = sites["Huf site"].ask("hook")
	finally:
		for site in (*sites.values(), triggers):
			site.close()
	print(f"{args.rounds} rounds of {args.ops} ToDo inserts and {args.ops} saves per process, in turn:")
	for name in ("Huf site", "Huf site, hook out"):
		pairs = [(r[name], r["baseline"]) for r in rounds]
		print(f"  {name} / baseline:")
		for what in ("insert_wall", "insert_cpu", "save_wall", "save_cpu"):
			ratios = [a[what] / b[what] for a, b in pairs]
			per_op = statistics.median(a[what] for a, _ in pairs) / args.ops * 1e3
			print(
				f"    {what.replace('_', ' '):11} per round {spread(ratios)}, {total_ratio(pairs, what)}   ({per_op:.2f} ms an op)"
			)
		added = [statistics.median(a[what] - b[what] for a, b in pairs) for what in ("insert_sql", "save_sql")]
		print(f"    SQL statements added per insert {added[0]:+.2f}, per save {added[1]:+.2f}")
	huf, base = sites["Huf site"], sites["baseline"]
	insert_us = statistics.median(r["Huf site"]["insert_wall"] for r in rounds) / args.ops * 1e6
	print(f"  the hook: {hook['hook_us']:.1f} us a call within a request, {hook['hook_first_in_request_us']:.1f} us as the first")
	print(
		f"  event of a request or job; an insert fires 3 of its events: {3 * hook['hook_us'] / insert_us:.1%} of an insert's wall time"
	)
	print(
		f"  first insert of a fresh process (connect included): {huf.hello['first_ms']:.0f} ms with Huf, {base.hello['first_ms']:.0f} ms without"
	)
	print(f"  ToDo rows before: {huf.hello['todos']} on the Huf site, {base.hello['todos']} on the baseline")


if __name__ == "__main__":
	main()
