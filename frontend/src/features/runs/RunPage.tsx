import { useQuery } from "@tanstack/react-query";
import { Bot, Wrench } from "lucide-react";
import { Link, useParams } from "react-router";
import { Stat } from "../../components/ui/section";
import { ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { Explain } from "../assistant/Explain";
import { call } from "../../lib/api";
import { renderMarkdown } from "../../lib/markdown";
import { InterruptedCard } from "../chat/InterruptedCard";
import { Media } from "../chat/Media";
import { mediaOf } from "../chat/media";
import { attentionFrom, formatCost, type StoredApproval } from "../chat/state";
import { ACTIVE, formatDuration, useRunUpdates } from "./api";
import { type Plan, PlanSection } from "./PlanSection";

type Step =
	| { kind: "model"; at: string; content: string; requested_tools: boolean; duration_ms: number }
	| { kind: "tool"; at: string; tool: string; status: string; call_id?: string | null; duration_ms: number | null; arguments: string | null; result: string | null; error: string | null };
type Run = Record<string, string | number | null> & { status: string; agent: string };
type Detail = {
	run: Run;
	timeline: Step[];
	children: { name: string; agent: string; channel: string; status: string; total_tokens: number; total_cost: number }[];
	needs_attention: StoredApproval[];
	plan: Plan | null;
};

const ERROR_CAUSES: Record<string, string> = {
	auth: "The provider refused the API key.",
	rate_limit: "The provider's rate limit was reached.",
	context_too_long: "The conversation was longer than the model accepts.",
	model_not_found: "The provider doesn't know this model.",
	network: "The provider could not be reached.",
	blocked: "The provider's address is not one Huf may reach, so nothing was sent there.",
	bad_request: "The provider rejected the request.",
	server: "The provider had an error on its side.",
	empty_response: "The model sent back an empty answer.",
	timeout: "The model took longer than the time limit for one call.",
	response_too_long: "The answer grew longer than the limit for one reply.",
};

function pretty(text: string | null): string {
	if (!text) return "";
	try {
		return JSON.stringify(typeof text === "string" ? JSON.parse(text) : text, null, 2);
	} catch {
		return String(text);
	}
}

/** The timeline item of a tool call, which Explain links to. */
const callAnchor = (callId: string) => `call-${callId.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function TimelineStep({ step, index }: { step: Step; index: number }) {
	const Icon = step.kind === "model" ? Bot : Wrench;
	const title = step.kind === "model" ? (step.requested_tools ? "Model chose tools" : "Model answered") : `Tool: ${step.tool}`;
	return (
		<li
			id={step.kind === "tool" && step.call_id ? callAnchor(step.call_id) : undefined}
			tabIndex={-1}
			className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 bg-white p-3 target:ring-2 target:ring-blue-500"
			data-testid="timeline-step"
		>
			<div className="flex flex-wrap items-center gap-2 text-sm">
				<span className="text-xs text-slate-500">{index + 1}</span>
				<Icon className="h-4 w-4 text-slate-500" aria-hidden />
				<span className="font-medium">{title}</span>
				{step.kind === "tool" ? <StatusBadge status={step.status} /> : null}
				<span className="ml-auto text-xs tabular-nums text-slate-500">{step.duration_ms == null ? "—" : formatDuration(step.duration_ms / 1000)}</span>
			</div>
			{step.kind === "model" && step.content ? <p className="line-clamp-3 text-sm text-slate-700">{step.content}</p> : null}
			{step.kind === "tool" ? <Media files={mediaOf(step.result, step.arguments ?? "")} /> : null}
			{step.kind === "tool" ? (
				<details className="text-sm">
					<summary className="cursor-pointer text-slate-600">Input and result</summary>
					<pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{pretty(step.arguments)}</pre>
					<pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{step.error ?? pretty(step.result)}</pre>
				</details>
			) : null}
		</li>
	);
}

export default function RunPage() {
	const { name = "" } = useParams();
	useRunUpdates();
	const detail = useQuery({
		queryKey: ["run", name],
		queryFn: () => call<Detail>("huf.ai.agent.run_detail.get_run_detail", { run: name }),
		refetchInterval: (query) => (query.state.data && ACTIVE.includes(query.state.data.run.status) ? 2000 : false),
	});
	if (detail.isPending) return <Loading />;
	if (detail.isError) return <div className="p-6"><ErrorNote error={detail.error} /></div>;
	const { run, timeline, children } = detail.data;
	const n = (key: string) => Number(run[key] ?? 0);
	const attention = run.status === "Needs Attention" ? attentionFrom(detail.data.needs_attention) : null;
	return (
		<div className="mx-auto grid max-w-4xl grid-cols-1 gap-4 p-4 [overflow-wrap:anywhere] md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<Link to="/runs" className="text-sm text-blue-700 hover:underline">All runs</Link>
				<h1 className="w-full text-xl font-semibold">
					{run.agent} <span className="text-sm font-normal text-slate-500">for {run.user}</span>
				</h1>
				<StatusBadge status={run.status} />
				<span className="text-sm text-slate-600">{run.model_used ?? run.model}</span>
				{run.flow_run ? (
					<p className="w-full text-sm text-slate-600" data-testid="run-flow">
						A step of a run of the flow{" "}
						<Link className="text-blue-700 hover:underline" to={`/flows/runs/${encodeURIComponent(String(run.flow_run))}`}>
							{run.flow_name ?? run.flow_id}
						</Link>
					</p>
				) : null}
			</header>
			<dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6" aria-label="Usage">
				<Stat numeric label="Input tokens" value={n("input_tokens").toLocaleString()} />
				<Stat numeric label="Output tokens" value={n("output_tokens").toLocaleString()} />
				<Stat numeric label="Cached tokens" value={n("cached_tokens").toLocaleString()} />
				<Stat numeric label="Total tokens" value={<span data-testid="run-total-tokens">{n("total_tokens").toLocaleString()}</span>} />
				<Stat numeric label="Cost" value={formatCost(n("total_cost"))} />
				<Stat numeric label="Time" value={formatDuration(run.duration_seconds == null ? null : n("duration_seconds"))} />
			</dl>
			{attention ? <InterruptedCard key={attention.id} run={String(run.name)} attention={attention} /> : null}
			{n("resumed_count") ? (
				<p className="text-sm text-slate-600" data-testid="run-resumed">
					It went on by itself after {n("resumed_count") === 1 ? "an interruption" : `${n("resumed_count")} interruptions`} (its background worker stopped).
				</p>
			) : null}
			{run.status === "Failed" ? (
				<ErrorNote error={`${run.error_message ?? "The run failed."}${run.error_kind && ERROR_CAUSES[String(run.error_kind)] ? ` Cause: ${ERROR_CAUSES[String(run.error_kind)]}` : ""}`} />
			) : null}
			{run.status === "Failed" ? (
				<Explain
					method="explain_run"
					args={{ run: run.name }}
					fixAt={(step) => (
						<a className="text-blue-700 hover:underline" href={`#${callAnchor(step)}`} onClick={() => document.getElementById(callAnchor(step))?.focus()}>
							show it in the steps below
						</a>
					)}
				/>
			) : null}
			<section className="grid grid-cols-1 gap-2">
				<h2 className="text-base font-semibold">Question</h2>
				<p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm">{run.prompt}</p>
			</section>
			{run.response ? (
				<section className="grid grid-cols-1 gap-2">
					<h2 className="text-base font-semibold">Answer</h2>
					<div className="prose-chat rounded-md border border-slate-200 bg-white p-3 text-sm" dangerouslySetInnerHTML={{ __html: renderMarkdown(String(run.response)) }} />
				</section>
			) : null}
			{detail.data.plan ? <PlanSection plan={detail.data.plan} /> : null}
			<section className="grid grid-cols-1 gap-2">
				<h2 className="text-base font-semibold">Steps</h2>
				{timeline.length ? <ol className="grid grid-cols-1 gap-2">{timeline.map((step, index) => <TimelineStep key={`${step.kind}-${step.at}-${index}`} step={step} index={index} />)}</ol> : <p className="text-sm text-slate-600">No steps recorded{ACTIVE.includes(run.status) ? " yet" : ""}.</p>}
			</section>
			{children.length ? (
				<section className="grid grid-cols-1 gap-2">
					<h2 className="text-base font-semibold">Runs it started</h2>
					<ul className="grid grid-cols-1 gap-1 text-sm">
						{children.map((child) => (
							<li key={child.name}>
								<Link className="text-blue-700 hover:underline" to={`/runs/${child.name}`}>{child.channel === "title" ? "Naming the conversation" : child.agent}</Link> · <StatusBadge status={child.status} /> · {child.total_tokens} tokens · {formatCost(child.total_cost)}
							</li>
						))}
					</ul>
				</section>
			) : null}
		</div>
	);
}
