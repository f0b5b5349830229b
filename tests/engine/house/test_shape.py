"""The engine stays Frappe-free (ARCHITECTURE.md): checked on the source and on a real import;
and its modules import each other without a cycle."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "huf" / "ai" / "engine"
ROOT = ENGINE.parents[2]


def module_name(path: Path) -> str:
	parts = path.relative_to(ROOT).with_suffix("").parts
	return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_engine_module_imports_frappe():
	offenders = []
	for path in ENGINE.rglob("*.py"):
		for node in ast.walk(ast.parse(path.read_text())):
			names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
			if isinstance(node, ast.ImportFrom):
				names = [node.module or ""]
			offenders += [f"{path.name}: {n}" for n in names if n == "frappe" or n.startswith("frappe.")]
	assert offenders == []


def test_importing_the_engine_pulls_in_neither_frappe_nor_litellm():
	"""Every engine module: LiteLLM is imported only when a model is called (litellm_import.py)."""
	modules = sorted(module_name(path) for path in ENGINE.rglob("*.py"))
	code = (
		f"import importlib, sys; [importlib.import_module(m) for m in {modules!r}];"
		"print(sorted(m for m in sys.modules if m.split('.')[0] in ('frappe', 'litellm')))"
	)
	out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
	assert out.stdout.strip() == "[]"


def module_level_imports(path: Path) -> set[str]:
	"""The engine modules ``path`` imports outside any function or class body (``if``/``try``
	blocks included, ``if TYPE_CHECKING`` too: a type both sides need belongs in a third module);
	for ``from a import b`` that is ``a.b`` when it is a module, else ``a``."""
	modules = {module_name(p) for p in ENGINE.rglob("*.py")}
	found, pending = set(), list(ast.parse(path.read_text()).body)
	while pending:
		node = pending.pop()
		if isinstance(node, ast.Import):
			found |= {alias.name for alias in node.names}
		elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
			found |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module for alias in node.names}
		elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
			pending += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
	return found & modules


def test_engine_modules_import_each_other_without_a_cycle():
	graph = {module_name(path): module_level_imports(path) for path in ENGINE.rglob("*.py")}
	cycles, done = [], set()

	def visit(module: str, path: list[str]) -> None:
		if module in path:
			cycles.append(" -> ".join([*path[path.index(module) :], module]))
			return
		if module in done:
			return
		for imported in sorted(graph[module]):
			visit(imported, [*path, module])
		done.add(module)

	for module in sorted(graph):
		visit(module, [])
	assert cycles == []
