"""MCP tools in a real agent loop: a FastMCP server over streamable HTTP, the scripted model server
through LiteLLM. What the model reads of a result is cut once, by the agent's limit, and is what is
stored; images reach a model that takes images as images, and any other model reads a note."""

import base64

import pytest

from huf.ai.engine.events import ToolResultEvent
from huf.ai.engine.llm import LLMRequest, ModelSpec
from huf.ai.engine.loop import LoopSettings, run_loop
from huf.ai.engine.mcp import MCPPool, Policy, ServerConfig, list_tools
from huf.ai.engine.messages import TOOL_IMAGES
from tests.support.mcp_server import PNG, Served, build
from tests.support.scripted_llm import text, tool_calls

POLICY = Policy(allowed_hosts=frozenset({"127.0.0.1"}))
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()


@pytest.fixture(scope="module")
def server():
	with Served(build().streamable_http_app()) as served:
		yield ServerConfig(name="Test", transport="http", url=served.url + "/mcp", namespace="t", timeout=10)


def run(llm, server, model: str, call: tuple[str, str, str], settings: LoopSettings | None = None, vision=None):
	"""One loop: the model calls ``call``, then answers. The events and the second model request."""
	llm.script(tool_calls([call]), text("Seen."))
	spec = ModelSpec(model=model, provider="Local", api_key="sk-test", api_base=llm.base_url, vision=vision)
	request = LLMRequest(model=spec, messages=[{"role": "user", "content": "look"}])
	events = []
	with MCPPool(POLICY) as pool:
		result = run_loop(request, pool.tools(server, list_tools(server, POLICY)), events.append, settings or LoopSettings())
	assert result.status == "success", result.error
	return [e for e in events if isinstance(e, ToolResultEvent)], llm.chat_requests[1]["body"]["messages"]


def test_an_mcp_result_is_cut_once_by_the_agents_limit_and_stored_as_the_model_read_it(llm, server):
	results, sent = run(llm, server, "scripted-model", ("c1", "t__big", '{"chars": 200000}'), LoopSettings(max_context_chars=1000))

	(result,) = results
	note = "\n[truncated: the result was 200000 characters; only the first 1000 are shown]"
	assert result.content == "x" * 1000 + note and result.truncated
	assert result.result == result.content  # the recorder stores `result`: the text the model read, nothing more
	assert [m["content"] for m in sent if m["role"] == "tool"] == [result.content]


@pytest.mark.parametrize(
	"model, vision",
	[
		("gpt-4o", None),  # LiteLLM's model data says it takes images
		("my-llava", True),  # unknown to LiteLLM, but its spec says so
	],
)
def test_images_reach_a_model_that_takes_images_after_the_tool_results(llm, server, model, vision):
	results, sent = run(llm, server, model, ("c1", "t__picture", "{}"), vision=vision)

	assert [m["role"] for m in sent] == ["user", "assistant", "tool", "user"]
	tool, images = sent[2], sent[3]
	assert tool["content"].split("\n") == [
		"here it is",
		"[image: image/png, 70 bytes; shown to you in a message after the tool results"
		" (images are not kept in the conversation history)]",
		"[resource memo://note]",
		"the memo text",
	]
	assert images["content"] == [
		{"type": "text", "text": TOOL_IMAGES},
		{"type": "text", "text": "From t__picture (call c1):"},
		{"type": "image_url", "image_url": {"url": PNG_URL}},
	]
	assert results[0].result == tool["content"]  # what is stored: the text, without the image data


@pytest.mark.parametrize(
	"model, vision",
	[
		("scripted-model", None),  # unknown to LiteLLM's model data: no images
		("gpt-3.5-turbo", None),  # known, and LiteLLM says it takes no images
		("gpt-4o", False),  # the spec's own word wins over LiteLLM's
	],
)
def test_a_model_that_takes_no_images_reads_a_note(llm, server, model, vision):
	_results, sent = run(llm, server, model, ("c1", "t__picture", "{}"), vision=vision)

	assert [m["role"] for m in sent] == ["user", "assistant", "tool"]
	assert "[image: image/png, 70 bytes; not shown to you]" in sent[2]["content"].split("\n")
	assert "data:image" not in str(sent)
