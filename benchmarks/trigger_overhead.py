"""What Huf costs a site's ordinary writes: ToDo inserts and saves on a site with Huf (and 20 Doc
Event triggers on other doctypes, so the hook runs but nothing matches) against a site without Huf,
on the same bench.

Run from the bench's sites folder with the bench's Python:
    ../env/bin/python /path/to/huf/benchmarks/trigger_overhead.py --site <site with huf> --baseline-site <site without huf> [--rounds 30] [--ops 100]

One process per site, both connected and warm the whole time; rounds alternate between them (A B,
then B A, ...), so drift of the shared machine falls on both. Each round inserts ``--ops`` ToDos and
commits, then saves each once and commits. Per round pair this prints the Huf/baseline ratios of
wall time and of the process's CPU time (wall time includes what CPU time hides: waits on MariaDB,
Redis, the disk), as a median with its spread, and the SQL statements per insert and per save.
Then: the hook's own cost per call, the first insert of a fresh process on each site, and how many
ToDo rows each site held (a much larger table makes its inserts slower on its own).
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


def child(site: str, with_triggers: bool, ops: int) -> None:
	"""Reads commands on stdin ("round <n>", "hook", "quit"), answers one JSON line each."""
	started = time.perf_counter()
	frappe = connect(site)
	first = frappe.get_doc({"doctype": "ToDo", "description": "first in this process"}).insert()
	frappe.db.commit()
	hello = {"first_ms": (time.perf_counter() - started) * 1000, "todos": frappe.db.count("ToDo")}
	made = add_triggers(frappe) if with_triggers else []
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
	for name in made:
		frappe.delete_doc("Agent Trigger", name, force=True)
	frappe.db.commit()
	print(json.dumps({"bye": True}), flush=True)


# --- the driver ----------------------------------------------------------------------------------


class Site:
	def __init__(self, site: str, with_triggers: bool, ops: int):
		args = [sys.executable, __file__, "--child", site, "--ops", str(ops)] + (["--with-triggers"] if with_triggers else [])
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
	deciles = statistics.quantiles(ratios, n=10)
	return f"median {statistics.median(ratios):.3f}  (p10-p90 {deciles[0]:.3f}-{deciles[-1]:.3f}, min-max {ratios[0]:.3f}-{ratios[-1]:.3f})"


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site")
	parser.add_argument("--baseline-site")
	parser.add_argument("--rounds", type=int, default=30)
	parser.add_argument("--ops", type=int, default=100)
	parser.add_argument("--child")
	parser.add_argument("--with-triggers", action="store_true")
	args = parser.parse_args()
	if args.child:
		return child(args.child, args.with_triggers, args.ops)
	huf, base = Site(args.site, True, args.ops), Site(args.baseline_site, False, args.ops)
	pairs = []
	try:
		for round_ in range(args.rounds):
			order = (huf, base) if round_ % 2 == 0 else (base, huf)
			answers = {site: site.ask(f"round {round_}") for site in order}
			pairs.append((answers[huf], answers[base]))
		hook = huf.ask("hook")
	finally:
		huf.close()
		base.close()
	print(f"{args.rounds} rounds of {args.ops} ToDo inserts and {args.ops} saves per site, alternating; Huf site / baseline:")
	for what in ("insert_wall", "insert_cpu", "save_wall", "save_cpu"):
		ratios = [h[what] / b[what] for h, b in pairs]
		per_op = statistics.median(h[what] for h, _ in pairs) / args.ops * 1e3
		print(f"  {what.replace('_', ' '):11} ratio {spread(ratios)}   Huf site {per_op:.2f} ms an op")
	for what in ("insert_sql", "save_sql"):
		added = statistics.median(h[what] - b[what] for h, b in pairs)
		print(f"  SQL statements added per {what[:-4]}: {added:+.2f}")
	insert_us = statistics.median(h["insert_wall"] for h, _ in pairs) / args.ops * 1e6
	print(f"  the hook: {hook['hook_us']:.1f} us a call within a request, {hook['hook_first_in_request_us']:.1f} us as the first")
	print(f"  event of a request or job; an insert fires 3 of its events: {3 * hook['hook_us'] / insert_us:.1%} of an insert's wall time")
	print(f"  first insert of a fresh process (connect included): {huf.hello['first_ms']:.0f} ms with Huf, {base.hello['first_ms']:.0f} ms without")
	print(f"  ToDo rows before: {huf.hello['todos']} on the Huf site, {base.hello['todos']} on the baseline")


if __name__ == "__main__":
	main()
