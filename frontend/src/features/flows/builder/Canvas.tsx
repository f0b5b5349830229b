// The drawing surface (React Flow): steps and connections, the grid they snap to, zoom controls
// and the overview map. The builder drives it with its editing model; a run page shows it read only.
import "@xyflow/react/dist/style.css";
import { Background, Controls, MiniMap, ReactFlow, useStoreApi, type Connection, type EdgeChange, type NodeChange, type ReactFlowProps, type Viewport } from "@xyflow/react";
import { useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { EDGE_TYPES, KINDS, type LinkEdge, type StepNode } from "./catalog";
import { GRID, stepBox } from "./sizes";
import { LinkLine } from "./LinkLine";
import { LookContext } from "./look";
import { stateOf, type StepState } from "./overlay";
import { StepCard } from "./StepCard";
import { openingView } from "./view";

/** The overview map's colour of a step: its run state, red with problems, else grey. */
const MAP_COLOURS: Record<StepState, string> = {
	queued: "#94a3b8",
	running: "#3b82f6",
	succeeded: "#16a34a",
	failed: "#dc2626",
	waiting: "#f59e0b",
	retrying: "#f97316",
	attention: "#9333ea",
	skipped: "#64748b",
	cancelled: "#334155",
};

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

/** The steps as React Flow gets them: with the size and the ways in and out that StepCard draws
 * (sizes.ts), given as already measured. A step is then shown from React Flow's first render, and
 * a connection to a step off screen (never drawn, so never measured) ends in the right place. React
 * Flow still measures each step it draws, in the same frame. Each step keeps its copy until it changes. */
function useSized(nodes: StepNode[], onRun: boolean): StepNode[] {
	const copies = useMemo(() => new WeakMap<StepNode, StepNode>(), [onRun]);
	return useMemo(
		() =>
			nodes.map((node) => {
				let copy = copies.get(node);
				if (!copy) {
					const { width, height, handles } = stepBox(node.type, onRun);
					// What React Flow measured itself, were it ever different, wins.
					copy = node.measured ? { ...node, initialWidth: width, initialHeight: height } : { ...node, measured: { width, height }, handles };
					copies.set(node, copy);
				}
				return copy;
			}),
		[nodes, copies, onRun],
	);
}

type Props = {
	nodes: StepNode[];
	edges: LinkEdge[];
	readOnly: boolean;
	label: string;
	/** Whether to draw the overview map (a shape for every step); the builder adds it once the steps on screen are drawn. */
	overview?: boolean;
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

export function Canvas({ nodes: steps, edges, readOnly, label, overview = true, onNodesChange, onEdgesChange, onConnect, isValidConnection, onNodeDragStart, onNodeDragStop, onDrop, onNodeClick, children }: Props) {
	const look = useContext(LookContext);
	const nodes = useSized(steps, look.overlay !== null);
	// Where to look is worked out from the canvas's own size before anything is drawn (view.ts), so
	// a big flow draws only the steps on screen; an empty canvas keeps its view, so the first steps
	// dropped on it stay where they were put. React Flow is handed that size, that view and the flow
	// before it mounts, so its first render draws the steps on screen: it does not render empty,
	// take the flow, and render again.
	const box = useRef<HTMLDivElement>(null);
	const store = useStoreApi<StepNode, LinkEdge>();
	const [view, setView] = useState<Viewport | null>(null);
	useLayoutEffect(() => {
		const width = box.current?.offsetWidth ?? 0, height = box.current?.offsetHeight ?? 0;
		const opening = openingView(nodes, width, height);
		if (width && height) {
			store.setState({ width, height, transform: [opening.x, opening.y, opening.zoom] });
			store.getState().setNodes(nodes);
			store.getState().setEdges(edges);
		}
		setView(opening);
	}, []); // only the flow as it opened decides where the canvas first looks
	const colour = (node: StepNode) => {
		const state = look.overlay ? stateOf(look.overlay, node.id) : null;
		return state ? MAP_COLOURS[state] : look.problems[node.id] ? "#fca5a5" : "#cbd5e1";
	};
	return (
		<div ref={box} className="h-full w-full" role="region" aria-label={label} onDrop={onDrop} onDragOver={(event) => event.preventDefault()}>
			{view ? (
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
					defaultViewport={view}
					minZoom={0.1}
					ariaLabelConfig={ARIA}
					proOptions={{ hideAttribution: true }}
				>
					<Background gap={GRID} />
					<Controls showInteractive={false} />
					{overview ? <MiniMap pannable zoomable nodeColor={colour} ariaLabel="Overview of the whole flow" /> : null}
					{children}
				</ReactFlow>
			) : null}
		</div>
	);
}
