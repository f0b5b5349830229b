"""Engine test setup: LiteLLM stays offline, and one scripted model server serves the session.

The environment is set before anything imports LiteLLM, so it uses its bundled price map and
never reaches for the internet.
"""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest  # noqa: E402

from tests.support.scripted_llm import ScriptedLLM  # noqa: E402


@pytest.fixture(scope="session")
def _scripted_llm_process():
	"""One server for the whole session (starting one is cheap, but there is no need per test)."""
	with ScriptedLLM() as server:
		yield server


@pytest.fixture
def llm_server(_scripted_llm_process):
	"""The started scripted server, with an empty script and request log for this test."""
	_scripted_llm_process.reset()
	yield _scripted_llm_process
	_scripted_llm_process.reset()


@pytest.fixture
def llm(llm_server):
	"""Short name for ``llm_server``."""
	return llm_server
