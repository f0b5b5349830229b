"""Tool names every model provider accepts, for tools that come from somewhere: an app, a server.

``namespaced("helpdesk", "create_ticket")`` is ``helpdesk__create_ticket``: ``app.tool`` in spirit,
spelt with ``__`` because OpenAI and Anthropic accept only ``^[a-zA-Z0-9_-]{1,64}$`` and Gemini
wants a letter or an underscore first. Any other character becomes ``_``; a name longer than 64
characters is cut and ends with a short hash of the whole, so two long names stay apart.
"""

from __future__ import annotations

import hashlib
import re

MAX_NAME = 64
SEPARATOR = "__"
VALID = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def namespaced(namespace: str, name: str) -> str:
	"""``name`` of ``namespace`` as one name every provider accepts (see the module's note)."""
	raw = f"{_UNSAFE.sub('_', namespace)}{SEPARATOR}{_UNSAFE.sub('_', name)}"
	if not (raw[0].isalpha() or raw[0] == "_"):
		raw = "_" + raw
	return raw if len(raw) <= MAX_NAME else hashed(raw, f"{namespace}.{name}")


def hashed(name: str, original: str) -> str:
	"""``name`` cut to fit, ending with 8 hex digits of ``original``'s SHA-256."""
	digest = hashlib.sha256(original.encode()).hexdigest()[:8]
	return f"{name[: MAX_NAME - 9]}_{digest}"
