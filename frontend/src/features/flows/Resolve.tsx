import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { ApiError } from "../../lib/api";
import { resolveRun, type Resolution } from "./api";

const DONE: Record<Resolution, string> = {
	retry: "The step is being tried again.",
	skip: "The step was skipped: the run goes on.",
	end: "You ended the run.",
};
const TAKEN = "Someone else decided what happens to this run before you did, so nothing was changed. This page now shows where the run stands.";

/** Whether an error says the run no longer waited for this decision (someone decided first). */
const decidedElsewhere = (error: unknown) => error instanceof ApiError && error.status === 409;

type ResolveProps = { flowRun: string; step: string; onDone: (note: string) => void };

/** The choice for a run Huf was interrupted in: try its step again, skip it (with the value it
 * should give), or end the run after a confirmation. `onDone` gets what happened, to show once this
 * panel is gone (the run is read again, and no longer needs attention). */
export function Resolve({ flowRun, step, onDone }: ResolveProps) {
	const queryClient = useQueryClient();
	const id = useId();
	const [open, setOpen] = useState<"skip" | "end" | null>(null);
	const [value, setValue] = useState("");
	const send = useMutation({
		mutationFn: (action: Resolution) => resolveRun(flowRun, action, value.trim()),
		onSuccess: (_, action) => onDone(DONE[action]),
		onError: (error) => {
			if (decidedElsewhere(error)) onDone(TAKEN);
		},
		onSettled: async () => {
			await queryClient.invalidateQueries({ queryKey: ["flow-run", flowRun] });
			await queryClient.invalidateQueries({ queryKey: ["flow-runs"] });
		},
	});
	const busy = send.isPending;
	return (
		<div className="grid gap-3">
			<ul className="grid gap-2" aria-label="What happens next">
				<li className="grid items-center gap-1 sm:grid-cols-[12rem_1fr] sm:gap-3">
					<Button disabled={busy} aria-describedby={`${id}-retry`} onClick={() => send.mutate("retry")}>Try the step again</Button>
					<p id={`${id}-retry`} className="text-xs text-slate-600">Runs the step once more. If it already did its work before the interruption, it does it a second time.</p>
				</li>
				<li className="grid items-center gap-1 sm:grid-cols-[12rem_1fr] sm:gap-3">
					<Button variant="outline" disabled={busy} aria-describedby={`${id}-skip`} aria-expanded={open === "skip"} onClick={() => setOpen(open === "skip" ? null : "skip")}>Skip it</Button>
					<p id={`${id}-skip`} className="text-xs text-slate-600">The run goes on as if the step had finished. Choose this when you know it did its work.</p>
				</li>
				<li className="grid items-center gap-1 sm:grid-cols-[12rem_1fr] sm:gap-3">
					<Button variant="outline" disabled={busy} aria-describedby={`${id}-end`} aria-expanded={open === "end"} onClick={() => setOpen(open === "end" ? null : "end")}>End the run</Button>
					<p id={`${id}-end`} className="text-xs text-slate-600">Stops the run here. The steps after this one do not run.</p>
				</li>
			</ul>
			{open === "skip" ? (
				<div className="grid gap-2 rounded-md border border-slate-200 bg-white p-3">
					<label htmlFor={`${id}-value`} className="text-sm font-medium text-slate-800">What the step should give the next steps (optional)</label>
					<Textarea id={`${id}-value`} rows={3} autoFocus aria-describedby={`${id}-value-hint`} placeholder='e.g. {"id": 42}' value={value} onChange={(e) => setValue(e.target.value)} />
					<p id={`${id}-value-hint`} className="text-xs text-slate-500">Leave it empty when no later step uses what this step gives. Written like {'{"id": 42}'}, it goes as structured data; anything else goes as text.</p>
					<div className="flex flex-wrap gap-2">
						<Button disabled={busy} onClick={() => send.mutate("skip")}>{busy ? "Skipping…" : "Skip the step"}</Button>
						<Button variant="outline" disabled={busy} onClick={() => setOpen(null)}>Back</Button>
					</div>
				</div>
			) : null}
			{open === "end" ? (
				<div role="alertdialog" aria-labelledby={`${id}-question`} className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
					<p id={`${id}-question`} className="flex-1">End this run? The steps after "{step}" will not run, and this run cannot go on later (you can start the flow again).</p>
					<Button size="sm" variant="danger" disabled={busy} onClick={() => send.mutate("end")}>{busy ? "Ending…" : "Yes, end the run"}</Button>
					<Button size="sm" variant="outline" autoFocus onClick={() => setOpen(null)}>Keep it waiting</Button>
				</div>
			) : null}
			{send.isError && !decidedElsewhere(send.error) ? <ErrorNote error={send.error} /> : null}
		</div>
	);
}
