// Tidy up: the steps arranged in layers from left to right in the order a run meets them (dagre), on
// the grid, and where the canvas then looks: the whole flow when it fits at a readable size, else its
// start at full size (view.ts), never zoomed out until the names cannot be read.
// Loaded when Tidy up is first pressed, so opening a flow does not pay for it.
import dagre from "@dagrejs/dagre";
import type { Viewport } from "@xyflow/react";
import type { StepNode } from "./catalog";
import type { Graph } from "./editor";
import { GRID, STEP_WIDTH, stepBox } from "./sizes";
import { openingView } from "./view";

const snap = (value: number) => Math.round(value / GRID) * GRID;

const sizeOf = (node: StepNode) => ({ width: node.measured?.width ?? STEP_WIDTH, height: node.measured?.height ?? stepBox(node.type, false).height });

export function arrange(graph: Graph): Graph {
	if (!graph.nodes.length) return graph;
	const layout = new dagre.graphlib.Graph({ multigraph: true });
	layout.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 80, marginx: 20, marginy: 20 });
	layout.setDefaultEdgeLabel(() => ({}));
	for (const node of graph.nodes) layout.setNode(node.id, sizeOf(node));
	for (const edge of graph.edges) if (layout.hasNode(edge.source) && layout.hasNode(edge.target)) layout.setEdge(edge.source, edge.target, {}, edge.id);
	dagre.layout(layout);
	return {
		...graph,
		nodes: graph.nodes.map((node) => {
			const placed = layout.node(node.id);
			const { width, height } = sizeOf(node);
			return { ...node, position: { x: snap(placed.x - width / 2), y: snap(placed.y - height / 2) } };
		}),
	};
}

/** The graph tidied, and where a canvas `width` by `height` pixels should then look. */
export function tidy(graph: Graph, width: number, height: number): { graph: Graph; view: Viewport } {
	const tidied = arrange(graph);
	const sized = tidied.nodes.map((node) => ({ ...node, measured: sizeOf(node) }));
	return { graph: tidied, view: openingView(sized, width, height) };
}
