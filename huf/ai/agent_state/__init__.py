"""What an agent keeps between rounds and runs: conversation memory (``memory``), long tool results
kept as artifacts (``artifacts``) and a run's plan (``planning``). Each gives the run its tools and
its context block; the pure halves are in the engine (``engine/memory.py``, ``engine/artifacts.py``,
``engine/planning.py``).

May import: the engine, the site's foundations and ``huf.ai.tools``.
"""
