"""Static hints for DocTypes and workflows, from the JSON files apps ship in ``<app>/huf/hints/``:
read, checked and indexed here, without Frappe (``huf/ai/tools/hints.py`` finds the folders).

A file holds a JSON list of hints, each one of:
- ``{"type": "doctype", "target": "Sales Order", "hint": "text for the model"}``
- ``{"type": "workflow", "target": "Quote to Sales Order", "steps": ["...", "..."],
  "description": "...", "id": "WF-1", "related_doctypes": ["Quotation", "Sales Order"]}``
  (``description``, ``id`` and ``related_doctypes`` optional).

A DocType's answer gets its doctype hints and the workflows that mention it: those that list it in
``related_doctypes``, or, for a workflow without that list, whose target, description or steps
name it as a whole word. A file with one bad entry is refused whole, saying which entry and why.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

FIELDS = {
	"doctype": {"type", "target", "hint"},
	"workflow": {"type", "target", "id", "description", "steps", "related_doctypes"},
}


class HintFileError(ValueError):
	"""What is wrong with a hints file, in words its author can act on."""


def parse(text: str) -> list[dict]:
	"""The hints in one file's text; HintFileError if any of it is wrong."""
	try:
		value = json.loads(text)
	except json.JSONDecodeError as error:
		raise HintFileError(f"it is not valid JSON ({error.msg} at line {error.lineno}, column {error.colno}).") from None
	if not isinstance(value, list):
		raise HintFileError("it must hold a JSON list of hints, [ {...}, {...} ].")
	return [_checked(entry, number) for number, entry in enumerate(value, start=1)]


def _checked(entry, number: int) -> dict:
	where = f"hint {number}"
	if not isinstance(entry, dict):
		raise HintFileError(f"{where} is not an object {{...}}.")
	kind = entry.get("type")
	if kind not in FIELDS:
		raise HintFileError(f'{where}: "type" must be "doctype" or "workflow", not {kind!r}.')
	unknown = sorted(set(entry) - FIELDS[kind])
	if unknown:
		raise HintFileError(f"{where}: a {kind} hint has no field {', '.join(map(repr, unknown))}.")
	_text(entry, "target", where, required=True)
	if kind == "doctype":
		_text(entry, "hint", where, required=True)
		return {"type": kind, "target": entry["target"].strip(), "hint": entry["hint"].strip()}
	for key in ("id", "description"):
		_text(entry, key, where, required=False)
	_texts(entry, "steps", where, required=True)
	_texts(entry, "related_doctypes", where, required=False)
	return {key: entry[key] for key in ("type", "target", "id", "description", "steps", "related_doctypes") if key in entry}


def _text(entry: dict, key: str, where: str, required: bool) -> None:
	value = entry.get(key)
	if (value is None and not required) or (isinstance(value, str) and value.strip()):
		return
	raise HintFileError(f'{where}: "{key}" must be a text that is not empty.')


def _texts(entry: dict, key: str, where: str, required: bool) -> None:
	value = entry.get(key)
	if value is None and not required:
		return
	if not (isinstance(value, list) and value and all(isinstance(item, str) and item.strip() for item in value)):
		raise HintFileError(f'{where}: "{key}" must be a list of texts, ["...", "..."], none of them empty.')


def read_folder(folder: str | Path) -> tuple[list[dict], list[tuple[str, str]]]:
	"""(the hints of every ``*.json`` file in ``folder``, [(file, what is wrong)] for the files
	left out). Files are read in name order."""
	hints, bad = [], []
	for path in sorted(Path(folder).glob("*.json")):
		try:
			hints += parse(path.read_text(encoding="utf-8"))
		except (HintFileError, OSError, UnicodeDecodeError) as error:
			bad.append((str(path), str(error)))
	return hints, bad


class HintIndex:
	"""Hints by DocType, for the schema tool's answer."""

	def __init__(self, hints: list[dict]):
		self.doctype_hints: dict[str, list[str]] = {}
		self.workflows: list[dict] = []
		for hint in hints:
			if hint["type"] == "doctype":
				self.doctype_hints.setdefault(hint["target"], []).append(hint["hint"])
			else:
				self.workflows.append(hint)

	def for_doctype(self, doctype: str) -> dict:
		"""``{"hints": [...], "workflows": [...]}`` for ``doctype``, each key only when it has some."""
		found = {"hints": self.doctype_hints.get(doctype, []), "workflows": [w for w in self.workflows if mentions(w, doctype)]}
		return {key: value for key, value in found.items() if value}


def mentions(workflow: dict, doctype: str) -> bool:
	if "related_doctypes" in workflow:
		return doctype in workflow["related_doctypes"]
	text = "\n".join([workflow["target"], workflow.get("description") or "", *workflow["steps"]])
	return re.search(rf"(?<!\w){re.escape(doctype)}(?!\w)", text) is not None
