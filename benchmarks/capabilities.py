"""What checking a capability costs on a real site (huf/permissions.py ``has_capability``).

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/capabilities.py --site <site> [--rounds 200] [--calls 20000] [--walk]

Prints:
1. SQL statements and Redis commands of the first ``has_capability`` of a request (after a Huf Role
   changed: the role map is read again; in any other request: only Frappe's caches) and of every
   later one in the same request.
2. The warm cost per call, as median and spread over rounds; in each round the sides take turns
   (their order rotating): ``has_capability(user, ...)``, ``has_capability(None, ...)`` as the
   signed-in user, and a bare ``capability in frozenset`` for the floor.
3. With ``--walk``: the wall time of ``pytest tests/site/access/test_access_matrix.py`` (the permission
   walk: every whitelisted method as each persona), run in a child process before anything else.

Nothing is kept: the user it makes is rolled back.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from timing import spread  # noqa: E402

import frappe  # noqa: E402

USER = "bench-capabilities@huf.test"


def us(seconds: float) -> str:
	return f"{seconds * 1e6:.2f} µs"


def walk(site: str, runs: int) -> None:
	"""Time the permission walk as CI runs it (its own workers and web server included)."""
	path = ROOT / "tests" / "site" / "test_access_matrix.py"
	env = dict(os.environ, CI="true", PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
	command = [sys.executable, "-m", "pytest", str(path), "--site", site, "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT)]
	walls, inside = [], []
	for _ in range(runs):
		started = time.perf_counter()
		done = subprocess.run(command, env=env, capture_output=True, text=True)
		walls.append(time.perf_counter() - started)
		summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
		seconds = re.search(r" in ([\d.]+)s", summary)
		inside.append(float(seconds.group(1)) if seconds else float("nan"))
		print(f"  walk: {summary}")
		if done.returncode:  # the time still says what the walk costs; what failed is for the tests to say
			failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
			print("  not all of it passed:", *failed, sep="\n    ")
	print(f"permission walk (pytest {path.relative_to(ROOT)}), {runs} run(s):")
	print(f"  wall, process start included: {spread(walls, unit=lambda s: f'{s:.1f} s')}")
	print(f"  pytest's own count:           {spread(inside, unit=lambda s: f'{s:.1f} s')}")


class Counter:
	"""``frappe.db.sql`` calls and Redis commands while it is on."""

	def __init__(self):
		self.sql = self.redis = 0
		self.on = False
		self.statements: list[str] = []
		real_sql, real_command = frappe.db.sql, frappe.cache.execute_command

		def sql(*args, **kwargs):
			self.sql += self.on
			if self.on:
				self.statements.append(" ".join(str(args[0]).split())[:140])
			return real_sql(*args, **kwargs)

		def command(*args, **kwargs):
			self.redis += self.on
			return real_command(*args, **kwargs)

		frappe.db.sql = sql
		frappe.cache.execute_command = command

	def count(self, call) -> tuple[int, int]:
		self.sql = self.redis = 0
		self.statements = []
		self.on = True
		try:
			call()
		finally:
			self.on = False
		return self.sql, self.redis


def new_request() -> None:
	"""What a new request starts with: empty request-local caches (frappe.init's ``local.cache``, Huf's)."""
	frappe.local.cache = {}
	frappe.local.huf_capabilities = {}
	frappe.local.huf_role_map = None


def make_user() -> str:
	frappe.flags.huf_tests = True  # no default Huf roles for this user: it holds Huf User only
	if frappe.db.exists("User", USER):
		frappe.delete_doc("User", USER, force=True, ignore_permissions=True)
	user = frappe.get_doc({"doctype": "User", "email": USER, "first_name": "Bench", "send_welcome_email": 0})
	user.insert(ignore_permissions=True)
	user.add_roles("Huf User")
	return USER


def statements(user: str) -> None:
	from huf.capabilities import CAPABILITIES
	from huf.permissions import forget_capabilities, has_capability

	counter = Counter()
	has_capability(user, "agent.run")  # Frappe's own caches (DocType meta, the user's roles) filled once
	forget_capabilities()
	new_request()
	after_change = counter.count(lambda: has_capability(user, "agent.run"))
	after_change_sql = counter.statements
	new_request()
	first = counter.count(lambda: has_capability(user, "agent.run"))
	later = counter.count(lambda: [has_capability(user, name) for name in CAPABILITIES for _ in range(100)])
	new_request()
	admin_first = counter.count(lambda: has_capability("Administrator", "settings.write"))
	print("SQL statements / Redis commands per has_capability:")
	print(f"  first of a request after a Huf Role changed: {after_change[0]} / {after_change[1]}")
	print(f"  first of any other request:                  {first[0]} / {first[1]} (Administrator: {admin_first[0]} / {admin_first[1]})")
	print(f"  every later one in the request ({len(CAPABILITIES) * 100} calls): {later[0]} / {later[1]}")
	for statement in after_change_sql:
		print(f"    after a change: {statement}")


def warm(user: str, rounds: int, calls: int) -> None:
	from huf.capabilities import CAPABILITIES
	from huf.permissions import capabilities, has_capability

	names = list(CAPABILITIES) * (calls // len(CAPABILITIES))
	frappe.set_user(user)
	held = capabilities(user)
	sides = {
		"has_capability(user, name)": lambda: [has_capability(user, name) for name in names],
		"has_capability(None, name)": lambda: [has_capability(None, name) for name in names],
		"name in frozenset (floor)": lambda: [name in held for name in names],
	}
	per_call = {side: [] for side in sides}
	for round_ in range(rounds + 3):
		order = list(sides)[round_ % len(sides):] + list(sides)[: round_ % len(sides)]
		for side in order:
			started = time.perf_counter()
			sides[side]()
			elapsed = (time.perf_counter() - started) / len(names)
			if round_ >= 3:  # warm-up
				per_call[side].append(elapsed)
	frappe.set_user("Administrator")
	print(f"warm cost per call, {rounds} rounds of {len(names)} calls (median, middle half, range):")
	for side, values in per_call.items():
		print(f"  {side:28} {spread(values, unit=us)}")
	for side in ("has_capability(user, name)", "has_capability(None, name)"):
		check = statistics.median(per_call[side])
		print(f"  target under 5 µs, {side}: {'met' if check < 5e-6 else 'NOT met'} ({us(check)})")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=200)
	parser.add_argument("--calls", type=int, default=18000, help="calls per round and side")
	parser.add_argument("--walk", action="store_true", help="also time the permission walk (tests/site/access/test_access_matrix.py)")
	parser.add_argument("--walk-runs", type=int, default=1)
	args = parser.parse_args()
	if args.walk:
		walk(args.site, args.walk_runs)
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	try:
		user = make_user()
		statements(user)
		warm(user, args.rounds, args.calls)
	finally:
		frappe.db.rollback()
		frappe.clear_cache(user=USER)
		frappe.destroy()


if __name__ == "__main__":
	main()
