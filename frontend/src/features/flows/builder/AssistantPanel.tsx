// "Ask the assistant": the person says what the flow should do; the assistant reads the site,
// drafts, checks and fixes (each step shown as it happens) and its proposal is drawn on the canvas
// as a change set, to accept as one undoable change or discard. A follow-up changes the canvas as it
// is then (with the proposal still shown, that proposal). Each answer ends with its tokens, cost and time.
import { Sparkles, X } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Field, Textarea } from "../../../components/ui/field";
import { ErrorNote, Loading } from "../../../components/ui/status";
import { useAssistantStatus } from "../../assistant/api";
import { SetUp } from "../../assistant/SetUp";
import { Outcome, Progress } from "../../assistant/Turn";
import { usageWords } from "../../assistant/words";
import { useTurn } from "../../assistant/useTurn";
import type { Definition } from "../rules";

export const MAX_REQUEST = 4000;

type Props = {
	flowId: string;
	/** The canvas the request changes. */
	canvas: () => Definition;
	/** Draws a proposal on the canvas; answers what it changes, in words. */
	onProposal: (definition: Definition) => string;
	/** What the proposal on the canvas changes, while one is shown. */
	pending: string | null;
	onAccept: () => void;
	onDiscard: () => void;
	onClose: () => void;
};

type Said = { request: string; summary: string; usage: string };

export function AssistantPanel({ flowId, canvas, onProposal, pending, onAccept, onDiscard, onClose }: Props) {
	const status = useAssistantStatus();
	const turn = useTurn<Definition>("propose_flow");
	const [request, setRequest] = useState("");
	const [said, setSaid] = useState<Said[]>([]);
	const tooLong = request.length > MAX_REQUEST;
	const send = async () => {
		const asked = request.trim();
		const answer = await turn.run({ flow: flowId, request: asked, canvas: JSON.stringify(canvas()) });
		if (!answer) return;
		const summary = typeof answer.proposal?.summary === "string" ? answer.proposal.summary : "";
		const changes = answer.result ? onProposal(answer.result) : "";
		setSaid((before) => [...before, { request: asked, summary: [summary, changes && `On the canvas: ${changes}.`].filter(Boolean).join(" "), usage: usageWords(answer) }]);
		setRequest("");
	};
	return (
		<section aria-label="Ask the assistant" className="absolute left-2 top-2 z-20 grid max-h-[calc(100%-1rem)] w-96 max-w-[calc(100%-1rem)] content-start gap-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 shadow-lg">
			<header className="flex items-center justify-between">
				<h2 className="flex items-center gap-1 text-sm font-semibold text-slate-900">
					<Sparkles className="h-4 w-4 text-blue-600" aria-hidden />
					Ask the assistant
				</h2>
				<button type="button" onClick={onClose} aria-label="Close the assistant" className="rounded p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
					<X className="h-4 w-4" aria-hidden />
				</button>
			</header>
			{status.isPending ? <Loading /> : null}
			{status.error ? <ErrorNote error={status.error} /> : null}
			{status.data && !status.data.ready ? <SetUp status={status.data} /> : null}
			{said.length ? (
				<ol aria-label="Earlier answers" className="grid gap-2 text-sm">
					{said.map((item, index) => (
						<li key={index} className="grid gap-1 border-b border-slate-100 pb-2">
							<p className="font-medium text-slate-900">{item.request}</p>
							{item.summary ? <p className="text-slate-800">{item.summary}</p> : null}
							<p className="text-xs text-slate-600">{item.usage}</p>
						</li>
					))}
				</ol>
			) : null}
			<Progress steps={turn.steps} busy={turn.busy} />
			{turn.error ? <ErrorNote error={turn.error} /> : null}
			{turn.answer && turn.answer.status !== "ok" ? <Outcome answer={turn.answer} /> : null}
			{pending ? (
				<div className="grid gap-2 rounded-md border border-blue-200 bg-blue-50 p-2 text-sm" data-testid="assistant-proposal">
					<p>Shown on the canvas: {pending}. Accept it to keep it (you can undo), or discard it.</p>
					<div className="flex gap-2">
						<Button size="sm" onClick={onAccept}>Accept</Button>
						<Button size="sm" variant="outline" onClick={onDiscard}>Discard</Button>
					</div>
				</div>
			) : null}
			{status.data?.ready ? (
				<form
					className="grid gap-2"
					onSubmit={(event) => {
						event.preventDefault();
						void send();
					}}
				>
					<Field label={said.length ? "What else should change?" : "What should this flow do?"} error={tooLong ? `Keep it under ${MAX_REQUEST.toLocaleString("en")} characters (now ${request.length.toLocaleString("en")}).` : undefined}>
						{(props) => (
							<Textarea
								rows={4}
								value={request}
								placeholder="When a lead comes in from the website, have the Qualifier agent score it; above 70 ask a sales manager, then make a to-do for the owner."
								onChange={(event) => setRequest(event.target.value)}
								{...props}
							/>
						)}
					</Field>
					<div>
						<Button type="submit" disabled={turn.busy || !request.trim() || tooLong}>
							{turn.busy ? "Working…" : "Ask"}
						</Button>
					</div>
				</form>
			) : null}
		</section>
	);
}
