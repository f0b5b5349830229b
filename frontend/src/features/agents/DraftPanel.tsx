// "Draft with the assistant": a description in, and a change to the form out (instructions, one of
// the site's models, tools chosen from the site's tools), shown beside what the form holds now, to
// accept into the form (then saved as usual) or discard.
import { Sparkles } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { useAssistantStatus } from "../assistant/api";
import { SetUp } from "../assistant/SetUp";
import { Outcome, Progress } from "../assistant/Turn";
import { useTurn } from "../assistant/useTurn";

export type Drafted = { agent_name?: string; description?: string; instructions: string; model: string; tools: string[] };
type Now = { instructions: string; model: string; tools: string[] };

export function DraftPanel({ agent, now, onAccept }: { agent: string | null; now: Now; onAccept: (drafted: Drafted) => void }) {
	const [open, setOpen] = useState(false);
	const [description, setDescription] = useState("");
	const status = useAssistantStatus();
	const turn = useTurn<Drafted>("draft_agent");
	const drafted = turn.answer?.result ?? null;
	if (!open) {
		return (
			<div>
				<Button variant="outline" size="sm" onClick={() => setOpen(true)}>
					<Sparkles className="mr-1 h-4 w-4 text-blue-600" aria-hidden />
					Draft with the assistant
				</Button>
			</div>
		);
	}
	const added = drafted ? drafted.tools.filter((tool) => !now.tools.includes(tool)) : [];
	const dropped = drafted ? now.tools.filter((tool) => !drafted.tools.includes(tool)) : [];
	return (
		<section aria-label="Draft with the assistant" className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3">
			<h2 className="text-sm font-semibold text-slate-900">Draft with the assistant</h2>
			{status.data && !status.data.ready ? <SetUp status={status.data} /> : null}
			{status.data?.ready ? (
				<>
					<Field label="What should this agent do?">
						{(props) => <Textarea rows={3} value={description} onChange={(event) => setDescription(event.target.value)} {...props} />}
					</Field>
					<div className="flex gap-2">
						<Button size="sm" disabled={turn.busy || !description.trim()} onClick={() => void turn.run({ description, ...(agent ? { agent } : {}) })}>
							{turn.busy ? "Working…" : "Draft"}
						</Button>
						<Button size="sm" variant="ghost" onClick={() => setOpen(false)}>Close</Button>
					</div>
				</>
			) : null}
			<Progress steps={turn.steps} busy={turn.busy} />
			{turn.error ? <ErrorNote error={turn.error} /> : null}
			{drafted ? (
				<div className="grid gap-2 rounded-md border border-blue-200 bg-blue-50 p-2 text-sm" data-testid="agent-draft">
					<p className="font-medium">The change to the form:</p>
					<p>Model: {now.model && now.model !== drafted.model ? <><s>{now.model}</s> → </> : null}{drafted.model}</p>
					<p>Tools: {added.length ? `adds ${added.join(", ")}` : "adds none"}{dropped.length ? `; removes ${dropped.join(", ")}` : ""}</p>
					<p>Instructions:</p>
					<pre className="max-h-48 overflow-y-auto whitespace-pre-wrap rounded bg-white p-2 text-xs">{drafted.instructions}</pre>
					<div className="flex gap-2">
						<Button size="sm" onClick={() => { onAccept(drafted); turn.clear(); }}>Accept</Button>
						<Button size="sm" variant="outline" onClick={turn.clear}>Discard</Button>
					</div>
				</div>
			) : null}
			{turn.answer ? <Outcome answer={turn.answer} /> : null}
		</section>
	);
}
