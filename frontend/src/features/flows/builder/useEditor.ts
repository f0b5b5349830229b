// The builder's state: the editing model (editor.ts) wired to React Flow's change events and to the
// keyboard shortcuts people expect from a drawing tool.
import { applyEdgeChanges, applyNodeChanges, useStoreApi, type Connection, type EdgeChange, type NodeChange } from "@xyflow/react";
import { useCallback, useState, type KeyboardEvent } from "react";
import type { LinkEdge, StepNode } from "./catalog";
import * as model from "./editor";

const isTyping = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

export function useEditor(initial: () => model.Graph, readOnly: boolean) {
	const [editor, setEditor] = useState(() => model.start(initial()));
	const change = useCallback((fn: (graph: model.Graph) => model.Graph) => setEditor((current) => model.edit(current, fn)), []);

	const store = useStoreApi<StepNode, LinkEdge>();
	const onNodesChange = useCallback((changes: NodeChange<StepNode>[]) => {
		// Steps moving under the mouse move on the canvas only; the builder takes their places when
		// they are dropped (React Flow then reports the last move as not dragging), so a move draws
		// the steps and their connections, not the whole builder.
		if (changes.every((item) => item.type === "position" && item.dragging)) {
			const { nodes, setNodes } = store.getState();
			setNodes(applyNodeChanges(changes, nodes));
			return;
		}
		setEditor((current) => {
			// Moving a step with the arrow keys is an edit of its own; a drag becomes one when it ends.
			const keyed = !current.before && changes.some((item) => item.type === "position" && !item.dragging);
			const apply = (graph: model.Graph) => ({ ...graph, nodes: applyNodeChanges(changes, graph.nodes) });
			return keyed && !readOnly ? model.edit(current, apply) : model.live(current, apply);
		});
	}, [readOnly, store]);
	const onEdgesChange = useCallback((changes: EdgeChange<LinkEdge>[]) => {
		setEditor((current) => model.live(current, (graph) => ({ ...graph, edges: applyEdgeChanges(changes, graph.edges) })));
	}, []);
	const onConnect = useCallback((connection: Connection) => change((graph) => model.connect(graph, connection)), [change]);
	const onNodeDragStart = useCallback(() => setEditor(model.hold), []);
	const onNodeDragStop = useCallback(() => setEditor(model.settle), []);

	const select = useCallback((id: string) => setEditor((current) => model.live(current, (graph) => model.selectOnly(graph, id))), []);
	const deselect = useCallback(() => setEditor((current) => model.live(current, model.clearSelection)), []);

	const copy = () => setEditor((current) => ({ ...current, clipboard: model.selection(current.graph) ?? current.clipboard }));
	const paste = () => setEditor((current) => (current.clipboard ? model.edit(current, (graph) => model.paste(graph, current.clipboard as model.Graph)) : current));

	const onKeyDown = (event: KeyboardEvent) => {
		if (isTyping(event.target)) return;
		const mod = event.ctrlKey || event.metaKey;
		const key = event.key.toLowerCase();
		const run = (action: () => void) => {
			event.preventDefault();
			action();
		};
		if (mod && key === "z" && !event.shiftKey) return run(() => setEditor(model.undo));
		if (mod && (key === "y" || (key === "z" && event.shiftKey))) return run(() => setEditor(model.redo));
		if (mod && key === "c") return run(copy);
		if (mod && key === "a") return run(() => setEditor((current) => model.live(current, model.selectAll)));
		if (readOnly) return;
		if (mod && key === "v") return run(paste);
		if (mod && key === "x") return run(() => (copy(), change(model.removeSelected)));
		if (mod && key === "d") return run(() => change(model.duplicate));
		if (key === "delete" || key === "backspace") return run(() => change(model.removeSelected));
	};

	return {
		graph: editor.graph,
		canUndo: editor.past.length > 0,
		canRedo: editor.future.length > 0,
		change,
		select,
		deselect,
		undo: () => setEditor(model.undo),
		redo: () => setEditor(model.redo),
		handlers: { onNodesChange, onEdgesChange, onConnect, onNodeDragStart, onNodeDragStop },
		onKeyDown,
	};
}
