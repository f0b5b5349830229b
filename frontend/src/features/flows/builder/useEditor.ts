// The builder's state: the editing model (editor.ts) wired to React Flow's change events (the
// keyboard shortcuts are shortcuts.ts's).
import { applyEdgeChanges, applyNodeChanges, useStoreApi, type Connection, type EdgeChange, type NodeChange } from "@xyflow/react";
import { useCallback, useState } from "react";
import type { LinkEdge, StepNode } from "./catalog";
import * as model from "./editor";
import { typingIn } from "./typing";

export function useEditor(initial: () => model.Graph, readOnly: boolean) {
	const [editor, setEditor] = useState(() => model.start(initial()));
	// What is typed in one field is one undo step (shortcuts.ts ends it when focus moves).
	const change = useCallback((fn: (graph: model.Graph) => model.Graph) => {
		const typing = typingIn();
		setEditor((current) => model.edit(current, fn, typing));
	}, []);

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
		update: setEditor,
	};
}
