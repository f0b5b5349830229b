"""The one event vocabulary the loop emits; the recorder, SSE and realtime all consume it.

Every event is a small frozen dataclass with a ``type`` string that is also its SSE event name.
``to_dict`` gives the JSON payload a client sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union


@dataclass(frozen=True)
class Usage:
	input_tokens: int = 0  # every prompt token, cached and written ones included
	output_tokens: int = 0
	cached_tokens: int = 0  # read from the provider's prompt cache
	cache_write_tokens: int = 0  # written to it (Anthropic bills these above the input price)

	@property
	def total_tokens(self) -> int:
		return self.input_tokens + self.output_tokens

	def __add__(self, other: "Usage") -> "Usage":
		return Usage(
			self.input_tokens + other.input_tokens,
			self.output_tokens + other.output_tokens,
			self.cached_tokens + other.cached_tokens,
			self.cache_write_tokens + other.cache_write_tokens,
		)

	def to_dict(self) -> dict[str, int]:
		"""Cache writes only when there were some (most providers never report any)."""
		data = {
			"input_tokens": self.input_tokens,
			"output_tokens": self.output_tokens,
			"cached_tokens": self.cached_tokens,
			"total_tokens": self.total_tokens,
		}
		if self.cache_write_tokens:
			data["cache_write_tokens"] = self.cache_write_tokens
		return data


@dataclass(frozen=True)
class ToolCall:
	"""One tool call the model asked for, as the model sent it (arguments is the raw JSON text)."""

	id: str
	name: str
	arguments: str

	def to_openai(self) -> dict[str, Any]:
		return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class DeltaEvent:
	"""A piece of answer text as the model produced it: only the new piece, so a long answer costs
	its own length, not its length squared. The whole text is on the complete event (and, for a
	reader attaching mid-run, on the stream's snapshot)."""

	content: str
	turn: int = 0
	type: str = field(default="delta", init=False)


@dataclass(frozen=True)
class AssistantEvent:
	"""The model finished one round. Carries the assistant message to persist (text and/or tool calls)."""

	content: str
	tool_calls: tuple[ToolCall, ...]
	turn: int
	usage: Usage
	model: str
	type: str = field(default="assistant", init=False)


@dataclass(frozen=True)
class ToolCallEvent:
	"""``origin``: the called tool's ``Tool.origin`` (None for a tool that does not exist)."""

	call: ToolCall
	turn: int
	origin: Mapping[str, Any] | None = None
	type: str = field(default="tool_call", init=False)


@dataclass(frozen=True)
class ToolResultEvent:
	"""The outcome of one tool call. ``content`` is what the model sees (already truncated);
	``detail`` the full text of an unexpected failure, for the run's record only (never the model's)."""

	call: ToolCall
	content: str
	ok: bool
	error: str | None
	duration_ms: float
	truncated: bool
	turn: int
	result: Any = None
	detail: str | None = None
	declined: bool = False  # a person refused the call (it needed their approval): it never ran
	more: bool = False  # its round has calls left: the next event is the next call's, at once
	type: str = field(default="tool_result", init=False)


@dataclass(frozen=True)
class ToolApprovalEvent:
	"""A call that needs a person's approval before it runs: the run pauses after these events (one
	per such call of the round) until every one of them is approved or rejected."""

	call: ToolCall
	turn: int
	origin: Mapping[str, Any] | None = None
	type: str = field(default="tool_approval", init=False)


@dataclass(frozen=True)
class ResumedEvent:
	"""The run goes on after its worker died (or after a person decided what to do with a call that
	was in flight): what it answers from here follows ``text``, the text of its recorded rounds. The
	text of the round that was lost is dropped; readers replace what they show with ``text``."""

	text: str
	type: str = field(default="resumed", init=False)


@dataclass(frozen=True)
class UsageEvent:
	usage: Usage
	turn: int
	model: str
	type: str = field(default="usage", init=False)


@dataclass(frozen=True)
class CompleteEvent:
	response: str
	usage: Usage
	turns: int
	duration_seconds: float
	cost: float = 0.0
	type: str = field(default="complete", init=False)


@dataclass(frozen=True)
class ErrorEvent:
	kind: str
	message: str
	cause: str | None = None
	type: str = field(default="error", init=False)


Event = Union[
	DeltaEvent, AssistantEvent, ToolCallEvent, ToolApprovalEvent, ToolResultEvent, ResumedEvent, UsageEvent, CompleteEvent,
	ErrorEvent,
]
EventSink = Callable[[Event], None]


def no_listener(_event: Event) -> None:
	"""The sink of a non-streamed run: a stream nobody listens to."""
