import { ChevronRight, History, RotateCcw, ThumbsDown, ThumbsUp, Wrench } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Textarea } from "../../components/ui/field";
import { cn } from "../../lib/cn";
import { renderMarkdown } from "../../lib/markdown";
import { chatApi } from "./api";
import { DecisionCard, useChoice } from "./DecisionCard";
import { InterruptedCard } from "./InterruptedCard";
import { Media } from "./Media";
import { mediaOf } from "./media";
import { formatCost, pretty, toolLabel, type AnswerItem, type Approval, type ToolStep } from "./state";

function ToolStepView({ step }: { step: ToolStep }) {
	const state = step.ok === null ? "running" : step.ok ? "done" : "failed";
	return (
		<details className="group min-w-0 rounded-md border border-slate-200 bg-slate-50 text-sm" data-testid="tool-step">
			<summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-1.5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
				<ChevronRight className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
				<Wrench className="h-3.5 w-3.5 shrink-0 text-slate-500" aria-hidden />
				<span className="min-w-0 font-medium [overflow-wrap:anywhere]">{step.name}</span>
				<span className={cn("ml-auto shrink-0 text-xs", state === "failed" ? "text-red-700" : "text-slate-500")}>
					{state === "running" ? "Working…" : state === "failed" ? "Failed" : step.durationMs != null ? `Done in ${Math.round(step.durationMs)} ms` : "Done"}
				</span>
			</summary>
			<div className="grid grid-cols-1 gap-2 border-t border-slate-200 px-3 py-2">
				<div>
					<p className="text-xs font-semibold text-slate-600">Input</p>
					<pre className="max-h-48 overflow-auto whitespace-pre-wrap text-xs [overflow-wrap:anywhere]">{pretty(step.arguments)}</pre>
				</div>
				{step.result !== null ? (
					<div>
						<p className="text-xs font-semibold text-slate-600">Result</p>
						<pre className="max-h-48 overflow-auto whitespace-pre-wrap text-xs [overflow-wrap:anywhere]">{pretty(step.result)}</pre>
					</div>
				) : null}
			</div>
		</details>
	);
}

/** Asks the person to allow or refuse one call the run waits on. */
export function ApprovalCard({ run, approval }: { run: string | null; approval: Approval }) {
	const [comment, setComment] = useState("");
	const { chosen, busy, error, choose } = useChoice((choice: "approve" | "reject") => chatApi.decide(run ?? "", approval.id, choice, comment.trim() || undefined));
	const decision = approval.decision ?? (chosen === "approve" ? "Approved" : chosen === "reject" ? "Rejected" : null);
	const label = toolLabel(approval.name);
	return (
		<DecisionCard label={`Approve ${label}`} testId="tool-approval" error={error}>
			<p className="font-medium">
				{decision === "Approved" ? `You allowed ${label}.` : decision === "Rejected" ? `You declined ${label}.` : `The assistant wants to run ${label}. Allow it?`}
			</p>
			<div>
				<p className="text-xs font-semibold text-slate-600">What it will use</p>
				<pre className="max-h-48 overflow-auto whitespace-pre-wrap text-xs [overflow-wrap:anywhere]">{pretty(approval.arguments)}</pre>
			</div>
			{decision ? null : (
				<>
					<Field label="Comment (optional)">{(props) => <Textarea rows={2} value={comment} onChange={(e) => setComment(e.target.value)} {...props} />}</Field>
					<div className="flex gap-2">
						<Button size="sm" disabled={busy || !run || !approval.ready} onClick={() => void choose("approve")}>
							Approve
						</Button>
						<Button size="sm" variant="outline" disabled={busy || !run || !approval.ready} onClick={() => void choose("reject")}>
							Reject
						</Button>
					</div>
				</>
			)}
		</DecisionCard>
	);
}

type Feedback = "Thumbs Up" | "Thumbs Down";

