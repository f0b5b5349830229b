// Auto-layout: the steps arranged left to right in the order a run meets them (dagre), on the grid.
// Loaded when Tidy up is first pressed, so opening a flow does not pay for it.
import dagre from "@dagrejs/dagre";
import type { Graph } from "./editor";
import { GRID, STEP_WIDTH, stepBox } from "./sizes";

const snap = (value: number) => Math.round(value / GRID) * GRID;

export function arrange(graph: Graph): Graph {
	if (!graph.nodes.length) return graph;
	const layout = new dagre.graphlib.Graph({ multigraph: true });
	layout.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 80, marginx: 20, marginy: 20 });
	layout.setDefaultEdgeLabel(() => ({}));
	for (const node of graph.nodes) layout.setNode(node.id, { width: node.measured?.width ?? STEP_WIDTH, height: node.measured?.height ?? stepBox(node.type, false).height });
	for (const edge of graph.edges) if (layout.hasNode(edge.source) && layout.hasNode(edge.target)) layout.setEdge(edge.source, edge.target, {}, edge.id);
	dagre.layout(layout);
	return {
		...graph,
		nodes: graph.nodes.map((node) => {
			const placed = layout.node(node.id);
			const width = node.measured?.width ?? STEP_WIDTH;
			const height = node.measured?.height ?? stepBox(node.type, false).height;
			return { ...node, position: { x: snap(placed.x - width / 2), y: snap(placed.y - height / 2) } };
		}),
	};
}
