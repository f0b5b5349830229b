"""Tool calls: argument validation, unknown tools and exceptions become results the model reads."""

import base64
import json

from huf.ai.engine.events import ToolCall
from huf.ai.engine.messages import MAX_IMAGE_BYTES
from huf.ai.engine.tools import Tool, ToolError, ToolImage, ToolOutput, execute_tool_call, truncate

SCHEMA = {
	"type": "object",
	"properties": {"name": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
	"required": ["name"],
	"additionalProperties": False,
}


def make_tools(handler=lambda args: {"got": args}) -> dict:
	return {"lookup": Tool("lookup", "Look something up", SCHEMA, handler)}


def run(arguments: str, tools=None, max_chars: int = 1000, name: str = "lookup"):
	return execute_tool_call(ToolCall("c1", name, arguments), tools or make_tools(), max_chars)


def test_valid_arguments_reach_the_handler_and_the_result_is_json():
	outcome = run('{"name": "x", "qty": 2}')
	assert outcome.ok and outcome.result == {"got": {"name": "x", "qty": 2}}
	assert json.loads(outcome.content) == {"got": {"name": "x", "qty": 2}}


def test_schema_violations_are_all_reported_and_the_handler_never_runs():
	calls = []
	outcome = run('{"qty": 0, "extra": 1}', make_tools(lambda a: calls.append(a)))
	assert not outcome.ok and calls == []
	assert "'name' is a required property" in outcome.error
	assert "qty: 0 is less than the minimum of 1" in outcome.error
	assert "Additional properties are not allowed" in outcome.error


def test_malformed_json_and_non_object_arguments_are_tool_errors():
	assert "not valid JSON" in run('{"name": ').error
	assert "must be a JSON object" in run("[1, 2]").error
	assert run("").error == "Invalid arguments for lookup: 'name' is a required property"


def test_unknown_tool_names_the_available_ones():
	outcome = run("{}", name="nope")
	assert not outcome.ok and "There is no tool named 'nope'" in outcome.error and "lookup" in outcome.error


def test_a_tool_error_reaches_the_model_as_written():
	def polite(_args):
		raise ToolError("Sales Order SO-1 was not found.")

	outcome = run('{"name": "x"}', make_tools(polite))
	assert outcome.error == "Sales Order SO-1 was not found." and outcome.detail is None
	assert json.loads(outcome.content) == {"error": "Sales Order SO-1 was not found."}


def test_an_unexpected_exception_reaches_the_model_only_as_a_general_message():
	def boom(_args):
		raise ValueError("connect to db-internal.corp:3306 as huf_admin failed")

	outcome = run('{"name": "x"}', make_tools(boom))
	assert not outcome.ok and "db-internal" not in outcome.content and "ValueError" not in outcome.content
	assert json.loads(outcome.content) == {"error": outcome.error}
	assert outcome.error == "The tool lookup failed with an unexpected error. Its details were kept for an administrator."
	assert outcome.detail == "ValueError: connect to db-internal.corp:3306 as huf_admin failed"  # for the tool call row


def test_results_are_truncated_at_max_chars_and_say_so():
	outcome = run('{"name": "x"}', make_tools(lambda a: "y" * 500), max_chars=100)
	assert outcome.truncated and outcome.content.startswith("y" * 100)
	assert "the result was 500 characters; only the first 100 are shown" in outcome.content
	assert truncate("short", 0) == ("short", False)


def test_images_a_model_cannot_take_are_notes_and_what_is_kept_is_the_text_it_read():
	png = base64.b64encode(b"\x89PNG" + b"\0" * 66).decode()
	huge = base64.b64encode(b"\0" * (MAX_IMAGE_BYTES + 1)).decode()
	output = ToolOutput(["before", ToolImage("image/png", png), ToolImage("image/png", huge), ToolImage("image/svg+xml", png), ToolImage("image/png", "not base64!"), "after"])
	tools = make_tools(lambda args: output)

	seeing = execute_tool_call(ToolCall("c1", "lookup", '{"name": "x"}'), tools, 0, takes_images=lambda: True)
	assert seeing.images == (ToolImage("image/png", png),)
	assert seeing.content.split("\n") == [
		"before",
		"[image: image/png, 70 bytes; shown to you in a message after the tool results (images are not kept in the conversation history)]",
		"[image: image/png, 5.0 MB; not shown to you: larger than the 5 MB an image may have]",
		"[image: image/svg+xml, 70 bytes; not shown to you: models take only PNG, JPEG, GIF and WebP images]",
		"[image: image/png, 11 bytes; not shown to you: its data is not valid base64]",
		"after",
	]
	assert seeing.result == seeing.content  # kept as the model read it, without the image data

	blind = run('{"name": "x"}', tools, max_chars=60)
	assert blind.images == () and blind.truncated and blind.result == blind.content
	assert blind.content.startswith("before\n[image: image/png, 70 bytes; not shown to you]\n[image\n[truncated: the result was 202")
	assert str(output).split("\n")[1] == "[image: image/png, 70 bytes; not shown to you]"  # as text: what a model without vision reads
