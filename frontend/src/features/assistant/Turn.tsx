// A turn as the person sees it: the progress steps as they happen, then what is left to fix, the
// failure in the provider's words, and the turn's tokens, cost and time under the answer.
import { AlertCircle, Check, Loader2 } from "lucide-react";
import type { Answer, Step } from "./api";
import { failureWords, stepWords, usageWords } from "./words";

export function Progress({ steps, busy }: { steps: Step[]; busy: boolean }) {
	if (!steps.length && !busy) return null;
	return (
		<ol aria-label="What the assistant is doing" className="grid gap-1 text-sm text-slate-700">
			{steps.map((step, index) => (
				<li key={index} className="flex items-center gap-2">
					{busy && index === steps.length - 1 ? <Loader2 className="h-4 w-4 animate-spin text-blue-600" aria-hidden /> : <Check className="h-4 w-4 text-green-700" aria-hidden />}
					{stepWords(step)}
				</li>
			))}
			{busy && !steps.length ? (
				<li className="flex items-center gap-2">
					<Loader2 className="h-4 w-4 animate-spin text-blue-600" aria-hidden />
					Starting
				</li>
			) : null}
		</ol>
	);
}

export function Outcome({ answer }: { answer: Answer<unknown> }) {
	return (
		<div className="grid gap-2 text-sm">
			{answer.status === "failed" ? (
				<p role="alert" className="flex items-start gap-2 text-red-700">
					<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
					{failureWords(answer)}
				</p>
			) : null}
			{answer.status === "problems" && answer.result === null ? (
				<p className="text-amber-800">The assistant did not give a usable answer in {answer.attempts} tries. Try asking in other words.</p>
			) : null}
			{answer.status === "problems" && answer.result !== null ? (
				<div>
					<p className="font-medium text-amber-800">After {answer.attempts} tries this still has problems to fix by hand:</p>
					<ul className="list-disc pl-5 text-slate-800">
						{answer.problems.map((problem) => (
							<li key={problem}>{problem}</li>
						))}
					</ul>
				</div>
			) : null}
			<NotPossible proposal={answer.proposal} />
			<p className="text-xs text-slate-600" data-testid="assistant-usage">
				{usageWords(answer)}
			</p>
		</div>
	);
}

function NotPossible({ proposal }: { proposal: Record<string, unknown> | null }) {
	const items = Array.isArray(proposal?.not_possible) ? proposal.not_possible.filter((item): item is string => typeof item === "string") : [];
	if (!items.length) return null;
	return (
		<div>
			<p className="font-medium text-slate-800">Not possible here:</p>
			<ul className="list-disc pl-5 text-slate-800">
				{items.map((item) => (
					<li key={item}>{item}</li>
				))}
			</ul>
		</div>
	);
}
