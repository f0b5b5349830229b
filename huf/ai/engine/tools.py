"""Tools as the engine sees them: a name, a JSON schema and a plain callable.

The model's own mistakes (arguments that are not JSON, that break the schema, a tool that does not
exist, a tool that raises) become tool results the model can read and recover from; they never end
the run.
"""

from __future__ import annotations

import json
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from huf.ai.engine.effects import ONCE
from huf.ai.engine.events import ToolCall
from huf.ai.engine.messages import IMAGE_MIME_TYPES, MAX_IMAGE_BYTES

UNEXPECTED = "The tool {name} failed with an unexpected error. Its details were kept for an administrator."
TRUNCATION_NOTE = "\n[truncated: the result was {total} characters; only the first {kept} are shown]"


class ToolError(Exception):
	"""An expected tool failure whose message is written for the model (and the person reading the run)."""


@dataclass
class Tool:
	"""``origin``: where the tool comes from, as the caller wants it recorded (opaque to the engine,
	carried on the tool's ``ToolCallEvent``); e.g. the Agent Tool Call fields of an MCP tool.
	``requires_approval``: a person must approve each call before it runs (the loop pauses the run).
	``effect``: what the call does to the world (``engine/effects.py``), which decides what a run
	resumed after a dead worker may do with a call that was in flight; the safe default is ONCE."""

	name: str
	description: str
	parameters: dict
	handler: Callable[[dict], Any]
	origin: Mapping[str, Any] | None = None
	requires_approval: bool = False
	effect: str = ONCE
	_validator: Any = field(default=None, init=False, repr=False, compare=False)

	def spec(self) -> dict:
		"""The OpenAI function-tool entry sent to the model."""
		return {
			"type": "function",
			"function": {"name": self.name, "description": self.description, "parameters": self.parameters},
		}

	def validate(self, arguments: dict) -> None:
		"""Raise ToolError listing every way ``arguments`` break the schema."""
		if self._validator is None:
			from jsonschema import Draft202012Validator

			self._validator = Draft202012Validator(self.parameters or {"type": "object"})
		errors = sorted(self._validator.iter_errors(arguments), key=lambda error: list(error.path))
		if errors:
			problems = "; ".join(_describe(error) for error in errors)
			raise ToolError(f"Invalid arguments for {self.name}: {problems}")


@dataclass(frozen=True)
class ToolImage:
	"""An image in a tool's result: its type and its bytes in base64 (as MCP carries them)."""

	mime_type: str
	data: str

	def refusal(self) -> str | None:
		"""Why a model that takes images still is not shown this one (None: it can be)."""
		size = decoded_size(self.data)
		if size is None:
			return "not shown to you: its data is not valid base64"
		if self.mime_type not in IMAGE_MIME_TYPES:
			return "not shown to you: models take only PNG, JPEG, GIF and WebP images"
		if size > MAX_IMAGE_BYTES:
			return f"not shown to you: larger than the {MAX_IMAGE_BYTES // 1024 // 1024} MB an image may have"
		return None

	def note(self, why: str | None) -> str:
		"""The image's line in the text: its type and size, and ``why`` it is not shown (None: shown)."""
		where = why or "shown to you in a message after the tool results (images are not kept in the conversation history)"
		return f"[image: {self.mime_type}, {size_words(self.data)}; {where}]"


class ToolOutput(str):
	"""A tool's result as text and images in order (an MCP tool's result). As a string it is the
	text a model that takes no images reads, each image a note. ``execute_tool_call`` reads it
	with ``render``, and keeps what the model read as the result: for these results what is stored
	is what the model saw (images are not stored)."""

	parts: tuple[str | ToolImage, ...]

	def __new__(cls, parts):
		parts = tuple(part for part in parts if part)
		output = super().__new__(cls, _joined(parts, takes_images=False)[0])
		output.parts = parts
		return output

	def render(self, takes_images: bool) -> tuple[str, tuple[ToolImage, ...]]:
		"""The text the model reads and the images it is shown (none for a model that takes none)."""
		return _joined(self.parts, takes_images)


def _joined(parts, takes_images: bool) -> tuple[str, tuple[ToolImage, ...]]:
	lines, shown = [], []
	for part in parts:
		if isinstance(part, str):
			lines.append(part)
			continue
		why = part.refusal() if takes_images else "not shown to you"
		lines.append(part.note(why))
		if why is None:
			shown.append(part)
	return "\n".join(lines), tuple(shown)


def decoded_size(data: str) -> int | None:
	"""How many bytes base64 ``data`` holds (None when it is not base64)."""
	import base64
	import binascii

	try:
		return len(base64.b64decode(data, validate=True))
	except (binascii.Error, ValueError):
		return None


def size_words(data: str) -> str:
	"""The size of base64 ``data`` in words ("70 bytes", "12.0 KB", "6.1 MB")."""
	count = decoded_size(data)
	count = len(data) if count is None else count
	if count < 1024:
		return f"{count} bytes"
	return f"{count / 1024:.1f} KB" if count < 1024 * 1024 else f"{count / 1024 / 1024:.1f} MB"


