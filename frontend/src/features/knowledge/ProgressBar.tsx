import type { Progress } from "./api";
import { BUSY } from "./api";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Documents indexed of all documents, with passages stored; failed documents count as done. */
export function ProgressBar({ name, progress }: { name: string; progress: Progress }) {
	const total = progress.total_inputs;
	const done = progress.status === "Rebuilding" ? (progress.rebuilt_inputs ?? 0) : progress.indexed_inputs + progress.failed_inputs;
	const percent = total ? Math.round((100 * Math.min(done, total)) / total) : 0;
	const busy = BUSY.includes(progress.status);
	const verb = progress.status === "Rebuilding" ? "Rebuilding" : busy ? "Indexing" : "Indexed";
	const label = `${verb} ${name}: ${done} of ${plural(total, "document", "documents")}`;
	return (
		<div className="grid gap-1">
			<div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={Math.min(done, total)} className="h-2 overflow-hidden rounded-full bg-slate-200">
				<div className={busy ? "h-full bg-blue-600 transition-all" : "h-full bg-green-600"} style={{ width: `${percent}%` }} />
			</div>
			<p className="text-xs text-slate-600">
				{total ? `${progress.indexed_inputs} of ${plural(total, "document", "documents")} ready` : "No documents yet"}
				{` · ${plural(progress.chunk_count, "passage", "passages")}`}
				{progress.failed_inputs ? ` · ${progress.failed_inputs} could not be read` : ""}
				{busy ? ` · ${verb.toLowerCase()}…` : ""}
			</p>
		</div>
	);
}
