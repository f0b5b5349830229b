// One step on the canvas: its icon, name and kind, its ways in and out, how many problems it has
// and, on a run, what it is doing. Drawn to the pixel sizes of sizes.ts.
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { AlertCircle, Bot, Clock, FileText, Flag, GitBranch, Globe, Plus, Repeat, Shuffle, Split, UserCheck, Webhook, Wrench, type LucideIcon } from "lucide-react";
import { memo, useContext } from "react";
import { cn } from "../../../lib/cn";
import { kindOf, type Kind, type StepNode } from "./catalog";
import { AddAfterContext, LookContext } from "./look";
import { outcomeCentre, STEP_WIDTH, stepBox } from "./sizes";
import { STATE_WORDS, stateOf } from "./overlay";
import { StepPeek } from "./StepPeek";

export const ICONS: Record<Kind["icon"], LucideIcon> = { Webhook, Clock, FileText, Bot, Wrench, Split, UserCheck, Globe, GitBranch, Shuffle, Repeat, Flag };

const STATE_STYLE = {
	queued: "ring-2 ring-slate-400 ring-offset-1",
	running: "ring-2 ring-blue-500 ring-offset-1 animate-pulse",
	succeeded: "ring-2 ring-green-600 ring-offset-1",
	failed: "ring-2 ring-red-600 ring-offset-1",
	waiting: "ring-2 ring-amber-500 ring-offset-1",
	retrying: "ring-2 ring-orange-500 ring-offset-1",
	attention: "ring-2 ring-purple-600 ring-offset-1",
	skipped: "ring-2 ring-slate-500 ring-offset-1",
	cancelled: "ring-2 ring-slate-700 ring-offset-1",
} as const;

const MARK_STYLE = {
	new: "ring-2 ring-green-600 ring-offset-1",
	changed: "ring-2 ring-amber-500 ring-offset-1",
	removed: "opacity-60 ring-2 ring-red-600 ring-offset-1",
} as const;

const MARK_WORDS = { new: "New", changed: "Changed", removed: "Removed" } as const;

const MARK_TEXT = { new: "bg-green-100 text-green-800", changed: "bg-amber-100 text-amber-900", removed: "bg-red-100 text-red-800" } as const;

const STATE_TEXT = {
	queued: "text-slate-600",
	running: "text-blue-700",
	succeeded: "text-green-700",
	failed: "text-red-700",
	waiting: "text-amber-700",
	retrying: "text-orange-700",
	attention: "text-purple-700",
	skipped: "text-slate-600",
	cancelled: "text-slate-700",
} as const;

function StepCardView({ id, type, data, selected }: NodeProps<StepNode>) {
	const look = useContext(LookContext);
	const addAfter = useContext(AddAfterContext);
	const kind = kindOf(type);
	const Icon = kind ? ICONS[kind.icon] : AlertCircle;
	const problems = look.problems[id] ?? 0;
	const onRun = look.overlay !== null;
	const state = look.overlay ? stateOf(look.overlay, id) : null;
	const visits = look.overlay?.steps[id]?.visits ?? 0;
	const mark = look.marks?.[id];
	// Sizes in pixels, not in the page's text size: they must match sizes.ts exactly.
	const box = stepBox(type, onRun);
	const name = data.label || kind?.title || "Unnamed step";
	return (
		<div
			data-testid="canvas-step"
			data-step={id}
			data-state={state ?? undefined}
			data-mark={mark}
			style={{ width: box.width, height: box.height }}
			className={cn(
				"rounded-lg border bg-white px-[12px] py-[8px] text-left shadow-sm",
				selected ? "border-blue-600" : problems ? "border-red-400" : "border-slate-300",
				state ? STATE_STYLE[state] : null,
				mark ? MARK_STYLE[mark] : null,
			)}
		>
			{kind?.hasInput ? <Handle type="target" position={Position.Left} style={{ top: box.height / 2 }} className="!h-[12px] !w-[12px] !bg-slate-500" /> : null}
			<div className="flex h-[36px] items-start gap-[8px]">
				<span className="mt-[2px] rounded bg-slate-100 p-[4px] text-slate-700">
					<Icon className="h-[16px] w-[16px]" aria-hidden />
				</span>
				<div className="min-w-0 flex-1">
					<p className="truncate text-[14px] leading-[20px] font-medium text-slate-900">{name}</p>
					<p className="truncate text-[12px] leading-[16px] text-slate-600">{kind?.title ?? `Unknown kind of step (${type})`}</p>
				</div>
				{mark ? <span className={cn("rounded px-[4px] text-[12px] leading-[16px] font-medium", MARK_TEXT[mark])}>{MARK_WORDS[mark]}</span> : null}
				{problems ? (
					<span className="flex items-center gap-[2px] text-[12px] leading-[16px] text-red-700" title={`${problems} problem${problems > 1 ? "s" : ""}`}>
						<AlertCircle className="h-[14px] w-[14px]" aria-hidden />
						{problems}
						<span className="sr-only"> problem{problems > 1 ? "s" : ""}</span>
					</span>
				) : null}
			</div>
			{onRun ? (
				<p className={cn("mt-[4px] truncate text-[12px] leading-[16px] font-medium", state ? STATE_TEXT[state] : "text-slate-600")} data-testid="step-state">
					{state ? STATE_WORDS[state] : "Not reached"}
					{visits > 1 ? ` (${visits} times)` : ""}
				</p>
			) : null}
			{kind?.outcomes.length ? (
				<div className="mt-[8px] grid gap-[4px]">
					{kind.outcomes.map((outcome, index) => (
						<div key={outcome.id} className="h-[16px] pr-[8px] text-right text-[12px] leading-[16px] text-slate-600">
							{outcome.label}
							<Handle id={outcome.id} type="source" position={Position.Right} style={{ top: outcomeCentre(index, onRun) }} className="!h-[12px] !w-[12px] !bg-blue-600" />
							{addAfter ? <AddButton top={outcomeCentre(index, onRun)} label={`Add a step after ${name}, ${outcome.label}`} onClick={() => addAfter({ source: id, sourceHandle: outcome.id })} /> : null}
						</div>
					))}
				</div>
			) : kind?.hasOutput ? (
				<>
					<Handle type="source" position={Position.Right} style={{ top: box.height / 2 }} className="!h-[12px] !w-[12px] !bg-blue-600" />
					{addAfter ? <AddButton top={box.height / 2} label={`Add a step after ${name}`} onClick={() => addAfter({ source: id, sourceHandle: null })} /> : null}
				</>
			) : null}
			{onRun ? <StepPeek id={id} /> : null}
		</div>
	);
}

/** A way out's "+": opens the step picker to add a step after it, connected. Its keys stay its own
 * (Enter would otherwise also select the step). */
function AddButton({ top, label, onClick }: { top: number; label: string; onClick: () => void }) {
	return (
		<button
			type="button"
			aria-label={label}
			title={label}
			data-testid="add-after"
			onClick={(event) => {
				event.stopPropagation();
				onClick();
			}}
			onKeyDown={(event) => event.stopPropagation()}
			style={{ top: top - 10, left: STEP_WIDTH + 10 }}
			className="nodrag nopan absolute flex h-[20px] w-[20px] items-center justify-center rounded-full border border-blue-600 bg-white text-blue-700 shadow-sm hover:bg-blue-600 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
		>
			<Plus className="h-[14px] w-[14px]" aria-hidden />
		</button>
	);
}

export const StepCard = memo(StepCardView);
