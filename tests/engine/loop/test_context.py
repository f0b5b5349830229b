"""Context strategies: None, FIFO and Summarize."""

from huf.ai.engine.context import SUMMARY_HEADING, ContextSettings, build_context
from huf.ai.engine.messages import tool_images_message
from huf.ai.engine.tools import ToolImage


def conversation(n: int) -> list[dict]:
	return [{"role": "user" if i % 2 == 0 else "assistant", "content": f"m{i}"} for i in range(n)]


def test_none_keeps_everything_and_fifo_keeps_the_newest():
	history = conversation(30)
	assert build_context(history, ContextSettings("None", 5)).messages == history
	assert build_context(history, ContextSettings("FIFO", 5)).messages == history[-5:]


def test_summarize_folds_the_oldest_share_into_a_summary():
	history = conversation(20)
	prompts = []

	def summarize(prompt: str) -> str:
		prompts.append(prompt)
		return "they talked about m0 to m13"

	plan = build_context(history, ContextSettings("Summarize", 10, 0.7, "Condense: {summary_data}"), None, summarize)
	assert plan.folded == 14 and plan.summary == "they talked about m0 to m13"
	assert plan.messages[0] == {"role": "system", "content": SUMMARY_HEADING + plan.summary}
	assert plan.messages[1:] == history[14:]
	assert prompts[0].startswith("Condense: ") and "user: m0" in prompts[0] and "m14" not in prompts[0]


def test_summarize_carries_the_previous_summary_forward():
	seen = []
	plan = build_context(conversation(12), ContextSettings("Summarize", 10, 0.5), "old facts", lambda p: seen.append(p) or "new")
	assert "old facts" in seen[0] and "{summary_data}" not in seen[0]
	assert plan.summary == "new"


def test_summarize_under_the_limit_only_prepends_the_existing_summary():
	history = conversation(4)
	plan = build_context(history, ContextSettings("Summarize", 10), "earlier", lambda p: "unused")
	assert plan.folded == 0 and plan.messages[1:] == history and "earlier" in plan.messages[0]["content"]


def test_summarize_never_splits_a_tool_call_group():
	history = conversation(6) + [
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "t", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c", "content": "r"},
		{"role": "assistant", "content": "done"},
	]
	plan = build_context(history, ContextSettings("Summarize", 5, 0.8), None, lambda p: "s")
	assert plan.messages[1]["role"] != "tool"


def test_fifo_and_summarize_keep_a_rounds_images_with_its_tool_results_and_never_summarize_their_data():
	images = tool_images_message([("t (call c)", [ToolImage("image/png", "iVBORw0KGgo=")])])
	history = conversation(6) + [
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "t", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c", "content": "r"},
		images,
		{"role": "assistant", "content": "done"},
	]
	for limit in (2, 3):  # the newest would start at the images or the tool result: both go
		assert build_context(history, ContextSettings("FIFO", limit)).messages == history[-1:]
	assert build_context(history, ContextSettings("FIFO", 4)).messages == history[-4:]
	prompts = []
	plan = build_context(history, ContextSettings("Summarize", 5, 0.85), None, lambda p: prompts.append(p) or "s")
	assert plan.messages[1:] == history[-1:]
	assert "user: Images from the tool results above" in prompts[0] and "[image]" in prompts[0]
	assert "iVBORw0KGgo" not in prompts[0]
