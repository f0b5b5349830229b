"""Over-long tool results as artifacts: the model reads a small reference and pages through the whole
result with read_artifact, through real LiteLLM speaking HTTP to the scripted server."""

import json

from huf.ai.engine import artifacts
from huf.ai.engine.events import ToolResultEvent
from huf.ai.engine.llm import LLMRequest, ModelSpec
from huf.ai.engine.loop import LoopSettings, run_loop
from huf.ai.engine.tools import Tool
from tests.support.scripted_llm import prompt_tokens, text, tool_calls

ROWS = [{"item": f"ITEM-{i:05d}", "qty": i % 17, "note": "x" * 80} for i in range(9000)]
BIG = json.dumps({"rows": ROWS, "total": len(ROWS)})  # about 1 MB


class Kept:
	def __init__(self):
		self.items: dict[str, str] = {}

	def store(self, name: str, text_: str) -> str:
		artifact = f"art-{len(self.items) + 1}"
		self.items[artifact] = text_
		return artifact

	def read(self, artifact: str) -> str:
		if artifact not in self.items:
			raise artifacts.ArtifactMissing(artifact)
		return self.items[artifact]


def export_tool(payload: str) -> Tool:
	return Tool("export_rows", "All rows", {"type": "object", "properties": {}}, lambda _args: payload)


def request(server) -> LLMRequest:
	spec = ModelSpec(model="scripted-model", provider="OpenAI", api_key="sk-test", api_base=server.base_url)
	return LLMRequest(model=spec, messages=[{"role": "system", "content": "You help."}, {"role": "user", "content": "Export the rows."}])


def settings(kept: Kept, max_chars: int = 20000, max_turns: int = 10) -> LoopSettings:
	return LoopSettings(max_turns=max_turns, max_context_chars=max_chars, overflow=artifacts.stasher(kept.store))


def page(content: str) -> tuple[dict, str]:
	where, _, body = content.partition("\n")
	return json.loads(where), body


def contents(events) -> list[str]:
	return [event.content for event in events if isinstance(event, ToolResultEvent)]


def test_a_1_mb_result_is_kept_whole_and_the_model_pages_through_it(llm):
	kept = Kept()
	size, limit = 20000, 20000 - artifacts.PAGE_HEADER
	reads = [(f"r{n}", "read_artifact", json.dumps({"id": "art-1", "offset": n * limit, "limit": limit})) for n in range(-(-len(BIG) // limit))]
	llm.script(tool_calls([("c1", "export_rows", "{}")]), *[tool_calls([call]) for call in reads], text("All read."))
	events = []
	kept_tools = [export_tool(BIG), artifacts.read_tool(kept.read, size)]
	result = run_loop(request(llm), kept_tools, events.append, settings(kept, size, max_turns=len(reads) + 2))
	assert result.status == "success" and kept.items == {"art-1": BIG}
	shown, *pages = contents(events)
	reference = json.loads(shown)
	assert reference["artifact"] == "art-1" and reference["beginning"] == BIG[: artifacts.HEAD_CHARS]
	assert "list of 9,000 items of {item: str, qty: int, note: str}" in reference["shape"] and "read_artifact" in reference["note"]
	assert len(shown) < 3000
	parts = [page(p) for p in pages]
	assert all(len(p) <= size for p in pages)  # each page fits: none is cut nor kept again
	assert "".join(body for _where, body in parts) == BIG and kept.items.keys() == {"art-1"}
	assert parts[-1][0]["next_offset"] is None and all(where["total"] == len(BIG) for where, _body in parts)


def test_the_turn_after_a_1_mb_result_is_within_2000_tokens_of_one_after_a_short_result(llm):
	sizes = []
	for payload in (BIG, json.dumps({"rows": ROWS[:3], "total": 3})):
		llm.reset()
		llm.script(tool_calls([("c1", "export_rows", "{}")]), text("Done."))
		run_loop(request(llm), [export_tool(payload), artifacts.read_tool(Kept().read, 20000)], lambda _e: None, settings(Kept()))
		sizes.append(prompt_tokens(llm.chat_requests[1]["body"]))
	assert sizes[0] - sizes[1] < 2000, sizes


def test_bad_reads_are_results_the_model_reads(llm):
	kept = Kept()
	kept.store("x", "abc" * 1000)
	llm.script(
		tool_calls([("r1", "read_artifact", '{"id": "art-9"}')]),
		tool_calls([("r2", "read_artifact", '{"id": "art-1", "offset": 5000}')]),
		tool_calls([("r3", "read_artifact", '{"id": "art-1", "offset": 10, "limit": 99999}')]),
		text("ok"),
	)
	events = []
	run_loop(request(llm), [artifacts.read_tool(kept.read, 1000)], events.append, settings(kept, 1000))
	missing, past, capped = contents(events)
	assert json.loads(missing) == {"error": "There is no artifact 'art-9' in this conversation."}
	assert "offset 5,000 is past its end" in json.loads(past)["error"]
	where, body = page(capped)
	assert body == ("abc" * 1000)[10:810] and where["next_offset"] == 810 and len(capped) <= 1000


def test_without_a_store_or_when_it_fails_the_result_is_cut_as_before(llm):
	llm.script(tool_calls([("c1", "export_rows", "{}")]), text("ok"))
	events = []
	failing = LoopSettings(max_context_chars=500, overflow=artifacts.stasher(lambda _name, _text: None))
	run_loop(request(llm), [export_tool(BIG)], events.append, failing)
	assert contents(events)[0].startswith(BIG[:500]) and "[truncated: the result was" in contents(events)[0]


def test_the_outline_says_the_shape_of_json_and_the_size_of_text():
	assert artifacts.outline('{"a": [1, 2], "b": {"c": null}}') == "{a: list of 2 items of int, b: {c: null}}"
	assert artifacts.outline("line\n" * 3) == "text, 15 characters in 4 lines"
	assert len(artifacts.outline(json.dumps({f"k{i}": i for i in range(500)}))) <= artifacts.OUTLINE_CHARS