@dataclass(frozen=True)
class ToolOutcome:
	"""``error`` is what the model reads; ``detail`` the full text of an unexpected failure, kept for
	the people who run the site (it may name internals the model and the user should not see).
	``images``: those the model is shown with the result (the loop sends them after the round's
	tool messages)."""

	content: str
	ok: bool
	error: str | None
	result: Any
	truncated: bool
	duration_ms: float
	detail: str | None = None
	images: tuple[ToolImage, ...] = ()


# (the call's name, a result longer than max_chars, max_chars) -> what the model reads instead, or
# None to cut it (engine/artifacts.py ``stasher``: kept whole, shown as a reference)
Overflow = Callable[[str, str, int], "str | None"]


def execute_tool_call(
	call: ToolCall,
	tools: Mapping[str, Tool],
	max_chars: int,
	takes_images: Callable[[], bool] = lambda: False,
	overflow: Overflow | None = None,
) -> ToolOutcome:
	"""Run one call to completion; every failure is an outcome, never an exception. A ToolError's
	message goes to the model as it is; any other exception only as a general message (``detail``
	keeps the full one). A result over ``max_chars`` goes to ``overflow`` when there is one, else it
	is cut; a ``ToolOutput`` result is kept as the model read it, with its images when
	``takes_images()`` (asked only for a result that has some)."""
	started = time.perf_counter()
	try:
		tool = tools.get(call.name)
		if tool is None:
			known = ", ".join(sorted(tools)) or "none"
			raise ToolError(f"There is no tool named {call.name!r}. Available tools: {known}.")
		arguments = parse_arguments(call.arguments)
		tool.validate(arguments)
		running = _CURRENT_CALL.set(call)
		try:
			result = tool.handler(arguments)
		finally:
			_CURRENT_CALL.reset(running)
	except ToolError as error:
		message = str(error)
		content, truncated = truncate(json.dumps({"error": message}), max_chars)
		return ToolOutcome(content, False, message, None, truncated, _ms(started))
	except Exception as error:  # noqa: BLE001 - any tool failure goes back to the model, in general words
		message = UNEXPECTED.format(name=call.name)
		content, truncated = truncate(json.dumps({"error": message}), max_chars)
		return ToolOutcome(content, False, message, None, truncated, _ms(started), f"{type(error).__name__}: {error}")
	if isinstance(result, ToolOutput):
		text, images = result.render(any(isinstance(part, ToolImage) for part in result.parts) and takes_images())
		content, truncated = fit(call.name, text, max_chars, overflow)
		return ToolOutcome(content, True, None, content, truncated, _ms(started), images=images)
	content, truncated = fit(call.name, serialize_result(result), max_chars, overflow)
	return ToolOutcome(content, True, None, result, truncated, _ms(started))


_CURRENT_CALL: ContextVar[ToolCall | None] = ContextVar("huf_current_tool_call", default=None)


def refusing(handler: Callable[[dict], Any], problem: type[Exception]) -> Callable[[dict], Any]:
	"""``handler`` with its ``problem`` (a rule it enforces) raised as a ToolError the model reads."""

	def call(args: dict):
		try:
			return handler(args)
		except problem as refused:
			raise ToolError(str(refused)) from None

	return call


def current_call() -> ToolCall | None:
	"""The call whose handler is running in this thread (None outside a handler). Its id is the same
	when a run resumed after a dead worker runs the call again, so a handler can derive an
	idempotency key from it (``effects.idempotency_key``)."""
	return _CURRENT_CALL.get()


def parse_arguments(raw: str | None) -> dict:
	"""The model's argument text as a dict; empty text means no arguments."""
	if raw is None or not raw.strip():
		return {}
	try:
		value = json.loads(raw)
	except json.JSONDecodeError as error:
		raise ToolError(f"The arguments are not valid JSON ({error.msg} at position {error.pos}).") from None
	if not isinstance(value, dict):
		raise ToolError("The arguments must be a JSON object.")
	return value


def serialize_result(value: Any) -> str:
	"""Text the model reads: strings as they are, anything else as JSON (dates and the like as text)."""
	if isinstance(value, str):
		return value
	return json.dumps(value, default=str, ensure_ascii=False)


def fit(name: str, text: str, max_chars: int, overflow: Overflow | None) -> tuple[str, bool]:
	"""``text`` as the model reads it, and whether that is not all of it."""
	if max_chars <= 0 or len(text) <= max_chars:
		return text, False
	shown = overflow(name, text, max_chars) if overflow else None
	return (shown, True) if shown is not None else truncate(text, max_chars)


def truncate(text: str, max_chars: int) -> tuple[str, bool]:
	"""Cut ``text`` to ``max_chars`` (0 or less means no limit), saying so at the end."""
	if max_chars <= 0 or len(text) <= max_chars:
		return text, False
	return text[:max_chars] + TRUNCATION_NOTE.format(total=len(text), kept=max_chars), True


def _describe(error) -> str:
	where = ".".join(str(part) for part in error.absolute_path)
	return f"{where}: {error.message}" if where else error.message


def _ms(started: float) -> float:
	return round((time.perf_counter() - started) * 1000, 3)
