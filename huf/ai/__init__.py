"""Huf's site layer: everything that runs inside Frappe, around the Frappe-free engine (``engine/``).

Rooms, each a folder whose ``__init__`` says what it holds and what it may import: ``engine`` (no
Frappe at all), ``run`` (a run's whole life), ``agent_state`` (what an agent keeps between runs),
``media``, ``mcp`` (the MCP client), ``knowledge``, ``tools``, ``flow``, ``triggers``,
``integrations``, ``data_tables``, ``assistant`` and ``agent`` (the whitelisted agent endpoints).
The modules at this level stand alone: models and providers, the outbound address check, prompts,
people, seeding, ``http_handler`` (a name in the reference) and ``getting_started`` (the web app's
first screen). Modules that moved into rooms keep
their old dotted paths through ``moved.py``.
"""

from huf.ai.moved import keep_old_paths

keep_old_paths()
