// A saved flow (the Definition JSON the server keeps, engine/flow/graph.py) to the canvas's nodes and
// edges and back. Reading is lenient like the server's parse; writing gives the shape the reference
// documents: nodes with data.label/data.config and a position, edges with type, priority, condition
// and the outcome as sourceHandle.
import { kindOf, type Config, type EdgeType, type LinkEdge, type NodeType, type StepNode } from "./catalog";
import type { Definition, RawEdge, RawNode } from "../rules";

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));
const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Where a node without a saved position goes: a column, one below the other. */
const fallback = (index: number) => ({ x: 0, y: index * 120 });

export function toNode(raw: RawNode & { position?: unknown }, index: number): StepNode {
	const data = record(raw.data);
	const config = Object.keys(record(data.config)).length || data.config ? record(data.config) : record(raw.config);
	const id = text(raw.id);
	const position = record(raw.position);
	const at = typeof position.x === "number" && typeof position.y === "number" ? { x: position.x, y: position.y } : fallback(index);
	return { id, type: text(raw.type) as NodeType, position: at, data: { label: text(data.label ?? raw.label), config: { ...config } } };
}

export function toEdge(raw: RawEdge & { data?: unknown }, index: number): LinkEdge {
	const meta = record(raw.meta ?? record(raw.data).meta);
	const outcome = text(meta.outcome ?? raw.sourceHandle).toLowerCase();
	const edge: LinkEdge = {
		id: text(raw.id) || `edge-${index + 1}`,
		source: text(raw.source),
		target: text(raw.target),
		type: (text(raw.type) || "always") as EdgeType,
		data: {},
	};
	if (outcome) edge.sourceHandle = outcome;
	const priority = Number(raw.priority ?? 0);
	if (Number.isFinite(priority) && priority) (edge.data as { priority?: number }).priority = priority;
	if (typeof raw.condition === "string" && raw.condition) edge.data = { ...edge.data, condition: raw.condition };
	const label = text(raw.label ?? record(raw.data).label);
	if (label) edge.data = { ...edge.data, label };
	return edge;
}

export type Canvas = { nodes: StepNode[]; edges: LinkEdge[]; rest: Record<string, unknown> };

/** The canvas for a saved flow; `rest` keeps the flow-wide keys (id, max_hops, entry...) as they were. */
export function fromDefinition(definition: Definition): Canvas {
	const { nodes, edges, ...rest } = definition;
	return {
		nodes: (Array.isArray(nodes) ? nodes : []).filter((raw) => typeof raw === "object" && raw !== null).map(toNode),
		edges: (Array.isArray(edges) ? edges : []).filter((raw) => typeof raw === "object" && raw !== null).map(toEdge),
		rest,
	};
}

function savedConfig(type: string, config: Config): Config {
	// Keys left empty by the form are left out, so a saved flow reads like one written by hand.
	const kept: Config = {};
	for (const [key, value] of Object.entries(config)) if (value !== undefined && value !== "") kept[key] = value;
	return kindOf(type) ? kept : config;
}

export function toDefinition(canvas: Canvas): Definition {
	return {
		...canvas.rest,
		nodes: canvas.nodes.map((node) => ({
			id: node.id,
			type: node.type ?? "",
			position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
			data: { label: node.data.label, config: savedConfig(node.type ?? "", node.data.config) },
		})),
		edges: canvas.edges.map((edge) => {
			const saved: Record<string, unknown> = { id: edge.id, source: edge.source, target: edge.target, type: edge.type ?? "always", priority: edge.data?.priority ?? 0 };
			if (edge.sourceHandle) saved.sourceHandle = edge.sourceHandle;
			if (edge.data?.condition) saved.condition = edge.data.condition;
			if (edge.data?.label) saved.label = edge.data.label;
			return saved;
		}),
	};
}
