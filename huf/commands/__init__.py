"""Bench commands of Huf (none yet), and the worker warm-up.

Frappe's CLI imports every app's ``commands`` module when it starts, in the process that later
forks one child per background job. Importing LiteLLM here, once, when that process is an RQ
worker, means every forked job inherits it instead of paying ~5 s of import per agent run.
"""

import sys

commands = []

if {"worker", "worker-pool"}.intersection(sys.argv[1:]):
	from huf.ai.engine.llm import preload

	preload()
