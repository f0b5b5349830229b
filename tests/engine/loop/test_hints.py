"""Static hints files: checked whole, indexed by DocType, workflows found by the DocTypes they name."""

import json

import pytest

from huf.ai.engine.hints import HintFileError, HintIndex, parse, read_folder

ORDER = {"type": "doctype", "target": "Sales Order", "hint": "Confirms a sale."}
QUOTE_TO_ORDER = {
	"type": "workflow",
	"target": "Quote to order",
	"id": "WF-1",
	"steps": ["Accept the Quotation.", "Create the Sales Order from it."],
	"related_doctypes": ["Quotation", "Sales Order"],
}
UNLISTED = {"type": "workflow", "target": "Ship it", "description": "After a Sales Order", "steps": ["Make a Delivery Note."]}


def test_a_good_file_gives_its_hints():
	assert parse(json.dumps([ORDER, QUOTE_TO_ORDER])) == [ORDER, QUOTE_TO_ORDER]


@pytest.mark.parametrize(
	"text, says",
	[
		("{not json", "not valid JSON"),
		(json.dumps(ORDER), "must hold a JSON list"),
		(json.dumps(["x"]), "hint 1 is not an object"),
		(json.dumps([ORDER, {"type": "note", "target": "x"}]), 'hint 2: "type" must be "doctype" or "workflow"'),
		(json.dumps([{"type": "doctype", "target": "ToDo"}]), '"hint" must be a text'),
		(json.dumps([{"type": "doctype", "target": " ", "hint": "h"}]), '"target" must be a text'),
		(json.dumps([dict(ORDER, hints="typo")]), "a doctype hint has no field 'hints'"),
		(json.dumps([{"type": "workflow", "target": "w", "steps": []}]), '"steps" must be a list of texts'),
		(json.dumps([dict(QUOTE_TO_ORDER, related_doctypes="Quotation")]), '"related_doctypes" must be a list'),
		(json.dumps([dict(QUOTE_TO_ORDER, id=7)]), '"id" must be a text'),
	],
)
def test_a_bad_file_is_refused_saying_where_and_why(text, says):
	with pytest.raises(HintFileError, match=says.replace("(", r"\(")):
		parse(text)


def test_a_folder_gives_the_good_files_and_names_the_bad_ones(tmp_path):
	(tmp_path / "a.json").write_text(json.dumps([ORDER]))
	(tmp_path / "b.json").write_text("[{")
	(tmp_path / "c.json").write_bytes(b"\xff\xfe[")
	(tmp_path / "notes.txt").write_text("not a hints file")
	hints, bad = read_folder(tmp_path)
	assert hints == [ORDER]
	assert [path.rsplit("/", 1)[1] for path, _ in bad] == ["b.json", "c.json"]
	assert "not valid JSON" in bad[0][1]


def test_a_doctype_gets_its_hints_and_the_workflows_that_mention_it():
	index = HintIndex([ORDER, dict(ORDER, hint="Second app's words."), QUOTE_TO_ORDER, UNLISTED])
	assert index.for_doctype("Sales Order") == {
		"hints": ["Confirms a sale.", "Second app's words."],
		"workflows": [QUOTE_TO_ORDER, UNLISTED],
	}
	assert index.for_doctype("Quotation") == {"workflows": [QUOTE_TO_ORDER]}
	assert index.for_doctype("Delivery Note") == {"workflows": [UNLISTED]}  # named in a step
	assert index.for_doctype("Delivery Not") == {}  # a part of a word is not a mention
	assert index.for_doctype("ToDo") == {}
