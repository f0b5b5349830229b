"""A flow definition (React Flow compatible JSON) as plain dataclasses.

``parse`` is lenient: it reads whatever is there (config at ``data.config`` or ``config``, label at
``data.label`` or ``label``) and leaves judging to ``validate``. The entry node is ``entry`` when
given, else the single ``trigger.*`` node, else the first node."""

from __future__ import annotations

from dataclasses import dataclass, field

NODE_TYPES = (
	"trigger.webhook", "trigger.schedule", "trigger.doc-event", "agent.run", "tool.call", "router.llm",
	"human.approval", "http_request", "condition", "transform", "loop", "end",
)  # fmt: skip
EDGE_TYPES = ("always", "on_success", "on_failure", "expression")
DEFAULT_MAX_HOPS = 100


@dataclass(frozen=True)
class Node:
	id: str
	type: str
	label: str  # the node's label, else its id: what people see in messages
	config: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Edge:
	id: str
	source: str
	target: str
	type: str = "always"
	priority: int = 0
	condition: str | None = None
	outcome: str | None = None  # meta.outcome or sourceHandle: approved/rejected/timeout, true/false, body/done
	order: int = 0  # position in the definition: the tie-break after priority
	label: str = ""


@dataclass
class Graph:
	id: str
	name: str
	nodes: dict[str, Node]
	edges: list[Edge]
	entry: str | None
	max_hops: int = DEFAULT_MAX_HOPS
	orchestrator_model: str | None = None
	_out: dict[str, list[Edge]] = field(default_factory=dict, repr=False)

	def outgoing(self, node_id: str) -> list[Edge]:
		"""The edges leaving ``node_id``, highest priority first, then in definition order."""
		if node_id not in self._out:
			edges = [edge for edge in self.edges if edge.source == node_id]
			self._out[node_id] = sorted(edges, key=lambda edge: (-edge.priority, edge.order))
		return self._out[node_id]


def _text(value) -> str:
	return "" if value is None else str(value)


def _dict(value) -> dict:
	return value if isinstance(value, dict) else {}


def parse_node(raw: dict) -> Node:
	data = _dict(raw.get("data"))
	config = data.get("config") if isinstance(data.get("config"), dict) else _dict(raw.get("config"))
	node_id = _text(raw.get("id"))
	label = _text(data.get("label") or raw.get("label")) or node_id
	return Node(node_id, _text(raw.get("type")), label, config)


def _priority(value) -> int:
	try:
		return int(value or 0)
	except (TypeError, ValueError):
		return 0


def parse_edge(raw: dict, order: int) -> Edge:
	meta = _dict(raw.get("meta")) or _dict(_dict(raw.get("data")).get("meta"))
	outcome = meta.get("outcome") or raw.get("sourceHandle")
	condition = raw.get("condition")
	return Edge(
		id=_text(raw.get("id")) or f"edge-{order + 1}",
		source=_text(raw.get("source")),
		target=_text(raw.get("target")),
		type=_text(raw.get("type")) or "always",
		priority=_priority(raw.get("priority")),
		condition=condition if isinstance(condition, str) else None,
		outcome=str(outcome).lower() if outcome else None,
		order=order,
		label=_text(raw.get("label") or _dict(raw.get("data")).get("label")),
	)


def entry_of(definition: dict, nodes: list[Node]) -> str | None:
	if definition.get("entry"):
		return _text(definition["entry"])
	triggers = [node.id for node in nodes if node.type.startswith("trigger.")]
	if len(triggers) == 1:
		return triggers[0]
	return nodes[0].id if nodes else None


def parse(definition: dict) -> Graph:
	raw_nodes = [raw for raw in definition.get("nodes") or [] if isinstance(raw, dict)]
	raw_edges = [raw for raw in definition.get("edges") or [] if isinstance(raw, dict)]
	nodes = [parse_node(raw) for raw in raw_nodes]
	try:
		max_hops = int(definition.get("max_hops") or DEFAULT_MAX_HOPS)
	except (TypeError, ValueError):
		max_hops = DEFAULT_MAX_HOPS
	return Graph(
		id=_text(definition.get("id")),
		name=_text(definition.get("name")),
		nodes={node.id: node for node in nodes},
		edges=[parse_edge(raw, order) for order, raw in enumerate(raw_edges)],
		entry=entry_of(definition, nodes),
		max_hops=max_hops,
		orchestrator_model=_dict(definition.get("orchestrator")).get("model"),
	)
