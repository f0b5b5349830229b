"""History slicing at tool-call group boundaries and repair of broken sequences."""

from huf.ai.engine.messages import repair_message_sequence, safe_history_slice, safe_history_split


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
