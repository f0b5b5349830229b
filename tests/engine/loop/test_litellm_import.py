"""LiteLLM is imported in one place (``litellm_import.load_litellm``), whoever calls it first."""

import os
import subprocess
import sys
from pathlib import Path

from huf.ai.engine.litellm_import import load_litellm

ROOT = Path(__file__).resolve().parents[3]


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


def test_litellm_keeps_no_per_chunk_logging_nor_message_logging():
	litellm = load_litellm()
	assert litellm.disable_streaming_logging is True and litellm.turn_off_message_logging is True
	assert litellm.suppress_debug_info is True and litellm.telemetry is False


def scripted_call(llm) -> str:
	from huf.ai.engine.llm import LLMRequest, ModelSpec, stream_turn
	from tests.support.scripted_llm import text

	llm.script(text("hello"))
	spec = ModelSpec(model="scripted-model", provider="Local", api_key="sk-quiet", api_base=llm.base_url)
	return stream_turn(LLMRequest(model=spec, messages=[{"role": "user", "content": "hi"}])).content


def test_a_model_call_runs_no_event_loop_for_litellms_service_timing(llm, monkeypatch):
	"""LiteLLM hands each request's timing to its service logger, which ran a new asyncio loop per
	call in the reader thread (about 0.2 ms) for service callbacks Huf does not have."""
	import asyncio

	runs = []
	real_run = asyncio.run
	monkeypatch.setattr(asyncio, "run", lambda *args, **kwargs: runs.append(args) or real_run(*args, **kwargs))
	assert scripted_call(llm) == "hello"
	assert runs == []


def test_a_stream_is_not_priced_as_it_opens(llm, monkeypatch):
	"""LiteLLM priced each stream before reading it (counting the prompt's tokens); Huf prices the
	round itself from its usage (cost.py)."""
	from litellm import cost_calculator

	priced = []
	real = cost_calculator.completion_cost
	monkeypatch.setattr(cost_calculator, "completion_cost", lambda *args, **kwargs: priced.append(kwargs) or real(*args, **kwargs))
	assert scripted_call(llm) == "hello"
	assert priced == []
	assert load_litellm().cost_per_token(model="gpt-4o", prompt_tokens=1000, completion_tokens=0)[0] > 0  # prices stay known
