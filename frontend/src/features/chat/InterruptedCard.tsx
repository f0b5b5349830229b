import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field, Textarea } from "../../components/ui/field";
import { chatApi } from "./api";
import { DecisionCard, useChoice } from "./DecisionCard";
import { pretty, toolLabel, type Attention } from "./state";

type Action = "retry" | "skip" | "end";

const CHOSEN: Record<Action, (label: string) => string> = {
	retry: (label) => `You asked it to do “${label}” again.`,
	skip: (label) => `You skipped “${label}”. The assistant goes on without it.`,
	end: () => "You ended this answer.",
};

/** A step the assistant was doing when it was cut off (its worker stopped), which may or may not
 * have happened: the person chooses to do it again, to go on without it, or to end the answer. */
export function InterruptedCard({ run, attention }: { run: string | null; attention: Attention }) {
	const [value, setValue] = useState("");
	const { chosen, busy, error, choose } = useChoice((action: Action) =>
		chatApi.resolve(run ?? "", attention.id, action, action === "skip" ? value.trim() || undefined : undefined),
	);
	const label = toolLabel(attention.name);
	return (
		<DecisionCard label={`Interrupted: ${label}`} testId="interrupted-call" error={error}>
			<p className="font-medium">{chosen ? CHOSEN[chosen](label) : `The assistant was interrupted while it was doing “${label}”. It may or may not have been done.`}</p>
			<details>
				<summary className="cursor-pointer text-xs font-semibold text-slate-600">What it was using</summary>
				<pre className="max-h-48 overflow-auto whitespace-pre-wrap text-xs [overflow-wrap:anywhere]">{pretty(attention.arguments)}</pre>
			</details>
			{chosen ? null : (
				<>
					<p className="text-xs text-slate-700">Do it again (it may then happen twice), go on without it, or end this answer here.</p>
					<Field label="What came of it (optional, used if you skip)" hint="For example: “It was sent.” The assistant reads this instead.">
						{(props) => <Textarea rows={2} value={value} onChange={(e) => setValue(e.target.value)} {...props} />}
					</Field>
					<div className="flex flex-wrap gap-2">
						<Button size="sm" disabled={busy || !run} onClick={() => void choose("retry")}>
							Retry
						</Button>
						<Button size="sm" variant="outline" disabled={busy || !run} onClick={() => void choose("skip")}>
							Skip
						</Button>
						<Button size="sm" variant="outline" disabled={busy || !run} onClick={() => void choose("end")}>
							End
						</Button>
					</div>
				</>
			)}
		</DecisionCard>
	);
}
