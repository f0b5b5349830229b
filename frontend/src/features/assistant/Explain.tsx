// "Explain" on a failed run: the assistant reads the run's steps, inputs, outputs and errors (what
// the person may see) and says what went wrong and what to change, naming the step to fix.
import { Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button";
import { ErrorNote } from "../../components/ui/status";
import { useAssistantStatus } from "./api";
import { SetUp } from "./SetUp";
import { Outcome, Progress } from "./Turn";
import { useTurn } from "./useTurn";

export type Explained = { what_went_wrong: string; what_to_change?: string; step?: string | null; step_label?: string | null };

type Props = {
	method: "explain_flow_run" | "explain_run";
	args: Record<string, unknown>;
	/** Where the step the explanation names (by its id) can be changed, beside its name. */
	fixAt?: (step: string) => ReactNode;
};

export function Explain({ method, args, fixAt }: Props) {
	const status = useAssistantStatus();
	const turn = useTurn<Explained>(method);
	const found = turn.answer?.result;
	return (
		<section aria-label="Explanation" className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3">
			<div className="flex items-center justify-between gap-2">
				<h2 className="text-sm font-semibold text-slate-900">Why did this fail?</h2>
				{status.data?.ready ? (
					<Button variant="outline" size="sm" disabled={turn.busy} onClick={() => void turn.run(args)}>
						<Sparkles className="mr-1 h-4 w-4" aria-hidden />
						{turn.answer ? "Explain again" : "Explain"}
					</Button>
				) : null}
			</div>
			{status.data && !status.data.ready ? <SetUp status={status.data} /> : null}
			<Progress steps={turn.steps} busy={turn.busy} />
			{turn.error ? <ErrorNote error={turn.error} /> : null}
			{found ? (
				<div className="grid gap-1 text-sm text-slate-800" data-testid="explanation">
					<p>{found.what_went_wrong}</p>
					{found.what_to_change ? <p><span className="font-medium">What to change: </span>{found.what_to_change}</p> : null}
					{found.step_label ? (
						<p>
							<span className="font-medium">Step to fix: </span>
							{found.step_label}
							{fixAt && found.step ? <> · {fixAt(found.step)}</> : null}
						</p>
					) : null}
				</div>
			) : null}
			{turn.answer ? <Outcome answer={turn.answer} /> : null}
		</section>
	);
}
