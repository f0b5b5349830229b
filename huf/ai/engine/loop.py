"""The agent loop: model <-> tool rounds until the model answers, is cancelled, fails, runs out of
turns or pauses for a person's approval.

One code path: the model is always streamed; a caller who does not care about deltas passes a sink
that ignores them. Every step is emitted as an event the moment it happens, so the recorder
persists a run as it goes and a crash loses at most the step in flight.

A round whose calls include one of a tool that ``requires_approval`` pauses before any of its calls
runs: one ``ToolApprovalEvent`` per such call, and the result says ``paused`` with the ``pending``
calls. The caller persists the decisions and calls again with ``resume`` (the same request, now
ending with the round's assistant message): the round's calls then run in order, an approved one as
usual, a rejected one as a result telling the model a person declined it.

Images in tool results (``tools.ToolOutput``) go to a model that takes images in one ``user``
message right after the round's tool messages (a ``tool`` message takes no images); any other
model reads a note in the result instead. That message is part of this run's messages only.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence

from huf.ai.engine import llm
from huf.ai.engine.events import (
	AssistantEvent,
	CompleteEvent,
	DeltaEvent,
	ErrorEvent,
	EventSink,
	ToolApprovalEvent,
	ToolCall,
	ToolCallEvent,
	ToolResultEvent,
	Usage,
	UsageEvent,
)
from huf.ai.engine.messages import ResultLookup, repair_message_sequence, tool_images_message
from huf.ai.engine.tools import Overflow, Tool, ToolImage, ToolOutcome, execute_tool_call

CostOf = Callable[[str, Usage], float]
ModelCall = Callable[..., llm.ModelTurn]


DEFAULT_MAX_RESPONSE_CHARS = 200_000
DECLINED = "A person declined this call to {name}, so it did not run."
NO_APPROVER = (
	"{name} needs a person's approval before it runs, and nobody can be asked from here "
	"(it was called inside another agent's run), so it did not run."
)


@dataclass(frozen=True)
class LoopSettings:
	max_turns: int = 10
	max_context_chars: int = 20000
	max_response_chars: int = DEFAULT_MAX_RESPONSE_CHARS  # answer text of the whole run; 0: no limit
	overflow: Overflow | None = None  # a tool result over max_context_chars: kept whole, shown as a reference (artifacts.py)


@dataclass(frozen=True)
class Decision:
	"""A person's answer to a call that needed their approval."""

	approved: bool
	comment: str = ""


@dataclass(frozen=True)
class Resume:
	"""Where a run goes on: the round ``turn`` whose ``calls`` waited, and the decisions. A paused run
	passes the round's calls; a run going on after its worker died passes the calls of its last
	round that have no recorded result (none when that round was done: the next model call is then
	turn ``turn + 1``). The request's messages already hold the round and its recorded results."""

	turn: int
	calls: tuple[ToolCall, ...]
	decisions: Mapping[str, Decision]


@dataclass
class LoopResult:
	status: str  # "success" | "failed" | "cancelled" | "paused"
	response: str = ""
	usage: Usage = field(default_factory=Usage)
	cost: float = 0.0
	turns: int = 0
	model: str = ""
	error: ErrorEvent | None = None
	messages: list[dict] = field(default_factory=list)  # what this run added after the request's messages
	pending: tuple[ToolCall, ...] = ()  # paused: the calls waiting for a person's decision


class MaxTurnsExceeded(Exception):
	pass


