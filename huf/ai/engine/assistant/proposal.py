"""What the model proposes, read and checked.

A flow proposal is a change set on the canvas (JSON)::

	{"summary": "...", "add_steps": [{"id", "type", "label", "config"}], "change_steps": [{"id", "label"?, "config"?}],
	 "remove_steps": ["id"], "add_edges": [{"source", "target", "type", "condition"?, "outcome"?, "priority"?}],
	 "remove_edges": ["edge id"], "not_possible": ["what was asked for and cannot be built here, and why"]}

``apply`` makes the new definition (a changed step's config keys are replaced one by one; removing a
step removes its edges); ``check_flow`` runs ``flow.validate`` on it (the builder's and the save's
checks) after the change set's own problems (a step changed that is not there, an id taken twice).
An agent draft is ``{"summary", "agent_name", "description", "instructions", "model", "tools": []}``,
checked against the models and tools the person may use. Malformed JSON is a problem like any
other: it goes back to the model."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field

from huf.ai.engine.assistant.canvas import HIDDEN
from huf.ai.engine.flow.validate import Known, validate

FENCED = re.compile(r"```(?:json)?\s*(\{.*\})\s*```", re.S)
LISTS = ("add_steps", "change_steps", "remove_steps", "add_edges", "remove_edges", "not_possible")


@dataclass
class Checked:
	"""One attempt, read and checked: ``proposal`` is the parsed JSON (None when unreadable),
	``result`` what the person would accept (the new definition, or the agent draft)."""

	problems: list[str]
	proposal: dict | None = None
	result: dict | None = None
	changes: dict = field(default_factory=dict)  # flow: the step ids added, changed and removed


def read_json(answer: str) -> tuple[dict | None, str | None]:
	"""The JSON object in ``answer`` (alone, or in a ```json fence), or why there is none."""
	text = (answer or "").strip()
	found = FENCED.search(text)
	if found:
		text = found.group(1)
	elif "{" in text and "}" in text[text.index("{") :]:
		text = text[text.index("{") : text.rindex("}") + 1]
	try:
		value = json.loads(text)
	except ValueError as error:
		return None, f"Your answer is not valid JSON ({error}). Answer with one JSON object only, as described."
	if not isinstance(value, dict):
		return None, "Your answer must be one JSON object, not a list or a value."
	return value, None


def _items(proposal: dict, key: str, kind: type) -> tuple[list, list[str]]:
	value = proposal.get(key) or []
	if not isinstance(value, list):
		return [], [f'"{key}" must be a list.']
	bad = [item for item in value if not isinstance(item, kind)]
	return [item for item in value if isinstance(item, kind)], (
		[f'Every item of "{key}" must be {"an object" if kind is dict else "a text"}.'] if bad else []
	)


def apply(canvas: dict, proposal: dict) -> tuple[dict, dict, list[str]]:
	"""The canvas with the change set applied, the ids touched, and the change set's own problems."""
	definition = copy.deepcopy(canvas if isinstance(canvas, dict) else {})
	nodes = [node for node in definition.get("nodes") or [] if isinstance(node, dict)]
	edges = [edge for edge in definition.get("edges") or [] if isinstance(edge, dict)]
	problems: list[str] = []
	parts = {}
	for key in LISTS:
		parts[key], found = _items(proposal, key, str if key in ("remove_steps", "remove_edges", "not_possible") else dict)
		problems += found
	by_id = {str(node.get("id")): node for node in nodes}
	removed = [step for step in parts["remove_steps"] if step in by_id]
	problems += [
		f"remove_steps names {step!r}, which is not on the canvas." for step in parts["remove_steps"] if step not in by_id
	]
	nodes = [node for node in nodes if str(node.get("id")) not in removed]
	edges = [edge for edge in edges if edge.get("source") not in removed and edge.get("target") not in removed]
	edge_ids = {str(edge.get("id")) for edge in edges}
	problems += [
		f"remove_edges names {edge!r}, which is not on the canvas."
		for edge in parts["remove_edges"]
		if edge not in edge_ids and edge
	]
	edges = [edge for edge in edges if str(edge.get("id")) not in parts["remove_edges"]]
	changed = []
	for change in parts["change_steps"]:
		node = by_id.get(str(change.get("id")))
		if node is None or node["id"] in removed:
			problems.append(
				f"change_steps names {change.get('id')!r}, which is not on the canvas; add it with add_steps instead."
			)
			continue
		data = node.setdefault("data", {})
		if isinstance(change.get("label"), str):
			data["label"] = change["label"]
		if isinstance(change.get("config"), dict):
			data["config"] = _merged(data.get("config") or {}, change["config"])
		changed.append(node["id"])
	added = []
	for step in parts["add_steps"]:
		step_id = str(step.get("id") or "")
		if not step_id or step_id in {str(node.get("id")) for node in nodes}:
			problems.append(
				f"add_steps has a step with the id {step_id!r}, which is empty or already taken; give each new step its own id."
			)
			continue
		config = step.get("config") if isinstance(step.get("config"), dict) else {}
		nodes.append(
			{
				"id": step_id,
				"type": str(step.get("type") or ""),
				"position": {"x": 0, "y": 0},
				"data": {"label": str(step.get("label") or step_id), "config": config},
			}
		)
		added.append(step_id)
	taken = {str(edge.get("id")) for edge in edges}
	for number, link in enumerate(parts["add_edges"], start=1):
		edge = {
			key: link[key] for key in ("source", "target", "type", "condition", "priority") if link.get(key) not in (None, "")
		}
		edge.setdefault("type", "always")
		if link.get("outcome"):
			edge["sourceHandle"] = str(link["outcome"])
		edge_id = str(link.get("id") or f"e-{edge.get('source')}-{edge.get('target')}")
		while edge_id in taken:
			edge_id = f"{edge_id}-{number}"
		taken.add(edge_id)
		edges.append({"id": edge_id, **edge})
	definition["nodes"], definition["edges"] = nodes, edges
	return definition, {"added": added, "changed": changed, "removed": removed}, problems


def _merged(config: dict, change: dict) -> dict:
	"""``config`` with ``change``'s keys; a value the model saw hidden (``canvas.HIDDEN``) and sent back
	keeps what it was."""
	merged = {**config}
	for key, value in change.items():
		if value == HIDDEN:
			continue
		if isinstance(value, dict) and isinstance(config.get(key), dict):
			value = {name: config[key].get(name) if item == HIDDEN else item for name, item in value.items()}
		merged[key] = value
	return merged


def check_flow(answer: str, canvas: dict, known: Known) -> Checked:
	proposal, unreadable = read_json(answer)
	if proposal is None:
		return Checked([unreadable])
	definition, changes, problems = apply(canvas, proposal)
	problems += [worded(problem) for problem in validate(definition, known)]
	return Checked(problems, proposal, definition, changes)


def worded(problem) -> str:
	"""A flow check's problem in words, with the step it is about."""
	where = f"Step {problem.node_id!r} ({problem.label}): " if problem.node_id else ""
	return where + problem.message


def check_agent(answer: str, models: set[str], tools: set[str]) -> Checked:
	proposal, unreadable = read_json(answer)
	if proposal is None:
		return Checked([unreadable])
	problems = []
	if not str(proposal.get("instructions") or "").strip():
		problems.append('"instructions" is empty; write what the agent does and how.')
	if not str(proposal.get("agent_name") or "").strip():
		problems.append('"agent_name" is empty; give the agent a short name.')
	if proposal.get("model") not in models:
		problems.append(
			f"The model {proposal.get('model')!r} is not one of this site's models; choose one of: {', '.join(sorted(models)) or 'none'}."
		)
	chosen = proposal.get("tools") or []
	if not isinstance(chosen, list):
		problems.append('"tools" must be a list of tool names.')
		chosen = []
	problems += [
		f"The tool {name!r} does not exist or you may not use it; choose from list_tools, or say so in not_possible."
		for name in chosen
		if name not in tools
	]
	return Checked(
		problems, proposal, {key: proposal.get(key) for key in ("agent_name", "description", "instructions", "model", "tools")}
	)
