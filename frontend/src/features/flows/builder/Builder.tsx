// The flow builder: the palette of steps, the canvas, and beside it the settings of what is selected
// (or the flow's problems when nothing is). Problems are found as you edit, with the rules the server
// applies on save; a refused save shows the server's own problems on their steps too. The canvas
// takes what the page leaves it: the palette and the settings fold away (remembered in the browser);
// below 1280 px the settings float over the canvas, and on a phone they are a sheet from the bottom.
// A way out's "+" opens the step picker, which adds a step after it, connected. "Ask the assistant"
// opens its panel (AssistantPanel); a proposal is shown on the canvas, marked, until accepted (one
// undoable change) or discarded; while it is shown the canvas is not edited.
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { ChevronsLeft, ChevronsRight, Plus, SlidersHorizontal, Sparkles, X } from "lucide-react";
import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from "react";
import { Loading } from "../../../components/ui/status";
import { cn } from "../../../lib/cn";
import type { Definition, Problems } from "../rules";
import { kindOf, type NodeType } from "./catalog";
import { Beside } from "./Beside";
import { checkFlow } from "./checks";
import { useKnown } from "./choices";
import { Canvas } from "./Canvas";
import { fromDefinition, toDefinition } from "./convert";
import { addStep, canLink } from "./editor";
import { STEP_HEIGHT, STEP_WIDTH, stepBox } from "./sizes";
import { AddAfterContext, LookContext } from "./look";
import { useFirstDrawn } from "./marks";
import { DRAG_TYPE, Palette } from "./Palette";
import { addAfter, type WayOut } from "./place";
import { markWords, preview, type Preview } from "./proposal";
import { StepPicker } from "./StepPicker";
import { merge } from "./Summary";
import { Toolbar } from "./Toolbar";
import { useEditor } from "./useEditor";
import { useShortcuts } from "./shortcuts";

// Fetched when the person first asks: opening a flow does not load the assistant.
const AssistantPanel = lazy(() => import("./AssistantPanel").then((module) => ({ default: module.AssistantPanel })));

