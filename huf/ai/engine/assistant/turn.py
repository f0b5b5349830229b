"""One assistant turn: propose, check, retry.

The model answers through the agent loop (``loop.run_loop``, so streaming, retries and the
model-not-found fallback of ``llm.stream_turn`` apply, and it may call its read-only tools first).
Its answer is checked (``check``: ``proposal.check_flow`` or ``check_agent``); one with problems
(malformed JSON, an unknown node type or tool, a failed flow check) goes back to the model with the
exact problems, at most ``MAX_ATTEMPTS`` attempts in all. When none passes, the best attempt (a
readable one with the fewest problems) comes back with its problems. Progress is reported as it
happens: reading (the request, then each tool the model reads the site with), drafting, checking,
fixing. The answer carries the turn's tokens, cost, model calls and duration. ``should_cancel``
(e.g. the turn's time is up) ends it with the best attempt so far, when there is one. A model failure (no
key, rate limit, no such model after the fallbacks) ends the turn with the error's kind, message
and the provider's own words, never a key (``llm_errors`` scrubs them)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from huf.ai.engine import llm
from huf.ai.engine.assistant.proposal import Checked
from huf.ai.engine.events import ErrorEvent, Event, ToolCallEvent, Usage
from huf.ai.engine.loop import CostOf, LoopSettings, ModelCall, run_loop
from huf.ai.engine.tools import Tool

MAX_ATTEMPTS = 3
SETTINGS = LoopSettings(max_turns=8, max_context_chars=12_000)
WORDS = {"reading": "Reading the site", "drafting": "Drafting", "checking": "Checking", "fixing": "Fixing"}
STOPPED = "The assistant was stopped, or ran out of time, before it had an answer. Ask for less at once, or try again."
FEEDBACK = (
	"Your proposal does not pass the checks. Problems:\n{problems}\n"
	"Answer again with the whole corrected JSON object (attempt {next} of {most})."
)


@dataclass(frozen=True)
class Progress:
	step: str  # reading | drafting | checking | fixing
	attempt: int
	detail: str = ""
	type: str = field(default="progress", init=False)

	def to_dict(self) -> dict:
		return {"step": self.step, "label": WORDS[self.step], "attempt": self.attempt, "detail": self.detail}


@dataclass
class Answer:
	status: str  # "ok" | "problems" (the best attempt, with what is left) | "failed" (the model could not be used)
	result: dict | None = None
	proposal: dict | None = None
	changes: dict = field(default_factory=dict)
	problems: list[str] = field(default_factory=list)
	attempts: int = 0
	model_calls: int = 0
	usage: Usage = field(default_factory=Usage)
	cost: float = 0.0
	duration_seconds: float = 0.0
	model: str = ""
	error: ErrorEvent | None = None

	def to_dict(self) -> dict:
		answer = {
			"status": self.status, "result": self.result, "proposal": self.proposal, "changes": self.changes,
			"problems": self.problems, "attempts": self.attempts, "model_calls": self.model_calls,
			"usage": self.usage.to_dict(), "cost": round(self.cost, 6), "duration_seconds": round(self.duration_seconds, 3), "model": self.model,
		}  # fmt: skip
		if self.error:
			answer["error"] = {"kind": self.error.kind, "message": self.error.message, "cause": self.error.cause}
		return answer


def run_turn(
	request: llm.LLMRequest,
	tools: Sequence[Tool],
	check: Callable[[str], Checked],
	on_progress: Callable[[Progress], None],
	cost_of: CostOf = lambda _model, _usage: 0.0,
	should_cancel: Callable[[], bool] = lambda: False,
	call_model: ModelCall = llm.stream_turn,
	max_attempts: int = MAX_ATTEMPTS,
	settings: LoopSettings = SETTINGS,
) -> Answer:
	started = time.perf_counter()
	on_progress(Progress("reading", 0, "your request"))
	answer, best, messages = Answer("problems"), None, list(request.messages)
	for attempt in range(1, max_attempts + 1):
		on_progress(Progress("drafting", attempt))

		def listen(event: Event, attempt=attempt) -> None:
			if isinstance(event, ToolCallEvent):
				on_progress(Progress("reading", attempt, event.call.name))

		result = run_loop(
			replace(request, messages=messages), tools, listen, settings, should_cancel, cost_of, call_model=call_model
		)
		answer.attempts, answer.model_calls = attempt, answer.model_calls + result.turns
		answer.usage, answer.cost, answer.model = (
			answer.usage + result.usage,
			answer.cost + result.cost,
			result.model or answer.model,
		)
		if result.status == "cancelled" and best is not None:
			break  # out of time: the best attempt so far, with its problems
		if result.status != "success":
			answer.status, answer.error = "failed", result.error or ErrorEvent("cancelled", STOPPED)
			break
		on_progress(Progress("checking", attempt))
		checked = check(result.response)
		if best is None or _rank(checked) < _rank(best):
			best = checked
		if not checked.problems:
			break
		if attempt < max_attempts:
			on_progress(Progress("fixing", attempt, f"{len(checked.problems)} problem(s)"))
			problems = "\n".join(f"- {problem}" for problem in checked.problems)
			messages += [
				*result.messages,
				{"role": "user", "content": FEEDBACK.format(problems=problems, next=attempt + 1, most=max_attempts)},
			]
	if best is not None and answer.status != "failed":
		answer.status = "ok" if not best.problems else "problems"
		answer.result, answer.proposal, answer.changes, answer.problems = best.result, best.proposal, best.changes, best.problems
	answer.duration_seconds = time.perf_counter() - started
	return answer


def _rank(checked: Checked) -> tuple[bool, int]:
	return checked.result is None, len(checked.problems)
