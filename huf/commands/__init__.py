"""Bench commands of Huf (none yet), and the worker warm-up.

Frappe's CLI imports every app's ``commands`` module when it starts, in the process that later
forks one child per background job. When that process is an RQ worker, importing LiteLLM and Huf's
run path here, once, means every forked job inherits them instead of paying seconds of imports per
agent run (measured in benchmarks/README.md).
"""

import sys

commands = []

if {"worker", "worker-pool"}.intersection(sys.argv[1:]):
	from huf.ai.engine.llm import preload

	preload()
	import huf.ai.runs  # noqa: F401, E402 - Frappe's document and query modules come with it
