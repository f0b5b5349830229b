"""Executors of the nodes that steer the run: ``loop`` and ``human.approval``.

``loop`` iterates over the list at ``config.items`` (a path such as ``trigger.leads``): each visit
sets ``context[config.item_var or "item"]`` and ``context[config.index_var or "index"]`` and goes
to the body node; the body's last node leads back to the loop. When the items are used up the
cursor is cleared and the run goes to the done node, or succeeds when there is none. The body and
done nodes are ``config.body`` / ``config.done``, else the targets of the edges labelled ``body`` /
``done`` (``sourceHandle`` or ``meta.outcome``). A list longer than ``config.max_iterations``
fails the node before the first item, so nothing is half done.

``human.approval`` pauses the run: the waiting record names the approvers (``approval_type``
``user``/``users`` with ``config.users``, ``role``/``roles`` with ``config.roles``), the message
(rendered from the context) and ``config.timeout_seconds``. ``step.resume`` goes on from there."""

from __future__ import annotations

from huf.ai.engine.flow.expr import ExpressionError, evaluate, render
from huf.ai.engine.flow.graph import Graph, Node
from huf.ai.engine.flow.outcome import Hop, Outcome, failed

USER_TYPES, ROLE_TYPES = ("user", "users"), ("role", "roles")
MAX_ITERATIONS = 10_000  # the most a loop's max_iterations may say


def branch_target(graph: Graph, node: Node, name: str) -> str | None:
	"""The node a loop goes to for ``name`` (body or done): from its config, else a labelled edge."""
	if node.config.get(name):
		return str(node.config[name])
	return next((edge.target for edge in graph.outgoing(node.id) if edge.outcome == name), None)


def loop(node: Node, hop: Hop) -> Outcome:
	config = node.config
	try:
		items = evaluate(config.get("items") or "", hop.context)
	except ExpressionError as error:
		return failed(f"Its list could not be read: {error}")
	if not isinstance(items, (list, tuple)):
		return failed(f"{config.get('items')!r} is a {type(items).__name__}, not a list; point the loop at a list.")
	index = int(hop.loop.get(node.id, {}).get("index", 0))
	limit = int(config.get("max_iterations") or MAX_ITERATIONS)
	if index == 0 and len(items) > limit:
		return failed(f"The list has {len(items)} items, more than the loop's maximum of {limit}; raise max_iterations or shorten the list.")
	if index < len(items):
		hop.loop[node.id] = {"index": index + 1}
		names = {config.get("item_var") or "item": items[index], config.get("index_var") or "index": index}
		output = {"index": index, "item": items[index], "count": len(items)}
		return Outcome(ok=True, output=output, updates=names, next_node_id=branch_target(hop.graph, node, "body"))
	hop.loop.pop(node.id, None)
	done = branch_target(hop.graph, node, "done")
	return Outcome(ok=True, output={"iterations": len(items)}, next_node_id=done, finished=done is None)


def approvers(config: dict) -> dict:
	kind = str(config.get("approval_type") or "").lower()
	users = [str(user) for user in config.get("users") or []] if kind in USER_TYPES else []
	roles = [str(role) for role in config.get("roles") or []] if kind in ROLE_TYPES else []
	return {"users": users, "roles": roles}


def human_approval(node: Node, hop: Hop) -> Outcome:
	try:
		message = render(node.config.get("message") or f"Please approve: {node.label}", hop.context)
	except ExpressionError as error:
		return failed(f"Its message could not be filled in: {error}")
	timeout = node.config.get("timeout_seconds")
	waiting = {
		"kind": "approval", "node_id": node.id, "approvers": approvers(node.config), "message": message,
		"timeout_seconds": float(timeout) if timeout else None,
	}  # fmt: skip
	return Outcome(ok=True, output=None, waiting=waiting)