def run_loop(
	request: llm.LLMRequest,
	tools: Sequence[Tool],
	on_event: EventSink,
	settings: LoopSettings = LoopSettings(),
	should_cancel: Callable[[], bool] = lambda: False,
	cost_of: CostOf = lambda _model, _usage: 0.0,
	lookup_result: ResultLookup | None = None,
	call_model: ModelCall = llm.stream_turn,
	resume: Resume | None = None,
	can_pause: bool = True,
) -> LoopResult:
	"""Run ``request`` with ``tools`` and return how it ended; events go to ``on_event`` as they happen.
	``resume``: go on with a paused round. ``can_pause``: False where nobody can be asked (a
	sub-agent's run); a call needing approval then fails with a result saying so."""
	started = time.perf_counter()
	by_name = {tool.name: tool for tool in tools}
	state = _State(
		request=request,
		on_event=on_event,
		cost_of=cost_of,
		max_chars=settings.max_response_chars,
		tools=by_name,
		max_context_chars=settings.max_context_chars,
		overflow=settings.overflow,
		should_cancel=should_cancel,
		can_pause=can_pause,
	)
	specs = [tool.spec() for tool in tools]
	first = 1
	try:
		if resume:
			state.turns = resume.turn
			if paused := state.run_calls(resume.calls, resume.turn, resume.decisions):
				return paused
			first = resume.turn + 1
		for turn in range(first, settings.max_turns + 1):
			state.turns = turn
			if should_cancel():
				raise llm.Cancelled("The run was stopped.", partial=None)
			history, _ = repair_message_sequence(request.messages + state.added, lookup_result)
			model_turn = call_model(
				replace(request, messages=history, tools=specs), state.delta_sink(turn), should_cancel
			)
			state.record_model_turn(model_turn, turn)
			if not model_turn.tool_calls:
				return state.finish("success", model_turn.content, started)
			if paused := state.run_calls(model_turn.tool_calls, turn, {}):
				return paused
		raise MaxTurnsExceeded
	except llm.Cancelled as cancelled:
		if cancelled.partial is not None:
			state.record_usage(cancelled.partial.usage, cancelled.partial.model, state.turns)
		return state.finish("cancelled", "".join(state.text), started)
	except llm.LLMError as error:
		return state.fail(ErrorEvent(kind=error.kind, message=error.message, cause=error.cause))
	except MaxTurnsExceeded:
		message = (
			f"The agent used all {settings.max_turns} of its turns without giving an answer. "
			"Raise Max Turns on the agent, or ask for something that needs fewer steps."
		)
		return state.fail(ErrorEvent(kind="max_turns", message=message))


