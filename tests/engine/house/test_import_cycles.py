"""The run path has no import cycle, not even one hidden by an import inside a function.

Read from the source (no Frappe needed): every ``import`` of a huf module, wherever it stands in the
file, is an edge. The Run Agent tool once imported the runs module inside its function, which was
the only thing keeping runs -> agents -> tools -> run_agent -> runs from being a cycle; the same
holds for every huf module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RUN_PATH = {"huf.ai.run.runs", "huf.ai.run.lifecycle", "huf.ai.run.executor", "huf.ai.run.recorder", "huf.ai.run.titles", "huf.ai.tools.run_agent"}


def module_name(path: Path) -> str:
	parts = list(path.relative_to(ROOT).with_suffix("").parts)
	return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
	modules = {module_name(path): path for path in (ROOT / "huf").rglob("*.py")}
	graph: dict[str, set[str]] = {name: set() for name in modules}
	for name, path in modules.items():
		for node in ast.walk(ast.parse(path.read_text())):
			targets = []
			if isinstance(node, ast.Import):
				targets = [alias.name for alias in node.names]
			elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
				submodules = [f"{node.module}.{alias.name}" for alias in node.names]
				# ``from huf import examples`` imports the submodule, not what huf/__init__.py defines
				targets = submodules + ([node.module] if any(sub not in modules for sub in submodules) else [])
			graph[name] |= {target for target in targets if target in modules and target != name}
	return graph


def cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
	"""A path start -> ... -> start, if there is one (depth-first)."""
	stack, seen = [(start, [start])], set()
	while stack:
		node, path = stack.pop()
		for target in graph[node]:
			if target == start:
				return [*path, start]
			if target not in seen:
				seen.add(target)
				stack.append((target, [*path, target]))
	return None


def test_no_module_of_the_run_path_imports_itself_back():
	graph = import_graph()
	cycles = {name: cycle_through(graph, name) for name in RUN_PATH if name in graph}
	assert {name: path for name, path in cycles.items() if path} == {}


def test_no_huf_module_imports_itself_back():
	graph = import_graph()
	cycles = {name: cycle_through(graph, name) for name in graph}
	assert {name: path for name, path in cycles.items() if path} == {}


def test_the_run_agent_tool_does_not_import_the_code_that_runs_agents():
	graph = import_graph()
	assert graph["huf.ai.tools.run_agent"] <= {"huf.ai.engine.tools", "huf.ai.tools.context"}
