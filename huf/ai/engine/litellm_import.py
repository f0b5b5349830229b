"""LiteLLM, imported once per process and only when it is first needed (the import takes seconds).

Every engine module that calls LiteLLM gets it through ``load_litellm``, so importing the engine
stays cheap and the settings below hold whoever imports first."""

from __future__ import annotations

import os
from typing import Any

_LITELLM: Any = None


def load_litellm():
	"""The ``litellm`` module. The local price map is forced so LiteLLM never fetches it from the
	internet; debug banners and telemetry are off. ``drop_params`` is passed per call, not set globally."""
	global _LITELLM
	if _LITELLM is None:
		os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
		import litellm

		litellm.suppress_debug_info = True
		litellm.telemetry = False
		_LITELLM = litellm
	return _LITELLM
