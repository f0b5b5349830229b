"""The warm-up a worker or web process makes before its first run (engine/warmup.py): real streamed
completions, every one to its own loopback server, none to a provider."""

from __future__ import annotations

from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.warmup import CHUNKS, warm_up


class Recording:
	"""LiteLLM, with every completion's arguments and chunks kept."""

	def __init__(self, litellm):
		self.litellm, self.calls, self.chunks = litellm, [], 0

	def completion(self, **kwargs):
		self.calls.append(kwargs)
		for chunk in self.litellm.completion(**kwargs):
			self.chunks += 1
			yield chunk


def test_the_warm_up_streams_from_its_own_loopback_server_only():
	recording = Recording(load_litellm())
	warm_up(recording)
	assert len(recording.calls) == 2  # LiteLLM's own client, and a safe_http one as pinned.py uses
	for call in recording.calls:
		assert call["api_base"].startswith("http://127.0.0.1:"), call["api_base"]
	assert recording.calls[1]["client"].base_url.host == "127.0.0.1"
	assert recording.chunks >= 2 * (len(CHUNKS) - 1)  # every chunk shape arrived (LiteLLM may fold the usage)
