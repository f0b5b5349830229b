"""The node types a flow is built from, as the assistant's ``node_catalog`` tool answers: each with
what it does, the ways out of it (outcomes: an edge's ``outcome``) and its settings (``config``
keys). The types are ``graph.NODE_TYPES``; what each setting must hold is what ``checks.py``
checks."""

from __future__ import annotations

from huf.ai.engine.flow.control import MAX_ITERATIONS

_TEMPLATE = "text; {{ ... }} placeholders read earlier steps, e.g. {{ trigger.lead.name }} or {{ nodes.score.output }}"

NODES: dict[str, dict] = {
	"trigger.webhook": {"does": "Starts when another system sends a request.", "settings": {}},
	"trigger.schedule": {"does": "Starts on a schedule (set up under Triggers).", "settings": {}},
	"trigger.doc-event": {"does": "Starts when a record is created, changed or deleted (set up under Triggers).", "settings": {}},
	"agent.run": {
		"does": "An agent of this site reads a prompt and answers or acts.",
		"settings": {
			"agent": "required: the name of an agent (list_agents)",
			"prompt": "required: " + _TEMPLATE,
			"output_format": "text or json",
		},
	},
	"tool.call": {
		"does": "Runs one tool of this site with the arguments given.",
		"settings": {
			"tool": "required: the name of a tool (list_tools); a tool marked asks_first needs a human.approval step right before it",
			"arguments": "an object of argument names and values (" + _TEMPLATE + ")",
		},
	},
	"router.llm": {"does": "A model picks which of the step's edges to follow.", "settings": {"prompt": _TEMPLATE}},
	"human.approval": {
		"does": "Waits until a person approves or rejects.",
		"outcomes": ["approved", "rejected", "timeout"],
		"settings": {
			"approval_type": 'required: "user" or "role"',
			"users": "list of user ids (with approval_type user)",
			"roles": "list of role names (with approval_type role)",
			"message": _TEMPLATE,
			"timeout_seconds": "seconds above 0, or empty",
		},
	},
	"http_request": {
		"does": "Sends a web request and keeps the answer.",
		"settings": {
			"method": "GET, POST, PUT, PATCH or DELETE",
			"url": "required: a full http(s) address",
			"headers": "object",
			"body": "object or text",
		},
	},
	"condition": {
		"does": "Goes one way when an expression is true, the other when not.",
		"outcomes": ["true", "false"],
		"settings": {"expression": "required: e.g. nodes.score.output.score > 70 (names, keys, comparisons, and/or; no calls)"},
	},
	"transform": {
		"does": "Picks, renames or combines values for later steps.",
		"settings": {
			"mode": "copy, map or template",
			"mappings": "object of new key -> path (copy) or expression (map)",
			"template": "text (template mode)",
			"key": "where a template's text goes",
		},
	},
	"loop": {
		"does": "Runs the steps on its body edge once for each item of a list.",
		"outcomes": ["body", "done"],
		"settings": {
			"items": "required: an expression giving a list",
			"max_iterations": f"required: 1 to {MAX_ITERATIONS}",
			"item_var": "name of the item",
			"index_var": "name of the index",
		},
	},
	"end": {"does": "Ends the run, with an optional result.", "settings": {"output": "optional " + _TEMPLATE}},
}

EDGES = {
	"always": "always followed",
	"on_success": "followed when the step succeeded",
	"on_failure": "followed when the step failed",
	"expression": "followed when its condition is true (needs condition)",
}


def catalog() -> dict:
	return {"node_types": NODES, "edge_types": EDGES}
