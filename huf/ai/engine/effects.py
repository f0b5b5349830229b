"""What a step or a tool does to the world, and so what may happen when its worker died during it.

Every flow step kind and every tool has one effect:

- ``DATABASE``: it writes only to the site's database, and those writes are committed together with
  the step's (or the model round's) own record. A worker that died before that commit took its
  writes with it (the transaction rolled back), so the work is simply done again.
- ``REPEATABLE``: it acts outside the database, but doing it again is harmless: a read, a model
  call, an HTTP method that is idempotent by definition (GET, HEAD, OPTIONS, PUT, DELETE), a
  request carrying an ``Idempotency-Key`` that its receiver honours, an MCP tool its server marks
  read-only or idempotent, a tool an administrator marked safe to repeat. It is done again, with
  the same idempotency key.
- ``ONCE``: it acts outside and is not known to be repeatable (other POSTs, other MCP tools, custom
  functions nobody marked). After a dead worker nobody can tell whether it acted, so the run stops
  and asks a person: Retry it, Skip it (with a value) or End the run. Never a silent repeat, never
  a silent failure. This is the default wherever nothing says otherwise.

``idempotency_key`` is the ``Idempotency-Key`` header Huf sends with requests that change things:
the same for a repeat of the same piece of work, different for every other."""

from __future__ import annotations

from typing import Callable, Mapping

DATABASE, REPEATABLE, ONCE = "database", "repeatable", "once"
EFFECTS = (DATABASE, REPEATABLE, ONCE)
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})  # RFC 9110, 9.2.2
IDEMPOTENCY_HEADER = "Idempotency-Key"

# Flow step kinds whose effect does not depend on their settings.
STEP_EFFECTS = {
	"trigger.webhook": DATABASE, "trigger.schedule": DATABASE, "trigger.doc-event": DATABASE,
	"condition": DATABASE, "transform": DATABASE, "loop": DATABASE, "end": DATABASE, "human.approval": DATABASE,
	"router.llm": REPEATABLE,  # a model call: asking again only costs tokens
	"agent.run": REPEATABLE,  # its Agent Run resumes by its own tools' effects
}  # fmt: skip


def may_repeat(effect: str | None) -> bool:
	"""Whether work with ``effect`` is simply done again after a dead worker (unknown: no)."""
	return effect in (DATABASE, REPEATABLE)


def http_effect(method: str, keyed: bool = False) -> str:
	"""An HTTP request's effect: idempotent methods repeat; others only when ``keyed`` (the receiver
	honours the ``Idempotency-Key`` Huf sends)."""
	return REPEATABLE if (method or "GET").upper() in IDEMPOTENT_METHODS or keyed else ONCE


def mcp_effect(read_only: bool | None, idempotent: bool | None) -> str:
	"""An MCP tool's effect from its server's hints. MCP says a tool without hints may do anything."""
	return REPEATABLE if read_only or idempotent else ONCE


def idempotency_key(*parts: object) -> str:
	"""``huf-<part>-<part>...``: readable, so a receiver's log names the run and step it came from."""
	return "huf-" + "-".join(str(part).replace(" ", "_") for part in parts)


def step_effect(kind: str, config: Mapping, tool_effect: Callable[[str], str]) -> str:
	"""A flow step's effect: by its kind; a ``tool.call`` has its tool's (``tool_effect(name)``), an
	``http_request`` its method's, or REPEATABLE when ``config.idempotent`` says the receiver
	honours the ``Idempotency-Key`` Huf sends. An unknown kind: ONCE."""
	if kind == "tool.call":
		return tool_effect(str(config.get("tool") or ""))
	if kind == "http_request":
		return http_effect(str(config.get("method") or "GET"), bool(config.get("idempotent")))
	return STEP_EFFECTS.get(kind, ONCE)
