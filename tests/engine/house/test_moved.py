"""Old dotted paths of modules that moved into rooms (huf/ai/moved.py) give the very module at the new
path. Checked here on engine modules (no Frappe); tests/site/house/test_moved_paths.py checks every
real entry on a site."""

import importlib
import sys
from pathlib import Path

import pytest

import huf.ai
from huf.ai import moved

ROOT = Path(huf.ai.__file__).parent


@pytest.fixture
def old_name(monkeypatch):
	monkeypatch.setitem(moved.MOVED, "huf.ai.old_cost_for_test", "huf.ai.engine.cost")
	yield "huf.ai.old_cost_for_test"
	sys.modules.pop("huf.ai.old_cost_for_test", None)
	if hasattr(huf.ai, "old_cost_for_test"):
		delattr(huf.ai, "old_cost_for_test")


def test_an_old_path_gives_the_same_module(old_name):
	new = importlib.import_module("huf.ai.engine.cost")
	old = importlib.import_module(old_name)
	assert old is new
	assert old.__spec__.name == "huf.ai.engine.cost"  # the module keeps its own spec
	from huf.ai import old_cost_for_test

	assert old_cost_for_test is new


def test_a_path_never_moved_is_not_found():
	with pytest.raises(ModuleNotFoundError):
		importlib.import_module("huf.ai.never_was_a_module")


def test_every_new_home_exists_and_every_old_file_is_gone():
	for old, new in moved.MOVED.items():
		assert (ROOT.parent.parent / (new.replace(".", "/") + ".py")).is_file(), new
		assert not (ROOT.parent.parent / (old.replace(".", "/") + ".py")).exists(), old
