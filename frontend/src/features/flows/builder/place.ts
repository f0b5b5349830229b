// Add and connect in one move: a step picked from a way out's "+" goes to the right of the step it
// follows, below anything already there, and is connected to that way out.
import { KINDS, type Kind, type NodeType, type StepNode } from "./catalog";
import { addStep, canLink, connect, type Graph } from "./editor";
import { GRID, STEP_WIDTH, stepBox } from "./sizes";

/** The gap between a step and the one added after it, across and down. */
const ACROSS = 80;
const DOWN = 40;

const boxOf = (node: StepNode) => ({ x: node.position.x, y: node.position.y, width: node.measured?.width ?? STEP_WIDTH, height: node.measured?.height ?? stepBox(node.type, false).height });

/** The kinds of step that can follow a way out: every kind something can lead into (no triggers). */
export const FOLLOWERS: Kind[] = KINDS.filter((kind) => kind.hasInput);

/** The kinds whose title or description holds every word of `query` (any case). */
export function findKinds(query: string): Kind[] {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	return FOLLOWERS.filter((kind) => words.every((word) => `${kind.title} ${kind.description}`.toLowerCase().includes(word)));
}

export type WayOut = { source: string; sourceHandle: string | null };

/** A new step of `type` after the way out `from`, placed to its right where nothing else is,
 * connected to it and selected. The graph is unchanged when the step cannot follow it. */
export function addAfter(graph: Graph, from: WayOut, type: NodeType): Graph {
	const source = graph.nodes.find((node) => node.id === from.source);
	if (!source) return graph;
	const after = boxOf(source);
	const height = stepBox(type, false).height;
	const x = Math.round((after.x + after.width + ACROSS) / GRID) * GRID;
	let y = after.y;
	const clashes = (top: number) =>
		graph.nodes.some((node) => {
			const box = boxOf(node);
			return x < box.x + box.width + GRID && box.x < x + STEP_WIDTH + GRID && top < box.y + box.height + GRID && box.y < top + height + GRID;
		});
	while (clashes(y)) y += height + DOWN;
	const added = addStep(graph, type, { x, y: Math.round(y / GRID) * GRID });
	const step = added.nodes.at(-1);
	if (!step || added === graph) return graph;
	const link = { source: from.source, sourceHandle: from.sourceHandle, target: step.id };
	return canLink(added, link) ? connect(added, link) : graph;
}
