// The assistant's proposal as a change set on the canvas: the proposed flow with each step marked
// new, changed or removed against the canvas as it is, new steps placed to the right of the step
// they follow, and what Accept puts on the canvas (one undoable change).
import type { Definition } from "../rules";
import type { StepNode } from "./catalog";
import { fromDefinition } from "./convert";
import type { Graph } from "./editor";

export type Mark = "new" | "changed" | "removed";
export type Preview = { graph: Graph; accepted: Graph; marks: Record<string, Mark> };

const GAP_X = 320;
const GAP_Y = 140;

const content = (node: StepNode) => JSON.stringify([node.type, node.data.label, node.data.config]);

export function preview(current: Graph, proposed: Definition): Preview {
	const before = new Map(current.nodes.map((node) => [node.id, node]));
	const { nodes, edges } = fromDefinition(proposed);
	const marks: Record<string, Mark> = {};
	const placed = new Map<string, { x: number; y: number }>();
	for (const node of nodes) {
		const was = before.get(node.id);
		if (was) {
			placed.set(node.id, was.position);
			if (content(was) !== content(node)) marks[node.id] = "changed";
		}
	}
	for (const node of nodes) {
		if (before.has(node.id)) continue;
		marks[node.id] = "new";
		const from = edges.find((edge) => edge.target === node.id && placed.has(edge.source));
		const origin = from ? placed.get(from.source)! : { x: rightmost(placed) - GAP_X, y: 0 };
		placed.set(node.id, free({ x: origin.x + GAP_X, y: origin.y }, placed));
	}
	const accepted: Graph = {
		nodes: nodes.map((node) => ({ ...node, position: placed.get(node.id) ?? node.position, selected: false })),
		edges: edges.map((edge) => ({ ...edge, selected: false })),
	};
	const kept = new Set(nodes.map((node) => node.id));
	const removed = current.nodes.filter((node) => !kept.has(node.id));
	for (const node of removed) marks[node.id] = "removed";
	const gone = new Set(removed.map((node) => node.id));
	const graph: Graph = {
		nodes: [...accepted.nodes, ...removed.map((node) => ({ ...node, selected: false }))],
		edges: [...accepted.edges, ...current.edges.filter((edge) => gone.has(edge.source) || gone.has(edge.target))],
	};
	return { graph, accepted, marks };
}

function rightmost(placed: Map<string, { x: number; y: number }>): number {
	let most = 0;
	for (const at of placed.values()) most = Math.max(most, at.x);
	return most;
}

/** ``at``, moved down until no placed step is within a step's size of it. */
function free(at: { x: number; y: number }, placed: Map<string, { x: number; y: number }>) {
	let spot = at;
	const taken = () => [...placed.values()].some((other) => Math.abs(other.x - spot.x) < GAP_X / 2 && Math.abs(other.y - spot.y) < GAP_Y / 2);
	while (taken()) spot = { x: spot.x, y: spot.y + GAP_Y };
	return spot;
}

/** "2 new steps, 1 changed, 1 removed" */
export function markWords(marks: Record<string, Mark>): string {
	const count = (mark: Mark) => Object.values(marks).filter((found) => found === mark).length;
	const parts = [
		count("new") ? `${count("new")} new step${count("new") > 1 ? "s" : ""}` : "",
		count("changed") ? `${count("changed")} changed` : "",
		count("removed") ? `${count("removed")} removed` : "",
	].filter(Boolean);
	return parts.length ? parts.join(", ") : "no changes to the steps";
}
