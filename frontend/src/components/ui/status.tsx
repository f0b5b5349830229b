// Small shared pieces: a status badge, loading and error states, an empty state.
import { AlertCircle, Loader2 } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

const tones: Record<string, string> = {
	Success: "bg-green-100 text-green-800",
	Failed: "bg-red-100 text-red-800",
	Cancelled: "bg-slate-200 text-slate-700",
	Queued: "bg-amber-100 text-amber-800",
	Started: "bg-blue-100 text-blue-800",
	Running: "bg-blue-100 text-blue-800",
	"Waiting Approval": "bg-amber-100 text-amber-800",
	"Awaiting Approval": "bg-amber-100 text-amber-800",
	"Needs Attention": "bg-purple-100 text-purple-800",
	Interrupted: "bg-purple-100 text-purple-800",
	Skipped: "bg-slate-200 text-slate-700",
	Active: "bg-green-100 text-green-800",
	Disabled: "bg-slate-200 text-slate-700",
	Ready: "bg-green-100 text-green-800",
	Indexed: "bg-green-100 text-green-800",
	Pending: "bg-amber-100 text-amber-800",
	Indexing: "bg-blue-100 text-blue-800",
	Rebuilding: "bg-blue-100 text-blue-800",
	Error: "bg-red-100 text-red-800",
};

const labels: Record<string, string> = { Started: "Running", Queued: "Waiting", Pending: "Waiting", Indexed: "Ready", Error: "Needs attention", "Needs Attention": "Needs your decision" };

/** A status as people read it (e.g. Started -> Running). */
export function statusLabel(status: string): string {
	return labels[status] ?? status;
}

export function StatusBadge({ status }: { status: string }) {
	return <span className={cn("inline-flex rounded-full px-2 py-0.5 text-xs font-medium", tones[status] ?? "bg-slate-100 text-slate-700")}>{statusLabel(status)}</span>;
}

export function Loading({ label = "Loading…" }: { label?: string }) {
	return (
		<div role="status" className="flex items-center gap-2 p-6 text-sm text-slate-600">
			<Loader2 className="h-4 w-4 animate-spin" aria-hidden />
			{label}
		</div>
	);
}

export function ErrorNote({ error, action }: { error: unknown; action?: ReactNode }) {
	const message = error instanceof Error ? error.message : String(error);
	return (
		<div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
			<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
			<div className="grid gap-2">
				<p>{message}</p>
				{action}
			</div>
		</div>
	);
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
	return (
		<div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
			<h2 className="text-base font-semibold text-slate-900">{title}</h2>
			<div className="mt-2 text-sm text-slate-600">{children}</div>
		</div>
	);
}

// What just went well ("Saved.", "3 rows imported."), read out by screen readers; nothing when empty.
export function Done({ text }: { text: string | null | undefined }) {
	return text ? (
		<p role="status" className="text-sm text-green-700">
			{text}
		</p>
	) : null;
}
