"""Context strategies: what of a conversation's history goes to the model.

- ``None``: everything.
- ``FIFO``: the newest ``history_limit`` messages, cut only at a tool-call group boundary.
- ``Summarize``: past ``history_limit``, the oldest ``summary_ratio`` of the history is folded into a
  rolling summary (by the summary model, through ``summarize``) and only the rest is sent verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from huf.ai.engine.messages import safe_history_slice, safe_history_split

DEFAULT_SUMMARY_PROMPT = (
	"Summarize the conversation below so an assistant can continue it. Keep names, numbers, "
	"document IDs, decisions and open questions; drop pleasantries. Write plain prose.\n\n{summary_data}"
)
SUMMARY_HEADING = "Summary of the earlier conversation:\n"


@dataclass(frozen=True)
class ContextSettings:
	strategy: str = "FIFO"  # "None" | "FIFO" | "Summarize"
	history_limit: int = 20
	summary_ratio: float = 0.7
	summary_prompt: str | None = None


@dataclass(frozen=True)
class ContextPlan:
	messages: list[dict]
	summary: str | None  # the summary to keep after this run (unchanged when nothing was folded)
	folded: int  # how many history messages this run folded into the summary


def build_context(
	history: list[dict],
	settings: ContextSettings,
	summary: str | None = None,
	summarize: Callable[[str], str] | None = None,
) -> ContextPlan:
	"""Choose the history messages (and summary message) the model sees for the next run."""
	if settings.strategy == "FIFO":
		return ContextPlan(safe_history_slice(history, settings.history_limit), summary, 0)
	if settings.strategy != "Summarize" or len(history) <= settings.history_limit or summarize is None:
		return ContextPlan(_with_summary(summary, history), summary, 0)
	older, newer = safe_history_split(history, int(len(history) * settings.summary_ratio))
	if not older:
		return ContextPlan(_with_summary(summary, history), summary, 0)
	prompt = (settings.summary_prompt or DEFAULT_SUMMARY_PROMPT)
	if "{summary_data}" not in prompt:
		prompt += "\n\n{summary_data}"
	data = (f"{SUMMARY_HEADING}{summary}\n\n" if summary else "") + render_transcript(older)
	new_summary = summarize(prompt.replace("{summary_data}", data)).strip() or summary
	return ContextPlan(_with_summary(new_summary, newer), new_summary, len(older))


def render_transcript(messages: list[dict]) -> str:
	"""Messages as plain text lines for a summary model."""
	lines = []
	for message in messages:
		role = message.get("role", "")
		if message.get("tool_calls"):
			names = ", ".join(call["function"]["name"] for call in message["tool_calls"])
			lines.append(f"assistant called tools: {names}")
		content = message.get("content")
		if isinstance(content, list):  # text and image parts: the images as a word, never their data
			content = " ".join(part.get("text", "") if part.get("type") == "text" else "[image]" for part in content)
		if content:
			lines.append(f"{role}: {content}")
	return "\n".join(lines)


def _with_summary(summary: str | None, messages: list[dict]) -> list[dict]:
	if not summary:
		return list(messages)
	return [{"role": "system", "content": SUMMARY_HEADING + summary}, *messages]
