"""The Benchmarks page is ``benchmarks/README.md``, added to the site when the docs are built.

The figures stay beside the scripts that make them (each benchmark's figures are written there as it
is run); this hook shows that file as ``benchmarks.md`` so the site has them without a second copy.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "benchmarks" / "README.md"
NOTE = (
	"This page is `benchmarks/README.md` in the repository, shown here as it is. The scripts it runs are "
	"in `benchmarks/`; the scripted model server they talk to is `tests/support/scripted_llm.py`."
)


def page() -> str:
	text = SOURCE.read_text(encoding="utf-8")
	title, _, rest = text.partition("\n")
	return f"{title}\n\n{NOTE}\n{rest}"


def on_files(files, config):
	from mkdocs.structure.files import File

	files.append(File.generated(config, "benchmarks.md", content=page()))
	return files
