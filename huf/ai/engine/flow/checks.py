"""Each node type's own settings, checked when a flow is saved (``validate`` adds the node's id and
label). Every message says what is wrong and how to fix it."""

from __future__ import annotations

from urllib.parse import urlsplit

from huf.ai.engine.flow import control
from huf.ai.engine.flow.calls import HTTP_METHODS
from huf.ai.engine.flow.expr import ExpressionError, check, placeholders
from huf.ai.engine.flow.graph import Graph, Node
from huf.ai.engine.flow.simple import TRANSFORM_MODES, is_path


def _expression(expression, name: str, example: str) -> list[str]:
	if not isinstance(expression, str) or not expression.strip():
		return [f"It needs {name}, e.g. {example}."]
	try:
		check(expression)
	except ExpressionError as error:
		return [f"Its {name} cannot be used: {error}"]
	return []


def _template(template, what: str) -> list[str]:
	"""Problems with the ``{{ ... }}`` placeholders of a text, or of the texts inside a record/list."""
	if isinstance(template, dict):
		return [problem for value in template.values() for problem in _template(value, what)]
	if isinstance(template, list):
		return [problem for value in template for problem in _template(value, what)]
	if not isinstance(template, str):
		return []
	found = []
	for expression in placeholders(template):
		try:
			check(expression)
		except ExpressionError as error:
			found.append(f"A placeholder in its {what} ({{{{ {expression[:60]} }}}}) cannot be used: {error}")
	return found


def _agent(graph: Graph, node: Node, known) -> list[str]:
	name, prompt = node.config.get("agent"), node.config.get("prompt")
	found = []
	if not name:
		found.append("It does not say which agent to run; choose an agent.")
	elif not known.agent(str(name)):
		found.append(f"The agent {name!r} does not exist (or you cannot use it); choose an existing agent.")
	if not isinstance(prompt, str) or not prompt.strip():
		found.append("It has no prompt; write what the agent should do, e.g. Score the lead {{ trigger.lead }}.")
	return found + _template(prompt, "prompt")


def _tool(graph: Graph, node: Node, known) -> list[str]:
	name, arguments = node.config.get("tool"), node.config.get("arguments", {})
	found = []
	if not name:
		found.append("It does not say which tool to call; choose a tool.")
	elif not known.tool(str(name)):
		found.append(f"The tool {name!r} does not exist; choose an existing tool.")
	elif known.asks_first(str(name)) and not approved_right_before(graph, node.id):
		found.append(ASKS_FIRST.format(tool=name))
	if not isinstance(arguments, dict):
		found.append('Its arguments must be an object of names and values, e.g. {"customer": "{{ trigger.customer }}"}.')
	return found + _template(arguments, "arguments")


ASKS_FIRST = (
	"The tool {tool!r} is marked to ask a person before it runs; put a Human approval step right before "
	"this step, with only its approved path leading here, so a person decides each call."
)


def approved_right_before(graph: Graph, node_id: str) -> bool:
	"""Every way into ``node_id`` is the approved outcome of a human.approval step."""
	into = [edge for edge in graph.edges if edge.target == node_id]
	return bool(into) and all(
		getattr(graph.nodes.get(edge.source), "type", None) == "human.approval"
		and edge.type != "on_failure"
		and edge.outcome in (None, "", "approved")
		for edge in into
	)


def _router(graph: Graph, node: Node, known) -> list[str]:
	if not [edge for edge in graph.outgoing(node.id) if edge.type != "on_failure"]:
		return ["It has no edges to choose from; connect it to the steps the model may choose between."]
	return _template(node.config.get("prompt"), "prompt")


def _approval(graph: Graph, node: Node, known) -> list[str]:
	config = node.config
	kind = str(config.get("approval_type") or "").lower()
	found = []
	if kind in control.USER_TYPES:
		if not _names(config.get("users")):
			found.append("It is approved by users but lists none; add the users who may approve.")
	elif kind in control.ROLE_TYPES:
		if not _names(config.get("roles")):
			found.append("It is approved by a role but lists none; add the roles whose members may approve.")
	else:
		found.append('Say who approves: set approval_type to "user" (with users) or "role" (with roles).')
	timeout = config.get("timeout_seconds")
	if timeout not in (None, "") and not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0):
		found.append("Its timeout must be a number of seconds above 0, or left empty.")
	return found + _template(config.get("message"), "message")


def _names(value) -> bool:
	return isinstance(value, list) and any(isinstance(item, str) and item.strip() for item in value)


def _http(graph: Graph, node: Node, known) -> list[str]:
	config, found = node.config, []
	if str(config.get("method") or "").upper() not in HTTP_METHODS:
		found.append(f"Its method must be one of {', '.join(HTTP_METHODS)}.")
	url = config.get("url")
	parts = urlsplit(url.strip()) if isinstance(url, str) else None
	if parts is None or parts.scheme.lower() not in ("http", "https") or not (parts.netloc or "").strip():
		found.append("Its URL must be a full web address starting with http:// or https://, e.g. https://api.example.com/leads.")
	headers = config.get("headers", {})
	if not isinstance(headers, dict):
		found.append('Its headers must be an object of names and values, e.g. {"Accept": "application/json"}.')
	return found + _template(url, "URL") + _template(headers, "headers") + _template(config.get("body"), "body")


def _transform(graph: Graph, node: Node, known) -> list[str]:
	config, mode = node.config, node.config.get("mode")
	if mode not in TRANSFORM_MODES:
		return [f"Its mode must be copy, map or template (it is {mode!r})."]
	if mode == "template":
		if not isinstance(config.get("template"), str) or not isinstance(config.get("key"), str) or not config["key"]:
			return ["A template transform needs a template and the key to write it to."]
		return _template(config["template"], "template")
	mappings = config.get("mappings")
	if not isinstance(mappings, dict) or not mappings:
		return [f'A {mode} transform needs mappings: an object of new keys and sources, e.g. {{"email": "trigger.lead.email"}}.']
	found = []
	for key, source in mappings.items():
		problems = _expression(source, f"source for {key!r}", "trigger.lead.email")
		if not problems and mode == "copy" and not is_path(source):
			problems = [f"The source for {key!r} must be a path such as trigger.lead.email; use mode map for expressions."]
		found += problems
	return found


def _loop(graph: Graph, node: Node, known) -> list[str]:
	config = node.config
	found = _expression(config.get("items"), "list to go through (items)", "trigger.leads")
	limit = config.get("max_iterations")
	if not (isinstance(limit, int) and not isinstance(limit, bool) and 0 < limit <= control.MAX_ITERATIONS):
		found.append(f"Its max_iterations must be a whole number from 1 to {control.MAX_ITERATIONS:,}.")
	for branch in ("body", "done"):
		target = control.branch_target(graph, node, branch)
		if target is None and branch == "body":
			found.append("It has no body step; connect an edge labelled body (or set body) to the first step to repeat.")
		elif target is not None and target not in graph.nodes:
			found.append(f"Its {branch} step {target!r} does not exist; choose a node of this flow.")
	return found


def _condition(graph: Graph, node: Node, known) -> list[str]:
	return _expression(node.config.get("expression"), "expression", "trigger.lead.score > 50")


CHECKS = {
	"agent.run": _agent, "tool.call": _tool, "router.llm": _router, "human.approval": _approval,
	"http_request": _http, "condition": _condition, "transform": _transform, "loop": _loop,
}  # fmt: skip


def node_problems(graph: Graph, node: Node, known) -> list[str]:
	rule = CHECKS.get(node.type)
	return rule(graph, node, known) if rule else []
