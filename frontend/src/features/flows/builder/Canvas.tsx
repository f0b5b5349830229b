// The drawing surface (React Flow): steps and connections, the grid they snap to, zoom controls
// and the overview map. The builder drives it with its editing model; a run page shows it read only.
import "@xyflow/react/dist/style.css";
import { Background, Controls, MiniMap, ReactFlow, type Connection, type EdgeChange, type NodeChange, type ReactFlowProps } from "@xyflow/react";
import { useContext, useState, type ReactNode } from "react";
import { EDGE_TYPES, KINDS, type LinkEdge, type StepNode } from "./catalog";
import { GRID } from "./sizes";
import { LinkLine } from "./LinkLine";
import { LookContext } from "./look";
import { stateOf, type StepState } from "./overlay";
import { StepCard } from "./StepCard";

/** The overview map's colour of a step: its run state, red with problems, else grey. */
const MAP_COLOURS: Record<StepState, string> = { queued: "#94a3b8", running: "#3b82f6", succeeded: "#16a34a", failed: "#dc2626", waiting: "#f59e0b", retrying: "#f97316" };

const nodeTypes = Object.fromEntries(KINDS.map((kind) => [kind.type, StepCard]));
const edgeTypes = Object.fromEntries(EDGE_TYPES.map((type) => [type, LinkLine]));

/** Words for the canvas's built-in controls and announcements, in the product's voice. */
const ARIA = {
	"node.a11yDescription.default": "Press Enter or Space to select this step; its settings open beside the canvas. Press Delete to remove it.",
	"node.a11yDescription.keyboardDisabled": "Press Enter or Space to select this step. Use the arrow keys to move it. Press Delete to remove it.",
	"node.a11yDescription.ariaLiveMessage": ({ direction, x, y }: { direction: string; x: number; y: number }) => `Moved the step ${direction}, to ${x}, ${y}.`,
	"edge.a11yDescription.default": "Press Enter or Space to select this connection. Press Delete to remove it.",
	"controls.ariaLabel": "Zoom controls",
	"controls.zoomIn.ariaLabel": "Zoom in",
	"controls.zoomOut.ariaLabel": "Zoom out",
	"controls.fitView.ariaLabel": "Fit the whole flow on screen",
	"controls.interactive.ariaLabel": "Lock or unlock the canvas",
	"minimap.ariaLabel": "Overview of the whole flow",
	"handle.ariaLabel": "Connection point",
};

type Props = {
	nodes: StepNode[];
	edges: LinkEdge[];
	readOnly: boolean;
	label: string;
	onNodesChange?: (changes: NodeChange<StepNode>[]) => void;
	onEdgesChange?: (changes: EdgeChange<LinkEdge>[]) => void;
	onConnect?: (connection: Connection) => void;
	isValidConnection?: ReactFlowProps<StepNode, LinkEdge>["isValidConnection"];
	onNodeDragStart?: () => void;
	onNodeDragStop?: () => void;
	onDrop?: (event: React.DragEvent) => void;
	onNodeClick?: (id: string) => void;
	children?: ReactNode;
};

export function Canvas({ nodes, edges, readOnly, label, onNodesChange, onEdgesChange, onConnect, isValidConnection, onNodeDragStart, onNodeDragStop, onDrop, onNodeClick, children }: Props) {
	// Fit a flow that has steps on screen once; an empty canvas keeps its view, so the first steps
	// dropped on it stay where they were put.
	const [fit] = useState(() => nodes.length > 0);
	const look = useContext(LookContext);
	const colour = (node: StepNode) => {
		const state = look.overlay ? stateOf(look.overlay, node.id) : null;
		return state ? MAP_COLOURS[state] : look.problems[node.id] ? "#fca5a5" : "#cbd5e1";
	};
	return (
		<div className="h-full w-full" role="region" aria-label={label} onDrop={onDrop} onDragOver={(event) => event.preventDefault()}>
			<ReactFlow<StepNode, LinkEdge>
				nodes={nodes}
				edges={edges}
				nodeTypes={nodeTypes}
				edgeTypes={edgeTypes}
				{...(onNodesChange ? { onNodesChange } : {})}
				{...(onEdgesChange ? { onEdgesChange } : {})}
				{...(onConnect ? { onConnect } : {})}
				{...(isValidConnection ? { isValidConnection } : {})}
				{...(onNodeDragStart ? { onNodeDragStart } : {})}
				{...(onNodeDragStop ? { onNodeDragStop } : {})}
				{...(onNodeClick ? { onNodeClick: (_event: React.MouseEvent, node: StepNode) => onNodeClick(node.id) } : {})}
				nodesDraggable={!readOnly}
				nodesConnectable={!readOnly}
				elementsSelectable
				deleteKeyCode={null}
				selectionKeyCode="Shift"
				multiSelectionKeyCode={["Meta", "Control"]}
				snapToGrid
				snapGrid={[GRID, GRID]}
				onlyRenderVisibleElements={nodes.length > 60}
				fitView={fit}
				fitViewOptions={{ maxZoom: 1.2 }}
				minZoom={0.1}
				ariaLabelConfig={ARIA}
				proOptions={{ hideAttribution: true }}
			>
				<Background gap={GRID} />
				<Controls showInteractive={false} />
				<MiniMap pannable zoomable nodeColor={colour} ariaLabel="Overview of the whole flow" />
				{children}
			</ReactFlow>
		</div>
	);
}
