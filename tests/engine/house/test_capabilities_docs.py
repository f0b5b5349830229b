"""The capability table of docs/who-may-do-what.md is the one huf/capabilities.py makes (``python -m huf.capabilities``),
and that module can be imported without Frappe, so this runs in the engine tier."""

import subprocess
import sys
from pathlib import Path

from huf.capabilities import markdown_table

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "who-may-do-what.md"
START, END = "<!-- capabilities:start -->", "<!-- capabilities:end -->"


def test_the_docs_capability_table_is_the_one_the_code_makes():
	text = PAGE.read_text()
	assert text.count(START) == 1 and text.count(END) == 1 and text.index(START) < text.index(END), f"docs/who-may-do-what.md needs one {START} ... {END} pair"
	table = text.split(START, 1)[1].split(END, 1)[0].strip()
	assert table == markdown_table(), (
		"docs/who-may-do-what.md's capability table differs from huf/capabilities.py: run `python -m huf.capabilities` "
		f"and put its output between {START} and {END}"
	)


def test_the_table_is_printed_without_frappe():
	code = "import runpy, sys; runpy.run_module('huf.capabilities', run_name='__main__'); print(sorted(m for m in sys.modules if m.split('.')[0] == 'frappe'))"
	out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
	assert out.strip().endswith("[]")
	assert markdown_table() in out
