"""History slicing at tool-call group boundaries and repair of broken sequences."""

from huf.ai.engine.messages import (
	is_tool_images,
	repair_message_sequence,
	safe_history_slice,
	safe_history_split,
	tool_images_message,
)
from huf.ai.engine.tools import ToolImage


def call(call_id: str, name: str = "t") -> dict:
	return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def assistant_calls(*ids: str, content: str = "") -> dict:
	return {"role": "assistant", "content": content, "tool_calls": [call(i) for i in ids]}


def result(call_id: str, content: str = "ok") -> dict:
	return {"role": "tool", "tool_call_id": call_id, "content": content}


HISTORY = [
	{"role": "user", "content": "u1"},
	assistant_calls("a", "b"),
	result("a"),
	result("b"),
	{"role": "assistant", "content": "done"},
	{"role": "user", "content": "u2"},
	{"role": "assistant", "content": "r2"},
]


def test_slice_never_starts_inside_a_tool_call_group():
	# the newest 4 would start at result("b"); the slice moves forward to the next boundary
	assert safe_history_slice(HISTORY, 4) == HISTORY[4:]
	assert safe_history_slice(HISTORY, 6) == HISTORY[1:]
	assert safe_history_slice(HISTORY, 100) == HISTORY
	assert safe_history_slice(HISTORY, 0) == []


def test_split_moves_forward_to_a_boundary_and_keeps_every_message():
	older, newer = safe_history_split(HISTORY, 2)
	assert older == HISTORY[:4] and newer == HISTORY[4:]
	assert older + newer == HISTORY


def test_a_valid_sequence_is_left_alone():
	repaired, notes = repair_message_sequence(HISTORY)
	assert repaired == HISTORY and notes == []


def test_orphaned_and_duplicate_tool_results_are_dropped():
	broken = [result("x"), {"role": "user", "content": "u"}, assistant_calls("a"), result("a"), result("a", "again"), result("zzz")]
	repaired, notes = repair_message_sequence(broken)
	assert repaired == [{"role": "user", "content": "u"}, assistant_calls("a"), result("a")]
	assert len(notes) == 3


def test_unanswered_calls_are_restored_from_records_or_removed():
	broken = [assistant_calls("a", "b", content="let me look"), result("a"), {"role": "user", "content": "next"}]
	repaired, notes = repair_message_sequence(broken, lookup_result=lambda call_id: None)
	assert repaired[0]["tool_calls"] == [call("a")]
	restored, _ = repair_message_sequence(broken, lookup_result=lambda call_id: '{"from": "record"}')
	assert restored[1:3] == [result("a"), result("b", '{"from": "record"}')]


def test_an_assistant_left_with_nothing_is_dropped_but_its_text_is_kept():
	only_calls = [{"role": "user", "content": "u"}, assistant_calls("a")]
	assert repair_message_sequence(only_calls)[0] == [{"role": "user", "content": "u"}]
	with_text = [assistant_calls("a", content="thinking")]
	assert repair_message_sequence(with_text)[0] == [{"role": "assistant", "content": "thinking"}]


def test_repair_does_not_mutate_its_input():
	broken = [assistant_calls("a", "b"), result("a")]
	snapshot = [dict(m) for m in broken]
	repair_message_sequence(broken)
	assert broken == snapshot


IMAGES = tool_images_message([("t (call a)", [ToolImage("image/png", "iVBORw0KGgo=")])])


def test_a_rounds_images_stay_right_after_its_tool_results():
	history = [{"role": "user", "content": "u1"}, assistant_calls("a"), result("a"), IMAGES, {"role": "assistant", "content": "seen"}]
	assert is_tool_images(IMAGES) and not is_tool_images({"role": "user", "content": "u1"})
	assert repair_message_sequence(history) == (history, [])
	# a history never starts with them: the slice moves on past the group's tool results and images
	assert safe_history_slice(history, 2) == history[4:]
	assert safe_history_split(history, 3) == (history[:4], history[4:])


def test_images_whose_tool_results_are_gone_or_that_follow_none_are_dropped():
	unanswered = [{"role": "user", "content": "u"}, assistant_calls("a"), IMAGES]
	assert repair_message_sequence(unanswered)[0] == [{"role": "user", "content": "u"}]
	stray = [{"role": "user", "content": "u"}, IMAGES, {"role": "assistant", "content": "r"}]
	repaired, notes = repair_message_sequence(stray)
	assert repaired == [stray[0], stray[2]] and notes == ["dropped tool images that did not follow their tool results"]
	restored = repair_message_sequence([assistant_calls("a"), IMAGES], lookup_result=lambda call_id: "from the record")[0]
	assert restored == [assistant_calls("a"), result("a", "from the record"), IMAGES]
