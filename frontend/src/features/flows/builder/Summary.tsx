// Beside the canvas when nothing is selected: how to start, and every problem in the flow, each a
// button that selects the step it is about.
import { AlertCircle } from "lucide-react";
import { memo } from "react";
import type { Problems } from "../rules";
import { kindOf } from "./catalog";
import type { Problem } from "./checks";

/** The problems found while editing, plus those the server gave for a refused save that the local
 * check did not find (the same words are the same problem). */
export function merge(found: Problem[], refused: Problems | null): Problem[] {
	if (!refused) return found;
	const seen = new Set(found.map((problem) => `${problem.nodeId ?? ""}\n${problem.message}`));
	const extra: Problem[] = [
		...Object.entries(refused.byNode).flatMap(([nodeId, messages]) => messages.map((message) => ({ nodeId, message }))),
		...refused.general.map((message) => ({ nodeId: null, message })),
	].filter((problem) => !seen.has(`${problem.nodeId ?? ""}\n${problem.message}`));
	return [...found, ...extra];
}

/** A step as the list beside the canvas names it. */
export type StepLine = { id: string; label: string; type: string | undefined };

type Props = { steps: StepLine[]; links: number; problems: Problem[]; onPick: (id: string) => void; readOnly: boolean };

/** Drawn again only when the steps' names, the connections' count or the problems change. */
export const Summary = memo(function Summary({ steps, links, problems, onPick, readOnly }: Props) {
	const label = (id: string | null) => steps.find((step) => step.id === id)?.label || id || "";
	return (
		<div className="grid gap-3">
			<h2 className="text-base font-semibold">This flow</h2>
			{steps.length ? (
				<p className="text-sm text-slate-600">
					{steps.length} step{steps.length > 1 ? "s" : ""}, {links} connection{links === 1 ? "" : "s"}. Select a step or a connection to see its settings.
				</p>
			) : readOnly ? (
				<p className="text-sm text-slate-600">This flow has no steps yet.</p>
			) : (
				<p className="text-sm text-slate-600">Start with what starts the flow: drag a trigger from the left onto the canvas, then add the steps that follow and connect them.</p>
			)}
			{steps.length ? (
				<section aria-labelledby="steps-title" className="grid gap-1">
					<h3 id="steps-title" className="text-sm font-semibold">Steps</h3>
					<ul className="grid gap-0.5" data-testid="step-list">
						{steps.map((step) => (
							<li key={step.id}>
								<button type="button" onClick={() => onPick(step.id)} className="w-full truncate rounded p-1 text-left text-sm hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
									{step.label || step.id} <span className="text-xs text-slate-500">({kindOf(step.type)?.title ?? step.type})</span>
								</button>
							</li>
						))}
					</ul>
				</section>
			) : null}
			{problems.length ? (
				<section aria-labelledby="problems-title" className="grid gap-1">
					<h3 id="problems-title" className="text-sm font-semibold text-red-800">
						{problems.length} problem{problems.length > 1 ? "s" : ""} to fix before it can run
					</h3>
					<ul className="grid gap-1" data-testid="flow-problems">
						{problems.map((problem, index) => (
							<li key={`${problem.nodeId}-${index}`}>
								{problem.nodeId && steps.some((step) => step.id === problem.nodeId) ? (
									<button type="button" onClick={() => onPick(problem.nodeId as string)} className="flex w-full items-start gap-1 rounded p-1 text-left text-sm text-red-800 hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
										<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
										<span>
											<strong className="font-medium">{label(problem.nodeId)}:</strong> {problem.message}
										</span>
									</button>
								) : (
									<p className="flex items-start gap-1 p-1 text-sm text-red-800">
										<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
										{problem.message}
									</p>
								)}
							</li>
						))}
					</ul>
				</section>
			) : steps.length ? (
				<p className="text-sm text-green-700">No problems found.</p>
			) : null}
		</div>
	);
});
