// One step on the canvas: its icon, name and kind, its ways in and out, how many problems it has
// and, on a run, what it is doing.
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { AlertCircle, Bot, Clock, FileText, Flag, GitBranch, Globe, Repeat, Shuffle, Split, UserCheck, Webhook, Wrench, type LucideIcon } from "lucide-react";
import { memo, useContext } from "react";
import { cn } from "../../../lib/cn";
import { kindOf, type Kind, type StepNode } from "./catalog";
import { LookContext } from "./look";
import { STATE_WORDS, stateOf } from "./overlay";

export const ICONS: Record<Kind["icon"], LucideIcon> = { Webhook, Clock, FileText, Bot, Wrench, Split, UserCheck, Globe, GitBranch, Shuffle, Repeat, Flag };

const STATE_STYLE = {
	queued: "ring-2 ring-slate-400 ring-offset-1",
	running: "ring-2 ring-blue-500 ring-offset-1 animate-pulse",
	succeeded: "ring-2 ring-green-600 ring-offset-1",
	failed: "ring-2 ring-red-600 ring-offset-1",
	waiting: "ring-2 ring-amber-500 ring-offset-1",
	retrying: "ring-2 ring-orange-500 ring-offset-1",
} as const;

const STATE_TEXT = { queued: "text-slate-600", running: "text-blue-700", succeeded: "text-green-700", failed: "text-red-700", waiting: "text-amber-700", retrying: "text-orange-700" } as const;

function StepCardView({ id, type, data, selected }: NodeProps<StepNode>) {
	const look = useContext(LookContext);
	const kind = kindOf(type);
	const Icon = kind ? ICONS[kind.icon] : AlertCircle;
	const problems = look.problems[id] ?? 0;
	const state = look.overlay ? stateOf(look.overlay, id) : null;
	const visits = look.overlay?.steps[id]?.visits ?? 0;
	return (
		<div
			data-testid="canvas-step"
			data-step={id}
			data-state={state ?? undefined}
			className={cn(
				"w-60 rounded-lg border bg-white px-3 py-2 text-left shadow-sm",
				selected ? "border-blue-600" : problems ? "border-red-400" : "border-slate-300",
				state ? STATE_STYLE[state] : null,
			)}
		>
			{kind?.hasInput ? <Handle type="target" position={Position.Left} className="!h-3 !w-3 !bg-slate-500" aria-label="Way in" /> : null}
			<div className="flex items-start gap-2">
				<span className="mt-0.5 rounded bg-slate-100 p-1 text-slate-700">
					<Icon className="h-4 w-4" aria-hidden />
				</span>
				<div className="min-w-0 flex-1">
					<p className="truncate text-sm font-medium text-slate-900">{data.label || id}</p>
					<p className="truncate text-xs text-slate-500">{kind?.title ?? `Unknown kind of step (${type})`}</p>
				</div>
				{problems ? (
					<span className="flex items-center gap-0.5 text-xs text-red-700" title={`${problems} problem${problems > 1 ? "s" : ""}`}>
						<AlertCircle className="h-3.5 w-3.5" aria-hidden />
						{problems}
						<span className="sr-only"> problem{problems > 1 ? "s" : ""}</span>
					</span>
				) : null}
			</div>
			{state ? (
				<p className={cn("mt-1 text-xs font-medium", STATE_TEXT[state])} data-testid="step-state">
					{STATE_WORDS[state]}
					{visits > 1 ? ` (${visits} times)` : ""}
				</p>
			) : null}
			{kind?.outcomes.length ? (
				<div className="mt-2 grid gap-1">
					{kind.outcomes.map((outcome) => (
						<div key={outcome.id} className="relative pr-3 text-right text-xs text-slate-600">
							{outcome.label}
							<Handle id={outcome.id} type="source" position={Position.Right} className="!h-3 !w-3 !bg-blue-600" aria-label={`Way out: ${outcome.label}`} />
						</div>
					))}
				</div>
			) : kind?.hasOutput ? (
				<Handle type="source" position={Position.Right} className="!h-3 !w-3 !bg-blue-600" aria-label="Way out" />
			) : null}
		</div>
	);
}

export const StepCard = memo(StepCardView);
