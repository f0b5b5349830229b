// The flow builder: the palette of steps, the canvas, and beside it the settings of what is selected
// (or the flow's problems when nothing is). Problems are found as you edit, with the rules the server
// applies on save; a refused save shows the server's own problems on their steps too.
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type DragEvent } from "react";
import type { Definition, Problems } from "../rules";
import { kindOf, type NodeType } from "./catalog";
import { Beside } from "./Beside";
import { checkFlow } from "./checks";
import { useKnown } from "./choices";
import { Canvas } from "./Canvas";
import { fromDefinition, toDefinition } from "./convert";
import { addStep, canLink } from "./editor";
import { STEP_HEIGHT, STEP_WIDTH } from "./sizes";
import { LookContext } from "./look";
import { useFirstDrawn } from "./marks";
import { DRAG_TYPE, Palette } from "./Palette";
import { merge } from "./Summary";
import { Toolbar } from "./Toolbar";
import { useEditor } from "./useEditor";
import { useShortcuts } from "./shortcuts";

type Props = {
	definition: Definition;
	readOnly: boolean;
	/** The problems the server gave for the last save it refused (cleared by the page on the next save). */
	refused: Problems | null;
	saving: boolean;
	onSave: (definition: Definition, note: string) => Promise<boolean>;
	onDirty: (dirty: boolean) => void;
};

/** Drawn again only when its own inputs change, not whenever the page around it does. */
export const Builder = memo(function Builder(props: Props) {
	return (
		<ReactFlowProvider>
			<BuilderView {...props} />
		</ReactFlowProvider>
	);
});

const canonical = (definition: Definition) => JSON.stringify(definition);

function BuilderView({ definition, readOnly, refused, saving, onSave, onDirty }: Props) {
	const flow = useReactFlow();
	const opened = useMemo(() => fromDefinition(definition), [definition]);
	const { rest } = opened;
	const saved = useMemo(() => canonical(toDefinition(opened)), [opened]);
	const editor = useEditor(() => ({ nodes: opened.nodes, edges: opened.edges }), readOnly);
	const { graph, select } = editor;
	const shortcuts = useShortcuts(editor, readOnly);
	const drawn = useFirstDrawn(graph.nodes.length);
	// What is saved, checked and listed follows the graph a moment behind (a step being dragged
	// joins the graph only when it is dropped: useEditor).
	const settled = useDeferredValue(graph);
	const current = useMemo(() => toDefinition({ ...settled, rest }), [settled, rest]);
	const dirty = useMemo(() => canonical(current) !== saved, [current, saved]);
	useEffect(() => onDirty(dirty), [dirty, onDirty]);

	const known = useKnown(drawn);
	// The checks and the step list wait until the canvas has been drawn once (marks.ts). Checked
	// again only when what the steps say changes (`content` stands for `current`), not when one
	// moves, is measured or is selected.
	const content = useMemo(() => JSON.stringify([current.nodes?.map((node) => [node.id, node.type, node.data]), current.edges]), [current]);
	const problems = useMemo(() => (drawn ? merge(checkFlow(current, known), refused) : null), [drawn, content, known, refused]);
	const lines = useMemo(() => settled.nodes.map((node) => ({ id: node.id, label: node.data.label, type: node.type })), [content]);
	const countsKey = useMemo(() => {
		const found: Record<string, number> = {};
		for (const problem of problems ?? []) if (problem.nodeId) found[problem.nodeId] = (found[problem.nodeId] ?? 0) + 1;
		return JSON.stringify(found);
	}, [problems]);
	// The same counts keep the same object, so the steps on the canvas do not all draw again.
	const counts = useMemo(() => JSON.parse(countsKey) as Record<string, number>, [countsKey]);
	const look = useMemo(() => ({ problems: counts, overlay: null }), [counts]);

	const panel = useRef<HTMLDivElement>(null);
	const surface = useRef<HTMLDivElement>(null);
	const [announce, setAnnounce] = useState("");
	const add = (type: NodeType, position?: { x: number; y: number }) => {
		const box = surface.current?.getBoundingClientRect();
		const middle = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
		const at = position ?? { x: middle.x - STEP_WIDTH / 2 + graph.nodes.length * 20, y: middle.y - STEP_HEIGHT / 2 };
		editor.change((current) => addStep(current, type, at));
		setAnnounce(`Added the step ${kindOf(type)?.title ?? type}. Its settings are beside the canvas.`);
		if (!position) requestAnimationFrame(() => panel.current?.focus());
	};
	const onDrop = (event: DragEvent) => {
		const type = event.dataTransfer.getData(DRAG_TYPE) as NodeType;
		if (!type || readOnly) return;
		event.preventDefault();
		const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
		add(type, { x: point.x - STEP_WIDTH / 2, y: point.y - 20 });
	};

	const pick = useCallback(
		(id: string) => {
			select(id);
			requestAnimationFrame(() => panel.current?.focus());
		},
		[select],
	);

	return (
		<LookContext.Provider value={look}>
			<div className="grid gap-2 focus:outline-none" {...shortcuts}>
				{readOnly ? null : (
					<Toolbar
						editor={editor}
						dirty={dirty}
						saving={saving}
						problems={problems?.length ?? 0}
						onArrange={async () => {
							const { arrange } = await import("./layout");
							editor.change(arrange);
							requestAnimationFrame(() => void flow.fitView({ duration: 200 }));
						}}
						onSave={(note) => onSave(current, note)}
					/>
				)}
				<div className="grid h-[70vh] min-h-[480px] grid-cols-[14rem_1fr_20rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
					<div className="overflow-y-auto border-r border-slate-200 bg-slate-50">{readOnly ? <ReadOnlyNote /> : <Palette onAdd={(type) => add(type)} />}</div>
					<div ref={surface} className="relative">
						<Canvas
							nodes={graph.nodes}
							edges={graph.edges}
							readOnly={readOnly}
							label="Flow canvas"
							{...editor.handlers}
							overview={drawn}
							isValidConnection={(link) => canLink(graph, { source: link.source, target: link.target, sourceHandle: link.sourceHandle ?? null })}
							onDrop={onDrop}
						/>
					</div>
					<div ref={panel} tabIndex={-1} aria-label="Settings" role="region" className="overflow-y-auto border-l border-slate-200 p-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500">
						<Beside graph={graph} problems={problems} lines={lines} readOnly={readOnly} change={editor.change} deselect={editor.deselect} pick={pick} />
					</div>
				</div>
				<p aria-live="polite" className="sr-only">
					{announce}
				</p>
			</div>
		</LookContext.Provider>
	);
}

function ReadOnlyNote() {
	return <p className="p-3 text-sm text-slate-600">You are looking at this flow; only managers change it. Select a step to see its settings.</p>;
}
