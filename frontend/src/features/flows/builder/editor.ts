// The builder's editing model, pure so it can be tested without a browser: the graph on the canvas,
// what undo and redo go back and forth through, and what copy keeps. Every change that a person
// would want to undo goes through `edit`; where a drag drops its steps goes through `live` and
// becomes one undo step when the drag ends (`settle`). Typing is one change per field: edits made
// while typing in the same field (`typing`, the field) join the undo step of the first one, until
// focus moves (`pause`).
import { kindOf, type LinkEdge, type NodeType, type StepNode } from "./catalog";

export type Graph = { nodes: StepNode[]; edges: LinkEdge[] };
/** `typing`: the field whose typing the last undo step holds (any object that stands for it). */
export type Editor = { graph: Graph; past: Graph[]; future: Graph[]; clipboard: Graph | null; before: Graph | null; typing: object | null };

const HISTORY = 100;

export function start(graph: Graph): Editor {
	return { graph, past: [], future: [], clipboard: null, before: null, typing: null };
}

/** A change to remember: the graph before it goes on the undo stack, redo is forgotten. A change
 * typed in the field `typing` while the last one was typed there too joins that undo step. */
export function edit(editor: Editor, change: (graph: Graph) => Graph, typing: object | null = null): Editor {
	const next = change(editor.graph);
	if (next === editor.graph) return editor;
	if (typing && editor.typing === typing && editor.past.length) return { ...editor, graph: next, future: [], before: null };
	return { ...editor, graph: next, past: [...editor.past, editor.graph].slice(-HISTORY), future: [], before: null, typing };
}

/** Focus moved: the next change, even in the same field, is a change of its own. */
export function pause(editor: Editor): Editor {
	return editor.typing ? { ...editor, typing: null } : editor;
}

/** A change not (yet) worth an undo step: selection, sizes measured, where a drag dropped its steps. */
export function live(editor: Editor, change: (graph: Graph) => Graph): Editor {
	const next = change(editor.graph);
	if (next === editor.graph) return editor;
	return { ...editor, graph: next };
}

/** A drag began: remember where everything was, so the whole drag undoes at once. */
export function hold(editor: Editor): Editor {
	return { ...editor, before: editor.graph };
}

/** A drag ended: one undo step from where it began, when anything moved. */
export function settle(editor: Editor): Editor {
	const before = editor.before;
	if (!before) return editor;
	const moved = before.nodes.some((node, index) => {
		const now = editor.graph.nodes[index];
		return !now || now.id !== node.id || now.position.x !== node.position.x || now.position.y !== node.position.y;
	});
	return moved ? { ...editor, past: [...editor.past, before].slice(-HISTORY), future: [], before: null, typing: null } : { ...editor, before: null };
}

export function undo(editor: Editor): Editor {
	const previous = editor.past.at(-1);
	if (!previous) return editor;
	return { ...editor, graph: previous, past: editor.past.slice(0, -1), future: [editor.graph, ...editor.future], before: null, typing: null };
}

export function redo(editor: Editor): Editor {
	const next = editor.future[0];
	if (!next) return editor;
	return { ...editor, graph: next, past: [...editor.past, editor.graph], future: editor.future.slice(1), before: null, typing: null };
}

// --- ids and names --------------------------------------------------------------------------------

// Step ids are names an expression can use as they are (nodes.score_lead_1), so no dashes.
const slug = (type: string) => type.replace(/^trigger\./, "").replace(/[^a-z0-9]+/g, "_");

export function freshId(base: string, taken: Set<string>): string {
	for (let n = 1; ; n++) {
		const id = `${base}_${n}`;
		if (!taken.has(id)) return id;
	}
}

function freshLabel(title: string, nodes: StepNode[]): string {
	const labels = new Set(nodes.map((node) => node.data.label));
	if (!labels.has(title)) return title;
	for (let n = 2; ; n++) if (!labels.has(`${title} ${n}`)) return `${title} ${n}`;
}

// --- changes --------------------------------------------------------------------------------------

const deselect = <T extends { selected?: boolean }>(items: T[]): T[] => items.map((item) => (item.selected ? { ...item, selected: false } : item));

/** A new step of `type` at `position`, selected alone. */
export function addStep(graph: Graph, type: NodeType, position: { x: number; y: number }): Graph {
	const kind = kindOf(type);
	if (!kind) return graph;
	const id = freshId(slug(type), new Set(graph.nodes.map((node) => node.id)));
	const node: StepNode = { id, type, position, selected: true, data: { label: freshLabel(kind.title, graph.nodes), config: kind.defaults() } };
	return { nodes: [...deselect(graph.nodes), node], edges: deselect(graph.edges) };
}

export type Link = { source: string; sourceHandle: string | null; target: string };

