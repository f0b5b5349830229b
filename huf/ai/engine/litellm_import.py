"""LiteLLM, imported once per process and only when it is first needed (the import takes seconds).

Every engine module that calls LiteLLM gets it through ``load_litellm``, so importing the engine
stays cheap and the settings below hold whoever imports first."""

from __future__ import annotations

import os
from typing import Any

_LITELLM: Any = None


def load_litellm():
	"""The ``litellm`` module. The local price map is forced so LiteLLM never fetches it from the
	internet; debug banners and telemetry are off, and so is the bookkeeping ``quiet`` lists.
	``drop_params`` is passed per call, not set globally."""
	global _LITELLM
	if _LITELLM is None:
		os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
		import litellm

		quiet(litellm)
		_LITELLM = litellm
	return _LITELLM


def quiet(litellm) -> None:
	"""Switch off what LiteLLM does on every call for loggers and callbacks Huf does not have (Huf
	registers none: usage and cost are its own, ``cost.py``), measured in benchmarks/model_round.py.

	- ``disable_streaming_logging``: no logging task per chunk in LiteLLM's thread pool (for the
	  providers whose stream Huf reads through LiteLLM's wrapper; see ``chunks.py``).
	- ``turn_off_message_logging``: should a logger ever be added, it gets no message text (what a
	  person typed may hold secrets).
	- the timing of each provider request is handed to LiteLLM's service logger, whose sync hook
	  runs a fresh asyncio event loop per call in a thread without one (Huf reads every stream in a
	  thread of its own): skipped while ``litellm.service_callback`` is empty.
	- a stream is priced the moment it opens, before a token is read (the prompt counted with the
	  tokenizer, which grows with the conversation); LiteLLM prices the finished answer again for
	  its loggers: that first pricing is skipped for streams.
	The last two have no setting; each is a small wrapper that leaves LiteLLM as it is when its
	internals move (the call is then only slower)."""
	litellm.suppress_debug_info = True
	litellm.telemetry = False
	litellm.disable_streaming_logging = True
	litellm.turn_off_message_logging = True
	_skip_service_timing(litellm)
	_skip_pricing_unread_streams(litellm)


def _skip_service_timing(litellm) -> None:
	try:
		from litellm.litellm_core_utils import logging_utils

		service_logger = logging_utils._get_service_logger()
	except (ImportError, AttributeError):
		return
	hook = service_logger.service_success_hook

	def service_success_hook(*args, **kwargs):
		if litellm.service_callback:
			return hook(*args, **kwargs)
		return None

	service_logger.service_success_hook = service_success_hook


def _skip_pricing_unread_streams(litellm) -> None:
	price = getattr(litellm, "response_cost_calculator", None)
	stream_type = getattr(litellm, "CustomStreamWrapper", None)
	if price is None or stream_type is None or getattr(price, "huf_skips_streams", False):
		return

	def response_cost_calculator(*args, **kwargs):
		if isinstance(kwargs.get("response_object"), stream_type):
			return None
		return price(*args, **kwargs)

	response_cost_calculator.huf_skips_streams = True
	litellm.response_cost_calculator = response_cost_calculator
