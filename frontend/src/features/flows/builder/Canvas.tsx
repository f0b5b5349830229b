// The drawing surface (React Flow): steps and connections, the grid they snap to, zoom controls
// and the overview map (floating, and hidden or shown again by a button; remembered). The builder
// drives it with its editing model; a run page shows it read only. Steps and connections are
// announced by their names, and a connection dropped on a step's body goes to its way in.
import "@xyflow/react/dist/style.css";
import { Background, Controls, MiniMap, Panel, ReactFlow, useStoreApi, type Connection, type EdgeChange, type FinalConnectionState, type NodeChange, type ReactFlowProps, type Viewport } from "@xyflow/react";
import { Map as MapIcon, X } from "lucide-react";
import { useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { EDGE_TYPES, KINDS, kindOf, type LinkEdge, type StepNode } from "./catalog";
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

const stepName = (node: StepNode) => node.data.label || kindOf(node.type)?.title || "Unnamed step";

/** A step's own name for screen readers, with its kind when the name is not that: "Score the lead, Ask an agent". */
function stepLabel(node: StepNode): string {
	const name = stepName(node);
	const kind = kindOf(node.type)?.title ?? "unknown kind of step";
	return name === kind ? name : `${name}, ${kind}`;
}

/** A connection in words, by the names of its steps: "From Check a condition (Yes) to Finish". */
export function linkLabel(edge: LinkEdge, nodes: Map<string, StepNode>): string {
	const source = nodes.get(edge.source);
	const target = nodes.get(edge.target);
	const outcome = source && edge.sourceHandle ? kindOf(source.type)?.outcomes.find((item) => item.id === edge.sourceHandle)?.label : undefined;
	return `From ${source ? stepName(source) : "a missing step"}${outcome ? ` (${outcome})` : ""} to ${target ? stepName(target) : "a missing step"}`;
}

/** The connections as React Flow gets them: announced by their steps' names. Each keeps its copy while its words stay the same. */
function useNamed(edges: LinkEdge[], nodes: StepNode[]): LinkEdge[] {
	const copies = useMemo(() => new WeakMap<LinkEdge, LinkEdge>(), []);
	return useMemo(() => {
		const byId = new Map(nodes.map((node) => [node.id, node]));
		return edges.map((edge) => {
			const ariaLabel = linkLabel(edge, byId);
			const kept = copies.get(edge);
			if (kept?.ariaLabel === ariaLabel) return kept;
			const copy = { ...edge, ariaLabel, domAttributes: { "aria-roledescription": "connection" } };
			copies.set(edge, copy);
			return copy;
		});
	}, [edges, nodes, copies]);
}

const MAP_KEY = "huf:flow-builder:overview";
const storedMap = () => {
	try {
		return localStorage.getItem(MAP_KEY) !== "hidden";
	} catch {
		return true;
	}
};

/** Where a pointer let go (a mouse, or the last touch). */
const pointAt = (event: MouseEvent | TouchEvent) => ("changedTouches" in event ? event.changedTouches[0] : event);

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
					const named = { ...node, ariaLabel: stepLabel(node), ariaRole: "group" as const, domAttributes: { "aria-roledescription": "step" } };
					copy = node.measured ? { ...named, initialWidth: width, initialHeight: height } : { ...named, measured: { width, height }, handles };
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

export function Canvas({ nodes: steps, edges: links, readOnly, label, overview = true, onNodesChange, onEdgesChange, onConnect, isValidConnection, onNodeDragStart, onNodeDragStop, onDrop, onNodeClick, children }: Props) {
	const look = useContext(LookContext);
	const nodes = useSized(steps, look.overlay !== null);
	const edges = useNamed(links, steps);
	const [map, setMap] = useState(storedMap);
	const showMap = (shown: boolean) => {
		setMap(shown);
		try {
			localStorage.setItem(MAP_KEY, shown ? "shown" : "hidden");
		} catch {
			// A browser that keeps nothing shows the map again next time.
		}
	};
	// A connection let go over a step's body (not its small way in) goes to that step's way in.
	const onConnectEnd = (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
		if (!onConnect || state.isValid || !state.fromNode || state.fromHandle?.type !== "source") return;
		const point = pointAt(event);
		if (!point) return;
		const { domNode, transform, nodeLookup } = store.getState();
		const frame = domNode?.getBoundingClientRect();
		if (!frame) return;
		const x = (point.clientX - frame.left - transform[0]) / transform[2];
		const y = (point.clientY - frame.top - transform[1]) / transform[2];
		let target: string | undefined;
		for (const [id, node] of nodeLookup) {
			const { x: left, y: top } = node.internals.positionAbsolute;
			if (x >= left && x <= left + (node.measured.width ?? 0) && y >= top && y <= top + (node.measured.height ?? 0)) target = id;
		}
		if (target && target !== state.fromNode.id) onConnect({ source: state.fromNode.id, sourceHandle: state.fromHandle.id ?? null, target, targetHandle: null });
	};
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
					{...(onConnect ? { onConnect, onConnectEnd } : {})}
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
					connectionRadius={30}
					ariaLabelConfig={ARIA}
					proOptions={{ hideAttribution: true }}
				>
					<Background gap={GRID} />
					<Controls showInteractive={false} />
					{overview && map ? <MiniMap pannable zoomable nodeColor={colour} ariaLabel="Overview of the whole flow" className="!bottom-8 max-md:!hidden" /> : null}
					{overview ? (
						<Panel position="bottom-right" className="!m-2 max-md:!hidden">
							<button
								type="button"
								onClick={() => showMap(!map)}
								className="flex items-center gap-1 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
							>
								{map ? <X className="h-3 w-3" aria-hidden /> : <MapIcon className="h-3 w-3" aria-hidden />}
								{map ? "Hide the overview" : "Show the overview"}
							</button>
						</Panel>
					) : null}
					{children}
				</ReactFlow>
			) : null}
		</div>
	);
}