function Rating({ answer }: { answer: AnswerItem }) {
	const [feedback, setFeedback] = useState(answer.feedback);
	const [asking, setAsking] = useState<Feedback | null>(null); // the rating a comment goes with
	const [comment, setComment] = useState("");
	const [error, setError] = useState<string | null>(null);
	if (!answer.message) return null;
	const message = answer.message;
	const rate = async (value: Feedback, comments?: string) => {
		try {
			await chatApi.rate(message, value, comments);
			setFeedback(value);
			setError(null);
		} catch (e) {
			setError((e as Error).message);
		}
	};
	return (
		<div className="flex items-center gap-1">
			<Button variant="ghost" size="icon" aria-label="Good answer" aria-pressed={feedback === "Thumbs Up"} onClick={() => void rate("Thumbs Up")}>
				<ThumbsUp className={cn("h-4 w-4", feedback === "Thumbs Up" && "fill-current text-green-700")} aria-hidden />
			</Button>
			<Button variant="ghost" size="icon" aria-label="Bad answer" aria-pressed={feedback === "Thumbs Down"} onClick={() => setAsking("Thumbs Down")}>
				<ThumbsDown className={cn("h-4 w-4", feedback === "Thumbs Down" && "fill-current text-red-700")} aria-hidden />
			</Button>
			{feedback === "Thumbs Up" ? (
				<Button variant="ghost" size="sm" onClick={() => setAsking("Thumbs Up")}>
					Add a comment
				</Button>
			) : null}
			{error ? <span className="text-xs text-red-700">{error}</span> : null}
			<Dialog
				open={asking !== null}
				onOpenChange={(open) => {
					if (!open) setAsking(null);
				}}
				title={asking === "Thumbs Up" ? "What was good?" : "What was wrong?"}
				description="Your comment helps whoever looks after this agent. It is optional."
			>
				<form
					className="grid gap-3"
					onSubmit={(event) => {
						event.preventDefault();
						if (asking) void rate(asking, comment.trim());
						setAsking(null);
					}}
				>
					<Field label="Comment">{(props) => <Textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} {...props} />}</Field>
					<div className="flex justify-end">
						<Button type="submit">Send rating</Button>
					</div>
				</form>
			</Dialog>
		</div>
	);
}

/** `linkRun`: the answer links to its run's page (in the web app's chat, for people who may see runs). */
type AnswerProps = { answer: AnswerItem; onRetry?: (() => void) | undefined; linkRun?: boolean };

export function Answer({ answer, onRetry, linkRun }: AnswerProps) {
	return (
		<article className="grid max-w-full grid-cols-1 gap-2" aria-label="Agent answer" data-testid="answer" data-status={answer.status}>
			{answer.tools.length ? <div className="grid grid-cols-1 gap-1">{answer.tools.map((step) => <ToolStepView key={step.id} step={step} />)}</div> : null}
			<Media files={answer.tools.flatMap((step) => mediaOf(step.result, step.arguments))} />
			{answer.approvals.map((approval) => (
				<ApprovalCard key={approval.id} run={answer.run} approval={approval} />
			))}
			{answer.attention ? <InterruptedCard key={answer.attention.id} run={answer.run} attention={answer.attention} /> : null}
			{answer.resumed ? (
				<p className="flex items-center gap-1.5 text-xs text-slate-500" data-testid="resumed">
					<History className="h-3.5 w-3.5" aria-hidden />
					Resumed after an interruption
				</p>
			) : null}
			{answer.text ? (
				<div className="prose-chat min-w-0 rounded-lg bg-white px-4 py-2 text-sm shadow-sm ring-1 ring-slate-200 [overflow-wrap:anywhere]" dangerouslySetInnerHTML={{ __html: renderMarkdown(answer.text) }} />
			) : answer.status === "running" ? (
				<p className="text-sm text-slate-500">
					{answer.attention || answer.approvals.some((a) => !a.decision) ? "Waiting for your answer…" : answer.waiting ? "Waiting for its turn…" : "Thinking…"}
				</p>
			) : null}
			{answer.error ? (
				<p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
					{answer.error}
				</p>
			) : null}
			{answer.status === "cancelled" ? <p className="text-xs text-slate-500">Stopped.</p> : null}
			<div className="flex flex-wrap items-center gap-2">
				{answer.usage ? (
					<span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600" data-testid="usage">
						{answer.usage.total_tokens.toLocaleString()} tokens · {formatCost(answer.usage.cost)}
						{answer.usage.seconds != null ? ` · ${answer.usage.seconds.toFixed(1)} s` : ""}
					</span>
				) : null}
				<Rating answer={answer} />
				{linkRun && answer.run && answer.status !== "running" ? (
					<Link to={`/runs/${encodeURIComponent(answer.run)}`} className="rounded text-xs text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
						See how this answer was made
					</Link>
				) : null}
				{onRetry ? (
					<Button variant="outline" size="sm" onClick={onRetry}>
						<RotateCcw className="h-3.5 w-3.5" aria-hidden />
						Try again
					</Button>
				) : null}
			</div>
		</article>
	);
}