type Props = {
	definition: Definition;
	readOnly: boolean;
	/** The problems the server gave for the last save it refused (cleared by the page on the next save). */
	refused: Problems | null;
	saving: boolean;
	onSave: (definition: Definition, note: string) => Promise<boolean>;
	onDirty: (dirty: boolean) => void;
	/** The steps as they are on screen, saved or not (what a test run runs). */
	onDraft?: (definition: Definition) => void;
	/** The flow's id, for the assistant (none: no assistant). */
	flowId?: string;
	/** The id of a step to select when the builder opens. */
	focus?: string | undefined;
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

function BuilderView({ definition, readOnly, refused, saving, onSave, onDirty, onDraft, flowId, focus }: Props) {
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
	useEffect(() => onDraft?.(current), [current, onDraft]);

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
	const [asking, setAsking] = useState(false);
	const [proposal, setProposal] = useState<Preview | null>(null);
	const look = useMemo(() => ({ problems: counts, overlay: null, ...(proposal ? { marks: proposal.marks } : {}) }), [counts, proposal]);
	const shown = proposal?.graph ?? graph;

	const panel = useRef<HTMLDivElement>(null);
	const surface = useRef<HTMLDivElement>(null);
	const [announce, setAnnounce] = useState("");
	const wide = useWide();
	const [paletteOpen, setPaletteOpen] = usePanel("palette", wide);
	const [settingsOpen, setSettingsOpen] = usePanel("settings", wide);
	const [picking, setPicking] = useState<WayOut | null>(null);
	const showSettings = () => {
		setSettingsOpen(true);
		requestAnimationFrame(() => panel.current?.focus());
	};
	const add = (type: NodeType, position?: { x: number; y: number }) => {
		const box = surface.current?.getBoundingClientRect();
		const middle = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
		const at = position ?? { x: middle.x - STEP_WIDTH / 2 + graph.nodes.length * 20, y: middle.y - STEP_HEIGHT / 2 };
		editor.change((current) => addStep(current, type, at));
		setAnnounce(`Added the step ${kindOf(type)?.title ?? type}. Its settings are beside the canvas.`);
		if (!position) showSettings();
	};
	const onDrop = (event: DragEvent) => {
		const type = event.dataTransfer.getData(DRAG_TYPE) as NodeType;
		if (!type || readOnly) return;
		event.preventDefault();
		const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
		add(type, { x: point.x - STEP_WIDTH / 2, y: point.y - 20 });
	};
	const addPicked = (from: WayOut, type: NodeType) => {
		setPicking(null);
		const next = addAfter(graph, from, type);
		const step = next.nodes.at(-1);
		if (next === graph || !step) return;
		editor.change(() => next);
		const after = graph.nodes.find((node) => node.id === from.source)?.data.label ?? "";
		setAnnounce(`Added ${step.data.label} after ${after}, connected. Its settings are beside the canvas.`);
		// Bring the new step into view when it landed off screen.
		const box = surface.current?.getBoundingClientRect();
		if (box) {
			const corner = flow.screenToFlowPosition({ x: box.right, y: box.bottom });
			const { height } = stepBox(type, false);
			if (step.position.x + STEP_WIDTH + 40 > corner.x || step.position.y + height > corner.y) void flow.setCenter(step.position.x + STEP_WIDTH / 2, step.position.y + height / 2, { zoom: flow.getZoom(), duration: 200 });
		}
		showSettings();
	};
	const openPicker = useCallback((from: WayOut) => setPicking(from), []);

	useEffect(() => {
		if (focus && opened.nodes.some((node) => node.id === focus)) select(focus);
	}, [focus, opened, select]);

	const pick = useCallback(
		(id: string) => {
			select(id);
			requestAnimationFrame(() => panel.current?.focus());
		},
		[select],
	);

	const palette = readOnly ? <ReadOnlyNote /> : <Palette onAdd={(type) => add(type)} />;
	return (
		<LookContext.Provider value={look}>
			<AddAfterContext.Provider value={readOnly ? null : openPicker}>
				<div className="flex h-full min-h-0 flex-col gap-2 focus:outline-none" {...shortcuts}>
					{readOnly ? null : (
						<Toolbar
							editor={editor}
							dirty={dirty}
							saving={saving}
							problems={problems?.length ?? 0}
							onArrange={async () => {
								const { tidy } = await import("./layout");
								const box = surface.current;
								const tidied = tidy(graph, box?.offsetWidth ?? 0, box?.offsetHeight ?? 0);
								editor.change(() => tidied.graph);
								requestAnimationFrame(() => void flow.setViewport(tidied.view, { duration: 200 }));
							}}
							onSave={(note) => onSave(current, note)}
						/>
					)}
					<div className="relative flex min-h-0 flex-1 overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="builder">
						{paletteOpen ? (
							<div id="builder-palette" className="absolute inset-y-0 left-0 z-20 flex w-64 max-w-[85%] flex-col border-r border-slate-200 bg-slate-50 shadow-lg md:static md:z-auto md:w-56 md:max-w-none md:shrink-0 md:shadow-none">
								<Fold side="left" label={readOnly ? "Hide this note" : "Hide the steps you can add"} onClick={() => setPaletteOpen(false)} />
								<div className="min-h-0 flex-1 overflow-y-auto">{palette}</div>
							</div>
						) : (
							<Unfold side="left" label={readOnly ? "About this flow" : "Add steps"} onClick={() => setPaletteOpen(true)}>
								<Plus className="h-4 w-4" aria-hidden />
							</Unfold>
						)}
						<div ref={surface} className="relative min-w-0 flex-1">
							{!readOnly && flowId && !asking ? (
								<button
									type="button"
									onClick={() => setAsking(true)}
									className="absolute left-1/2 top-2 z-10 flex -translate-x-1/2 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 shadow-sm hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
								>
									<Sparkles className="h-4 w-4 text-blue-600" aria-hidden />
									Ask the assistant
								</button>
							) : null}
							{asking && flowId ? (
								<Suspense fallback={<Loading />}>
									<AssistantPanel
										flowId={flowId}
										canvas={() => toDefinition({ ...(proposal?.accepted ?? graph), rest })}
										pending={proposal ? markWords(proposal.marks) : null}
										onProposal={(proposed) => {
											const next = preview(graph, proposed);
											setProposal(next);
											return markWords(next.marks);
										}}
										onAccept={() => {
											const accepted = proposal?.accepted;
											setProposal(null);
											if (accepted) editor.change(() => accepted);
											setAnnounce("The assistant's proposal is on the canvas. Undo takes it back.");
										}}
										onDiscard={() => setProposal(null)}
										onClose={() => {
											setProposal(null);
											setAsking(false);
										}}
									/>
								</Suspense>
							) : null}
							<Canvas
								nodes={shown.nodes}
								edges={shown.edges}
								readOnly={readOnly || proposal !== null}
								label="Flow canvas"
								{...(proposal ? {} : editor.handlers)}
								overview={drawn}
								isValidConnection={(link) => canLink(graph, { source: link.source, target: link.target, sourceHandle: link.sourceHandle ?? null })}
								onDrop={onDrop}
								{...(wide ? {} : { onNodeClick: () => setSettingsOpen(true) })}
							/>
						</div>
						{settingsOpen ? (
							<div
								ref={panel}
								id="builder-settings"
								tabIndex={-1}
								aria-label="Settings"
								role="region"
								className="fixed inset-x-0 bottom-0 z-30 flex max-h-[70dvh] flex-col rounded-t-xl border-t border-slate-200 bg-white shadow-2xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500 md:absolute md:inset-x-auto md:right-0 md:top-0 md:max-h-none md:w-80 md:rounded-none md:border-l md:border-t-0 md:shadow-lg xl:static xl:shrink-0 xl:shadow-none"
							>
								<Fold side="right" label="Hide settings" onClick={() => setSettingsOpen(false)} />
								<div className="min-h-0 flex-1 overflow-y-auto p-3 pt-0">
									<Beside graph={graph} problems={problems} lines={lines} readOnly={readOnly} change={editor.change} deselect={editor.deselect} pick={pick} />
								</div>
							</div>
						) : (
							<Unfold side="right" label="Show settings" onClick={showSettings}>
								<SlidersHorizontal className="h-4 w-4" aria-hidden />
							</Unfold>
						)}
					</div>
					<p aria-live="polite" className="sr-only">
						{announce}
					</p>
				</div>
				{picking ? <StepPicker after={graph.nodes.find((node) => node.id === picking.source)?.data.label ?? ""} onPick={(type) => addPicked(picking, type)} onClose={() => setPicking(null)} /> : null}
			</AddAfterContext.Provider>
		</LookContext.Provider>
	);
}

/** Whether the screen is at least tablet wide (768 px): panels sit beside the canvas, not over it. */
function useWide(): boolean {
	const query = "(min-width: 768px)";
	const [wide, setWide] = useState(() => typeof window.matchMedia !== "function" || window.matchMedia(query).matches);
	useEffect(() => {
		if (typeof window.matchMedia !== "function") return;
		const list = window.matchMedia(query);
		const changed = () => setWide(list.matches);
		list.addEventListener("change", changed);
		return () => list.removeEventListener("change", changed);
	}, []);
	return wide;
}

/** Whether a panel is open. On a wide screen it starts open and the browser remembers what the
 * person chose; on a phone it starts closed, out of the canvas's way. */
function usePanel(name: string, wide: boolean): [boolean, (open: boolean) => void] {
	const key = `huf:flow-builder:${name}`;
	const [kept, setKept] = useState(() => {
		try {
			return localStorage.getItem(key) !== "closed";
		} catch {
			return true;
		}
	});
	const [onPhone, setOnPhone] = useState(false);
	const set = useCallback(
		(open: boolean) => {
			if (!wide) return setOnPhone(open);
			setKept(open);
			try {
				localStorage.setItem(key, open ? "open" : "closed");
			} catch {
				// A browser that keeps nothing opens the panel again next time.
			}
		},
		[key, wide],
	);
	return [wide ? kept : onPhone, set];
}

/** The button at the top of an open panel that folds it away. */
function Fold({ side, label, onClick }: { side: "left" | "right"; label: string; onClick: () => void }) {
	const Icon = side === "left" ? ChevronsLeft : ChevronsRight;
	return (
		<div className={cn("flex p-1", side === "left" ? "justify-end" : "justify-start")}>
			<button type="button" aria-expanded onClick={onClick} title={label} className="flex items-center gap-1 rounded px-2 py-1 text-xs text-slate-700 hover:bg-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
				<span className="md:hidden">
					<X className="h-4 w-4" aria-hidden />
				</span>
				<span className="hidden md:inline">
					<Icon className="h-4 w-4" aria-hidden />
				</span>
				{label}
			</button>
		</div>
	);
}

/** A folded panel: a narrow strip beside the canvas with the button that opens it again (on a
 * phone, a button floating over the canvas). */
function Unfold({ side, label, onClick, children }: { side: "left" | "right"; label: string; onClick: () => void; children: ReactNode }) {
	return (
		<div className={cn("absolute top-2 z-10 md:static md:flex md:w-10 md:shrink-0 md:justify-center md:bg-slate-50 md:pt-2", side === "left" ? "left-2 md:border-r" : "right-2 md:border-l", "md:border-slate-200")}>
			<button
				type="button"
				aria-expanded={false}
				title={label}
				onClick={onClick}
				className="flex h-8 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-800 shadow-sm hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 md:w-8 md:justify-center md:px-0"
			>
				{children}
				<span className="md:sr-only">{label}</span>
			</button>
		</div>
	);
}

function ReadOnlyNote() {
	return <p className="p-3 text-sm text-slate-600">You are looking at this flow; changing flows takes a role with that permission. Select a step to see its settings.</p>;
}
