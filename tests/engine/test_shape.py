"""The engine stays Frappe-free (ARCHITECTURE.md): checked on the source and on a real import."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "huf" / "ai" / "engine"


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
	code = (
		"import sys, huf.ai.engine.loop, huf.ai.engine.context, huf.ai.engine.cost;"
		"print(sorted(m for m in sys.modules if m.split('.')[0] in ('frappe', 'litellm')))"
	)
	out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parents[2], check=True)
	assert out.stdout.strip() == "[]"