@dataclass
class _State:
	request: llm.LLMRequest
	on_event: EventSink
	cost_of: CostOf
	max_chars: int = 0
	added: list[dict] = field(default_factory=list)
	text: list[str] = field(default_factory=list)
	chars: int = 0
	usage: Usage = field(default_factory=Usage)
	cost: float = 0.0
	turns: int = 0
	model: str = ""
	tools: Mapping[str, Tool] = field(default_factory=dict)
	max_context_chars: int = 0
	overflow: Overflow | None = None
	should_cancel: Callable[[], bool] = lambda: False
	can_pause: bool = True
	vision: bool | None = None  # whether the model takes images; asked once, when a result has one

	def takes_images(self) -> bool:
		if self.vision is None:
			self.vision = llm.takes_images(self.request.model)
		return self.vision

	def run_calls(self, calls: Sequence[ToolCall], turn: int, decisions: Mapping[str, Decision]) -> LoopResult | None:
		"""Run one round's calls in order; or, while a call still needs a person's decision, none of
		them: the paused result (None when the round ran)."""
		undecided = [call for call in calls if self.needs_approval(call) and call.id not in decisions]
		if undecided and self.can_pause:
			for call in undecided:
				self.on_event(ToolApprovalEvent(call=call, turn=turn, origin=self.origin(call)))
			result = self._result("paused", "".join(self.text))
			result.pending = tuple(undecided)
			return result
		images: list[tuple[str, tuple[ToolImage, ...]]] = []
		for number, call in enumerate(calls, 1):
			if self.should_cancel():
				raise llm.Cancelled("The run was stopped.", partial=None)
			self.on_event(ToolCallEvent(call=call, turn=turn, origin=self.origin(call)))
			decision = decisions.get(call.id)
			if self.needs_approval(call) and not (decision and decision.approved):
				outcome = _refused(call, decision)
			else:
				outcome = execute_tool_call(call, self.tools, self.max_context_chars, self.takes_images, self.overflow)
			self.on_event(
				ToolResultEvent(
					call=call,
					content=outcome.content,
					ok=outcome.ok,
					error=outcome.error,
					duration_ms=outcome.duration_ms,
					truncated=outcome.truncated,
					turn=turn,
					result=outcome.result,
					detail=outcome.detail,
					declined=decision is not None and not decision.approved,
					more=number < len(calls),
				)
			)
			self.added.append({"role": "tool", "tool_call_id": call.id, "content": outcome.content})
			if outcome.images:
				images.append((f"{call.name} (call {call.id})", outcome.images))
		if images:  # a tool message takes no images: they follow the round's results as one user message
			self.added.append(tool_images_message(images))
		return None

	def needs_approval(self, call: ToolCall) -> bool:
		return bool(getattr(self.tools.get(call.name), "requires_approval", False))

	def origin(self, call: ToolCall):
		return getattr(self.tools.get(call.name), "origin", None)

	def delta_sink(self, turn: int) -> Callable[[str], None]:
		"""Emits each piece as it comes; a piece that would take the answer past its limit stops the
		model call (the error passes through the gateway unchanged) and is neither shown nor kept."""

		def sink(content: str) -> None:
			if self.max_chars and self.chars + len(content) > self.max_chars:
				raise llm.LLMError(
					"response_too_long",
					f"The answer grew longer than {self.max_chars:,} characters, the most one run may write, so it was stopped. "
					"Ask for a shorter answer, or raise Max Response Characters in Agent Settings.",
				)
			self.chars += len(content)
			self.text.append(content)
			self.on_event(DeltaEvent(content=content, turn=turn))

		return sink

	def record_usage(self, usage: Usage, model: str, turn: int) -> None:
		self.usage += usage
		self.cost += self.cost_of(model, usage)
		self.model = model or self.model
		self.on_event(UsageEvent(usage=usage, turn=turn, model=model))

	def record_model_turn(self, model_turn: llm.ModelTurn, turn: int) -> None:
		self.record_usage(model_turn.usage, model_turn.model, turn)
		self.on_event(
			AssistantEvent(
				content=model_turn.content,
				tool_calls=model_turn.tool_calls,
				turn=turn,
				usage=model_turn.usage,
				model=model_turn.model,
			)
		)
		message: dict = {"role": "assistant", "content": model_turn.content or ""}
		if model_turn.tool_calls:
			message["tool_calls"] = [call.to_openai() for call in model_turn.tool_calls]
		self.added.append(message)

	def finish(self, status: str, response: str, started: float) -> LoopResult:
		duration = round(time.perf_counter() - started, 6)
		if status == "success":
			self.on_event(
				CompleteEvent(response=response, usage=self.usage, turns=self.turns, duration_seconds=duration, cost=self.cost)
			)
		return self._result(status, response)

	def fail(self, error: ErrorEvent) -> LoopResult:
		self.on_event(error)
		result = self._result("failed", "".join(self.text))
		result.error = error
		return result

	def _result(self, status: str, response: str) -> LoopResult:
		return LoopResult(
			status=status,
			response=response,
			usage=self.usage,
			cost=round(self.cost, 8),
			turns=self.turns,
			model=self.model,
			messages=self.added,
		)


def _refused(call: ToolCall, decision: Decision | None) -> ToolOutcome:
	"""The result of a call that did not run: a person declined it (with their comment), or nobody could be asked."""
	if decision is None:
		message = NO_APPROVER.format(name=call.name)
	else:
		message = DECLINED.format(name=call.name) + (f" Their comment: {decision.comment}" if decision.comment else "")
	return ToolOutcome(json.dumps({"error": message}), False, message, None, False, 0.0)
