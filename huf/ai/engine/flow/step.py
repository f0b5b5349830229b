"""One hop of a flow run: execute exactly one node, then choose where the run goes.

``step`` never raises for a node's sake: anything a node or a port raises is that node's failure.
A failing node is retried while ``config.retries`` allows (``retry_in`` = ``config.backoff_seconds``
doubled per attempt: the caller runs the same node again, with ``attempt + 1``, after that many
seconds; any other hop starts at attempt 0); else ``config.default`` becomes its output and the run
goes on as after a success; else its ``on_failure`` edge is followed, with ``{"error": reason}`` as
its output; else the run fails, naming the node. ``max_hops`` is checked before the node runs.

Routing after a success: a node that chose itself (``router.llm``'s edge, ``loop``'s next node)
goes there; in Agentic mode the orchestrator picks among the candidate edges when there are two
or more (not after ``loop``, ``human.approval``, ``router.llm`` or ``end``); otherwise
``edges.choose``. A node with no edges leaving it ends the run successfully; edges that all fail
to match fail it. ``resume`` goes on from a waiting ``human.approval`` with a decision.

``onward`` is this routing without the run's data: where a run may go after a node, for the save
check (``circles.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from huf.ai.engine.effects import idempotency_key
from huf.ai.engine.flow import calls, control, orchestrator, simple
from huf.ai.engine.flow.edges import choose, possible
from huf.ai.engine.flow.expr import ExpressionError
from huf.ai.engine.flow.graph import Graph, Node
from huf.ai.engine.flow.outcome import Hop, Outcome, failed
from huf.ai.engine.flow.ports import Ports

EXECUTORS = {
	"trigger.webhook": simple.trigger, "trigger.schedule": simple.trigger, "trigger.doc-event": simple.trigger,
	"agent.run": calls.agent_run, "tool.call": calls.tool_call, "router.llm": orchestrator.router,
	"human.approval": control.human_approval, "http_request": calls.http_request, "condition": simple.condition,
	"transform": simple.transform, "loop": control.loop, "end": simple.end,
}  # fmt: skip
SELF_ROUTED = ("loop", "human.approval", "router.llm", "end")
MAX_BACKOFF = 3600.0


@dataclass
class RunState:
	node_id: str
	context: dict
	hop_count: int
	max_hops: int
	mode: str = "Normal"  # or "Agentic"
	attempt: int = 0
	loop: dict = field(default_factory=dict)  # loop cursors by node id
	run: str = ""  # the run's id, for idempotency keys

	def key(self) -> str:
		"""The Idempotency-Key of this node's work: the run and the hop of its first attempt, so a
		retry after a failure and a repeat after a dead worker send the same key."""
		return idempotency_key(self.run, self.hop_count - self.attempt) if self.run else ""


@dataclass
class StepResult:
	status: str  # "continue" | "waiting" | "success" | "failed"
	node_id: str
	next_node_id: str | None = None
	context: dict = field(default_factory=dict)
	output: Any = None
	error: str | None = None
	waiting: dict | None = None
	retry_in: float | None = None
	agent_run: str | None = None
	loop: dict = field(default_factory=dict)  # the loop cursors to keep for the next hop


def step(graph: Graph, state: RunState, ports: Ports) -> StepResult:
	node = graph.nodes.get(state.node_id)
	if node is None:
		return StepResult("failed", state.node_id, context=state.context, error=f"The flow has no step {state.node_id!r}; it may have been removed.", loop=state.loop)
	if state.hop_count >= state.max_hops:
		error = (
			f"The run stopped at {name_of(node)} after {state.hop_count} steps, the most this flow allows (max_hops). "
			"It may be going round in circles: check the edges that lead back, or raise max_hops."
		)
		return StepResult("failed", node.id, context=state.context, error=error, loop=state.loop)
	hop = Hop(graph, state.context, ports, dict(state.loop), state.mode, state.key())
	executor = EXECUTORS.get(node.type)
	try:
		outcome = executor(node, hop) if executor else failed(f"Its type {node.type!r} is not one Huf knows.")
	except Exception as error:  # a port or executor failing is this node failing, never the hop
		outcome = failed(str(error) or type(error).__name__)
	if not outcome.ok:
		return _failure(graph, node, state, outcome, hop)
	return _route(graph, node, state, outcome, hop)


def name_of(node: Node) -> str:
	return f"{node.label!r} ({node.id})" if node.label != node.id else repr(node.id)


def _with(context: dict, node: Node, output: Any, updates: dict) -> dict:
	new = {**context, **updates, "nodes": {**(context.get("nodes") or {}), node.id: output}}
	if node.config.get("output_key"):
		new[str(node.config["output_key"])] = output
	return new


def _failure(graph: Graph, node: Node, state: RunState, outcome: Outcome, hop: Hop) -> StepResult:
	reason = outcome.error or "It failed."
	config = node.config
	if state.attempt < _int(config.get("retries")):
		retry_in = min(_float(config.get("backoff_seconds")) * 2**state.attempt, MAX_BACKOFF)
		output = {"error": reason, "attempt": state.attempt + 1}
		return StepResult("continue", node.id, node.id, state.context, output, retry_in=retry_in, agent_run=outcome.agent_run, loop=state.loop)
	if "default" in config:
		return _route(graph, node, state, Outcome(ok=True, output=config["default"], agent_run=outcome.agent_run), hop)
	edge = choose(graph.outgoing(node.id), ok=False, context=state.context)
	if edge is not None:
		context = _with(state.context, node, {"error": reason}, {})
		return StepResult("continue", node.id, edge.target, context, {"error": reason}, agent_run=outcome.agent_run, loop=hop.loop)
	error = f"The step {name_of(node)} failed: {reason}"
	return StepResult("failed", node.id, context=state.context, output=outcome.output, error=error, agent_run=outcome.agent_run, loop=state.loop)


def _route(graph: Graph, node: Node, state: RunState, outcome: Outcome, hop: Hop) -> StepResult:
	context = _with(state.context, node, outcome.output, outcome.updates)
	done = StepResult("success", node.id, None, context, outcome.output, agent_run=outcome.agent_run, loop=hop.loop)
	if outcome.waiting is not None:
		done.status, done.waiting = "waiting", outcome.waiting
		return done
	if outcome.finished:
		return done
	target, error = _next(graph, node, state, outcome, context, hop.ports)
	if error:
		done.status, done.error = "failed", f"The step {name_of(node)} could not go on: {error}"
	elif target is not None:
		done.status, done.next_node_id = "continue", target
	return done


def _next(graph: Graph, node: Node, state: RunState, outcome: Outcome, context: dict, ports: Ports) -> tuple[str | None, str]:
	"""(the next node, or None to end successfully; the reason the run cannot go on, or "")."""
	if outcome.edge is not None:
		return next(edge.target for edge in graph.outgoing(node.id) if edge.id == outcome.edge), ""
	if node.type == "loop":
		return outcome.next_node_id, "" if outcome.next_node_id else "the loop has no body step to go to."
	edges = graph.outgoing(node.id)
	if not edges:
		return None, ""
	if state.mode == "Agentic" and node.type not in SELF_ROUTED and len(orchestrator.candidates(graph, node)) > 1:
		try:
			edge, error = orchestrator.decide(graph, node, orchestrator.candidates(graph, node), context, ports)
		except Exception as failure:  # the model port failing fails the run, never the hop job
			return None, f"the orchestrator could not be asked: {failure}"
		return (edge.target if edge else None), error
	try:
		edge = choose(edges, ok=outcome.success_path, context=context, branch=outcome.branch, fallback=outcome.fallback)
	except ExpressionError as error:
		return None, str(error)
	if edge is not None:
		return edge.target, ""
	if outcome.branch in ("false", "rejected", "timeout"):
		return None, _unhandled(outcome.branch)
	return None, "none of the edges leaving it matched; add an edge that always applies, or check the conditions."


def _unhandled(branch: str) -> str:
	return {
		"false": "its condition was false and no edge handles that; add an on_failure edge or one labelled false.",
		"rejected": "it was rejected and no edge handles a rejection (an edge with meta.outcome rejected), so the run stops here.",
		"timeout": "no one decided in time and no edge handles that (an edge with meta.outcome timeout).",
	}[branch]


# What a node may report, as (ok, branch, fallback) for ``choose``: a condition true or false, an
# approval's three decisions (``resume``); any other node (and a failure with a default) a success.
SUCCESS = ((True, None, True),)
REPORTS = {
	"condition": ((True, "true", True), (False, "false", True)),
	"human.approval": ((True, "approved", True), (True, "rejected", False), (True, "timeout", False)),
}


def onward(graph: Graph, node: Node, agentic: bool) -> tuple[set[str], bool]:
	"""Where a run may go after ``node``, whatever its data, as ``step`` and ``resume`` route it: the
	ids of the next nodes, and whether the run may end there successfully. Retries stay on the node;
	a failure that nothing handles fails the run, which is neither."""
	edges = graph.outgoing(node.id)
	if node.type == "loop":
		done = control.branch_target(graph, node, "done")
		ways, ends = {control.branch_target(graph, node, "body"), done} - {None}, done is None
	elif node.type == "end":
		ways, ends = set(), True
	elif node.type == "router.llm":
		ways, ends = {edge.target for edge in orchestrator.candidates(graph, node)}, False
	else:
		ways, ends = _onward(graph, node, agentic, REPORTS.get(node.type, SUCCESS))
	if "default" not in node.config:  # a failure follows its first on_failure edge
		return ways | {edge.target for edge in possible(edges, ok=False)}, ends
	if node.type == "loop":  # a loop given a default has no step to go to after a failure: the run fails
		return ways, ends
	more, also = _onward(graph, node, agentic, SUCCESS)  # a failure goes on as a success with the default
	return ways | more, ends or also


def _onward(graph: Graph, node: Node, agentic: bool, reports) -> tuple[set[str], bool]:
	"""``_next`` after a node's own routing: no edges end the run; the orchestrator may take any
	candidate; else each edge ``choose`` may take for one of ``reports``."""
	edges = graph.outgoing(node.id)
	if not edges:
		return set(), True
	candidates = orchestrator.candidates(graph, node)
	if agentic and node.type not in SELF_ROUTED and len(candidates) > 1:
		return {edge.target for edge in candidates}, False
	return {edge.target for ok, branch, fallback in reports for edge in possible(edges, ok=ok, branch=branch, fallback=fallback)}, False


def resume(graph: Graph, state: RunState, decision: dict) -> StepResult:
	"""Go on from the waiting ``human.approval`` at ``state.node_id`` with ``decision`` ({"outcome":
	"approved" | "rejected" | "timeout", "comment", "by"}): the edge labelled with the outcome; an
	approval falls back to the success path; a rejection or timeout without its edge fails."""
	node = graph.nodes.get(state.node_id)
	outcome = str(decision.get("outcome") or "").lower()
	if node is None or node.type != "human.approval":
		return StepResult("failed", state.node_id, context=state.context, error=f"The run is not waiting for an approval at {state.node_id!r}.", loop=state.loop)
	if outcome not in ("approved", "rejected", "timeout"):
		return StepResult("failed", node.id, context=state.context, error=f"{outcome!r} is not a decision; use approved or rejected.", loop=state.loop)
	output = {"outcome": outcome, "comment": decision.get("comment") or "", "by": decision.get("by")}
	routed = Outcome(ok=True, output=output, branch=outcome, fallback=outcome == "approved")
	return _route(graph, node, state, routed, Hop(graph, state.context, None, dict(state.loop), state.mode))


def skip(graph: Graph, state: RunState, output: Any, ports: Ports) -> StepResult:
	"""Go on from the node at ``state.node_id`` as if it had succeeded with ``output`` (a person
	chose to skip a step that may or may not have acted)."""
	node = graph.nodes.get(state.node_id)
	if node is None:
		return StepResult("failed", state.node_id, context=state.context, error=f"The flow has no step {state.node_id!r}; it may have been removed.", loop=state.loop)
	hop = Hop(graph, state.context, ports, dict(state.loop), state.mode, state.key())
	return _route(graph, node, state, Outcome(ok=True, output=output), hop)


def _int(value) -> int:
	try:
		return max(int(value or 0), 0)
	except (TypeError, ValueError):
		return 0


def _float(value) -> float:
	try:
		return max(float(value or 0), 0.0)
	except (TypeError, ValueError):
		return 0.0
