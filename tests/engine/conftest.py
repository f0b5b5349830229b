import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest  # noqa: E402

from tests.support.scripted_llm import ScriptedLLM  # noqa: E402


@pytest.fixture(scope="session")
def llm_server():
	with ScriptedLLM() as server:
		yield server


@pytest.fixture
def llm(llm_server):
	llm_server.reset()
	yield llm_server
	llm_server.reset()
