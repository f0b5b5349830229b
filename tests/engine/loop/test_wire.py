"""What clients get on the wire: deltas carry only their piece, and a reader that has none of the
text gets it once, as a snapshot in place of the deltas it missed."""

from huf.ai.engine.events import CompleteEvent, DeltaEvent, ResumedEvent, Usage
from huf.ai.engine.wire import fold, to_wire

STARTED = ("1-0", "status", {"type": "status", "status": "Started"})
CALL = ("4-0", "tool_call", {"type": "tool_call", "id": "c1"})
RESULT = ("5-0", "tool_result", {"type": "tool_result", "id": "c1"})


def delta(entry_id: str, content: str):
	return (entry_id, "delta", {"type": "delta", "content": content})


def test_a_delta_carries_its_piece_and_complete_the_whole_text():
	assert to_wire(DeltaEvent(content="lo", turn=2), "run-1", "conv-1") == ("delta", {"type": "delta", "content": "lo"})
	name, data = to_wire(CompleteEvent(response="Hello", usage=Usage(1, 2), turns=1, duration_seconds=0.5), "run-1", "conv-1")
	assert name == "complete" and data["response"] == data["full_response"] == "Hello"


def test_a_reader_with_no_text_gets_it_once_where_the_last_missed_delta_was():
	missed = [STARTED, delta("2-0", "Let me "), delta("3-0", "look. "), CALL, RESULT, delta("6-0", "Found it"), delta("7-0", ".")]
	assert fold(missed, "Let me look. Found it.", whole=True) == [
		STARTED,
		CALL,
		RESULT,
		("7-0", "snapshot", {"type": "snapshot", "full_response": "Let me look. Found it."}),
	]


def test_events_after_the_last_delta_keep_their_place():
	missed = [STARTED, delta("2-0", "Hi"), CALL]
	assert fold(missed, "Hi", whole=True) == [STARTED, ("2-0", "snapshot", {"type": "snapshot", "full_response": "Hi"}), CALL]


def test_a_reconnect_the_log_still_holds_gets_exactly_what_it_missed():
	missed = [delta("6-0", "Found it"), delta("7-0", ".")]
	assert fold(missed, "Let me look. Found it.", whole=True) != missed
	assert fold(missed, "Let me look. Found it.", whole=False) == missed


def test_a_log_trimmed_of_every_delta_still_gives_the_text_first():
	assert fold([RESULT], "Let me look.", whole=True) == [(None, "snapshot", {"type": "snapshot", "full_response": "Let me look."}), RESULT]
	assert fold([STARTED], "", whole=True) == [STARTED]  # no text yet: nothing to say


def test_without_its_text_key_the_snapshot_is_built_from_the_deltas():
	assert fold([delta("2-0", "a"), delta("3-0", "b")], "", whole=True) == [("3-0", "snapshot", {"type": "snapshot", "full_response": "ab"})]


def test_a_resumed_run_says_so_with_the_text_it_goes_on_from_and_replaces_what_was_shown():
	name, data = to_wire(ResumedEvent(text="Let me look. "), "run-1", "conv-1")
	assert name == "resumed" and data == {"type": "resumed", "run": "run-1", "full_response": "Let me look. "}
	# the lost round's delta ("Half an ans") is folded away; the resumed event keeps its place before the new text
	lost = delta("2-0", "Half an ans")
	resumed = ("3-0", "resumed", data)
	missed = [STARTED, lost, resumed, delta("4-0", "Found it.")]
	assert fold(missed, "Let me look. Found it.", whole=True) == [
		STARTED,
		resumed,
		("4-0", "snapshot", {"type": "snapshot", "full_response": "Let me look. Found it."}),
	]
