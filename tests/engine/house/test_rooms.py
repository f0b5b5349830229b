"""The house's floors: a room imports only rooms on its own floor or below (docs: Contributing, The
house). Read from the source, every import wherever it stands in a file; no Frappe needed.

0. the engine (``huf/ai/engine``): imports nothing of the site (and no Frappe, test_shape.py);
1. the site's foundations: capabilities, permissions, and the modules at ``huf/ai``'s top that
   stand alone (models and providers, the outbound address check, prompts, people, seeding);
2. the rooms of ``huf/ai`` that do the work (a run's life, tools, knowledge, media, MCP, what an
   agent keeps, flows, triggers, integrations, data tables, the builder assistant, Huf's example);
3. what faces the outside: endpoints (``huf.ai.agent``, ``huf.ai.getting_started``), web pages (``huf.www``), DocType
   controllers (``huf.huf``), hooks, install, patches, commands and the WSGI entry."""

from __future__ import annotations

from tests.engine.house.test_import_cycles import import_graph

FLOORS = [
	{"huf.ai.engine"},
	{"huf.capabilities", "huf.permissions", "huf.request_checks", "huf.ai", "huf.ai.moved", "huf.ai.models", "huf.ai.providers",
	 "huf.ai.outbound", "huf.ai.prompts", "huf.ai.people", "huf.ai.seeding", "huf.config"},
	{"huf.ai.run", "huf.ai.tools", "huf.ai.knowledge", "huf.ai.media", "huf.ai.mcp", "huf.ai.agent_state", "huf.ai.flow",
	 "huf.ai.triggers", "huf.ai.integrations", "huf.ai.data_tables", "huf.ai.assistant", "huf.ai.http_handler", "huf.examples"},
	{"huf", "huf.ai.agent", "huf.ai.getting_started", "huf.www", "huf.huf", "huf.hooks", "huf.install", "huf.patches", "huf.commands", "huf.wsgi", "huf.templates"},
]


def room(module: str) -> str:
	"""The longest room name that holds ``module``."""
	rooms = [name for floor in FLOORS for name in floor if module == name or module.startswith(name + ".")]
	assert rooms, f"{module} is in no room: add it to a floor in tests/engine/house/test_rooms.py"
	return max(rooms, key=len)


def floor(module: str) -> int:
	name = room(module)
	return next(level for level, rooms in enumerate(FLOORS) if name in rooms)


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
	return sorted(
		f"{module} (floor {floor(module)}) imports {target} (floor {floor(target)})"
		for module, targets in graph.items()
		for target in targets
		if floor(target) > floor(module)
	)


def test_every_module_is_in_a_room():
	for module in import_graph():
		room(module)


def test_no_room_imports_one_above_it():
	assert upward_imports(import_graph()) == []


def test_an_upward_import_is_caught():
	graph = {"huf.ai.engine.loop": {"huf.ai.run.runs"}, "huf.ai.run.runs": {"huf.ai.engine.loop"}, "huf.ai.agent.chat": {"huf.ai.run.runs"}}
	assert upward_imports(graph) == ["huf.ai.engine.loop (floor 0) imports huf.ai.run.runs (floor 2)"]