/** Whether `link` may be drawn: both steps exist, not onto itself, into a step that takes input,
 * out of a way out the source has, and not drawn twice. */
export function canLink(graph: Graph, link: Link): boolean {
	const source = graph.nodes.find((node) => node.id === link.source);
	const target = graph.nodes.find((node) => node.id === link.target);
	if (!source || !target || source.id === target.id) return false;
	const from = kindOf(source.type);
	const to = kindOf(target.type);
	if (!from?.hasOutput || !to?.hasInput) return false;
	const handles = from.outcomes.map((outcome) => outcome.id);
	if (handles.length ? !handles.includes(link.sourceHandle ?? "") : link.sourceHandle) return false;
	return !graph.edges.some((edge) => edge.source === link.source && edge.target === link.target && (edge.sourceHandle ?? null) === (link.sourceHandle ?? null));
}

export function connect(graph: Graph, link: Link): Graph {
	if (!canLink(graph, link)) return graph;
	const id = freshId("edge", new Set(graph.edges.map((edge) => edge.id)));
	const edge: LinkEdge = { id, source: link.source, target: link.target, type: "always", data: {} };
	if (link.sourceHandle) edge.sourceHandle = link.sourceHandle;
	return { ...graph, edges: [...graph.edges, edge] };
}

export function updateStep(graph: Graph, id: string, patch: Partial<StepNode["data"]>): Graph {
	return { ...graph, nodes: graph.nodes.map((node) => (node.id === id ? { ...node, data: { ...node.data, ...patch } } : node)) };
}

export function updateLink(graph: Graph, id: string, patch: Partial<Pick<LinkEdge, "type" | "data">>): Graph {
	return { ...graph, edges: graph.edges.map((edge) => (edge.id === id ? { ...edge, ...patch, data: { ...edge.data, ...patch.data } } : edge)) };
}

/** The selected steps and connections go, with every connection touching a removed step. */
export function removeSelected(graph: Graph): Graph {
	const gone = new Set(graph.nodes.filter((node) => node.selected).map((node) => node.id));
	const edges = graph.edges.filter((edge) => !edge.selected && !gone.has(edge.source) && !gone.has(edge.target));
	if (!gone.size && edges.length === graph.edges.length) return graph;
	return { nodes: graph.nodes.filter((node) => !gone.has(node.id)), edges };
}

export function removeLink(graph: Graph, id: string): Graph {
	return { ...graph, edges: graph.edges.filter((edge) => edge.id !== id) };
}

/** The selected steps and the connections between them: what copy keeps. */
export function selection(graph: Graph): Graph | null {
	const nodes = graph.nodes.filter((node) => node.selected);
	if (!nodes.length) return null;
	const ids = new Set(nodes.map((node) => node.id));
	return { nodes, edges: graph.edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)) };
}

/** `piece` added as new steps (new ids, labels marked as copies, moved by `offset`), selected. */
export function paste(graph: Graph, piece: Graph, offset = 40): Graph {
	const takenNodes = new Set(graph.nodes.map((node) => node.id));
	const takenEdges = new Set(graph.edges.map((edge) => edge.id));
	const ids = new Map<string, string>();
	const nodes = piece.nodes.map((node) => {
		const id = freshId(slug(node.type ?? "step"), takenNodes);
		takenNodes.add(id);
		ids.set(node.id, id);
		const config = structuredClone(node.data.config);
		return { ...node, id, selected: true, position: { x: node.position.x + offset, y: node.position.y + offset }, data: { label: `${node.data.label} (copy)`, config } };
	});
	const edges = piece.edges.map((edge) => {
		const id = freshId("edge", takenEdges);
		takenEdges.add(id);
		return { ...edge, id, selected: false, source: ids.get(edge.source) ?? edge.source, target: ids.get(edge.target) ?? edge.target, data: { ...edge.data } };
	});
	return { nodes: [...deselect(graph.nodes), ...nodes], edges: [...deselect(graph.edges), ...edges] };
}

export function duplicate(graph: Graph): Graph {
	const piece = selection(graph);
	return piece ? paste(graph, piece) : graph;
}

export function selectAll(graph: Graph): Graph {
	return { nodes: graph.nodes.map((node) => ({ ...node, selected: true })), edges: graph.edges.map((edge) => ({ ...edge, selected: true })) };
}

/** Only the step `id` selected (after adding one from the keyboard, or picking one from a list). */
export function selectOnly(graph: Graph, id: string): Graph {
	return { nodes: graph.nodes.map((node) => ({ ...node, selected: node.id === id })), edges: deselect(graph.edges) };
}

export function clearSelection(graph: Graph): Graph {
	return { nodes: deselect(graph.nodes), edges: deselect(graph.edges) };
}
