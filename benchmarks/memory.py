"""What one set_conversation_data write costs (issue target: under 5 ms and 2 SQL statements).

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/memory.py --site <site> [--writes 500]

Makes a conversation (rolled back at the end: the site keeps nothing), then times ``--writes``
writes through the tool an agent calls (``huf.ai.agent_state.memory.memory_tools``' set_conversation_data),
over 50 keys in turn (a working memory of about 3 KB), and counts the SQL statements each one sends. Prints the
median and spread of the wall time per write, and the statements per write.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--writes", type=int, default=500)
	args = parser.parse_args()
	sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
	import frappe

	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	from huf.ai.agent_state.memory import memory_tools
	from huf.ai.tools.context import RunContext

	from huf.ai.run.conversations import new_conversation_for

	any_agent = frappe.get_all("Agent", pluck="name", limit=1)
	if not any_agent:
		sys.exit("The site needs one agent (any) for the conversation to belong to.")
	conversation = frappe._dict(name=new_conversation_for(any_agent[0], "Administrator", "benchmark"))
	agent = frappe._dict(enable_conversation_data=1)
	setter = {tool.name: tool for tool in memory_tools(agent, RunContext(run="", conversation=conversation.name, agent="", user="Administrator"))}[
		"set_conversation_data"
	]
	setter.handler({"key": "warm", "value": 0})  # Agent Settings read once, as in a run
	real_sql = frappe.db.sql
	statements: list[int] = []
	times: list[float] = []
	try:
		for i in range(args.writes):
			sent = []

			def counted(query, *a, **kw):
				sent.append(query)
				return real_sql(query, *a, **kw)

			frappe.db.sql = counted
			started = time.perf_counter()
			setter.handler({"key": f"k{i % 50}", "value": {"customer": f"CUST-{i:05d}", "open_orders": [i, i + 1]}})
			times.append(time.perf_counter() - started)
			frappe.db.sql = real_sql
			statements.append(len(sent))
	finally:
		frappe.db.sql = real_sql
		frappe.db.rollback()
		frappe.destroy()
	spread = statistics.quantiles(times, n=10)
	print(
		f"set_conversation_data: {statistics.median(times) * 1000:.2f} ms median (p10 {spread[0] * 1000:.2f}, p90 {spread[-1] * 1000:.2f}) "
		f"over {args.writes} writes; SQL statements per write: median {statistics.median(statements):.0f}, max {max(statements)}"
	)


if __name__ == "__main__":
	main()
