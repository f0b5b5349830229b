"""What the flow engine needs from outside, given by the Frappe layer per hop, acting as the run's
user. Tests give fakes for the model ports only; ``http`` is a real policy for the real client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class AgentResult:
	output: str
	run: str | None = None  # the Agent Run the node made
	ok: bool = True
	error: str | None = None


@dataclass(frozen=True)
class HttpPolicy:
	"""How ``http_request`` nodes may reach out through ``safe_http.request``."""

	allow: frozenset[str] = frozenset()  # private hosts an administrator allows (outbound.allowed_hosts())
	max_bytes: int = 2 * 1024 * 1024
	timeout: float = 30.0  # seconds the server may stay silent
	deadline: float = 60.0  # seconds the whole request may take


class Ports(Protocol):
	def run_agent(self, agent: str, prompt: str, node_id: str) -> AgentResult: ...

	def call_tool(self, tool: str, arguments: dict) -> Any: ...  # raises on failure

	def complete(self, prompt: str, model: str | None) -> str: ...  # router.llm and the Agentic orchestrator

	def http(self) -> HttpPolicy: ...
