"""An AI Provider's own server (its API Base) reached through ``safe_http``.

The site checks an API Base against the allow-list when the provider is saved and before every
call, but LiteLLM would then look the host up again by itself: a DNS answer that changes in
between (rebinding) could send the provider's key somewhere else. For the OpenAI-compatible route
(``openai/...``, what an API Base under any other provider name uses), a chat or embedding call gets an OpenAI
client whose connections go through ``safe_http``: every address is checked as it is connected to,
and redirects to another origin drop the key. One pooled httpx client per allow-list, so
connections are kept alive between turns as LiteLLM's own clients keep them.
"""

from __future__ import annotations

import threading
from typing import Any

from huf.ai.engine import safe_http

NO_KEY = "sk-no-key"  # the OpenAI client insists on a key; local servers ignore it

_CLIENTS: dict[frozenset[str], Any] = {}
_LOCK = threading.Lock()


def client_for(model: str, api_base: str | None, api_key: str | None, allowed_hosts: frozenset[str] | None, timeout: float) -> Any | None:
	"""The OpenAI client LiteLLM should use for ``model`` (LiteLLM's name) at ``api_base``, or None
	when LiteLLM connects by itself (no API Base, no allow-list given, or not the OpenAI route)."""
	if not api_base or allowed_hosts is None or not model.startswith("openai/"):
		return None
	from openai import OpenAI

	with _LOCK:
		http = _CLIENTS.get(allowed_hosts)
		if http is None:
			http = _CLIENTS[allowed_hosts] = safe_http.client(allowed_hosts, sensitive=("api-key", "x-api-key"))
	return OpenAI(api_key=api_key or NO_KEY, base_url=api_base, http_client=http, max_retries=0, timeout=timeout)
