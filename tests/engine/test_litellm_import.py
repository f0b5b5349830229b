"""LiteLLM is imported in one place (``litellm_import.load_litellm``), whoever calls it first."""

import os
import subprocess
import sys
from pathlib import Path

from huf.ai.engine.litellm_import import load_litellm

ROOT = Path(__file__).resolve().parents[2]


def test_litellm_is_imported_once_per_process():
	first = load_litellm()
	assert load_litellm() is first and os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"


def test_an_embedding_call_first_in_a_process_keeps_litellm_offline(llm):
	"""An index job may be the first in its process to call LiteLLM: it must get the offline price
	map and quiet settings like a model call does."""
	code = (
		"import os, sys\n"
		"from huf.ai.engine.knowledge.embed import make_embedder\n"
		f"make_embedder('openai/scripted-embed', api_key='x', api_base={llm.base_url!r})(['hello'])\n"
		"import litellm\n"
		"print(os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP'), litellm.suppress_debug_info, litellm.telemetry)\n"
	)
	env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
	out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
	assert out.returncode == 0, out.stderr[-2000:]
	assert out.stdout.split() == ["True", "True", "False"]
