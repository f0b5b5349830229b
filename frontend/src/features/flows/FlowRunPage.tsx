import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Stat } from "../../components/ui/section";
import { ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { useMe } from "../../lib/me";
import { preloaded } from "../../lib/preload";
import { resumeRun, useFlowRun, type RunDetail, type RunStep } from "./api";
import { Explain } from "../assistant/Explain";
import { Decision } from "./Decision";
import { Resolve } from "./Resolve";
import { TestMark } from "./TestMark";
import { describeType, formatMs, repeatWords, RUN_ACTIVE, STEP_NOTES, when, WHO_RESOLVES } from "./rules";

const stepName = (step: RunStep) => step.node_label || step.node_id;
const STEP_BORDER: Record<string, string> = { Failed: "border-red-300", "Needs Attention": "border-purple-300" };
const RunCanvas = preloaded(() => import("./builder/RunCanvas").then((module) => module.RunCanvas));

export default function FlowRunPage() {
	const { run: name = "" } = useParams();
	const run = useFlowRun(name);
	if (run.isPending) return <Loading />;
	if (run.isError) return <div className="p-6"><ErrorNote error={run.error} /></div>;
	return <RunView run={run.data} />;
}

export function RunView({ run }: { run: RunDetail }) {
	const me = useMe().data;
	const queryClient = useQueryClient();
	const resume = useMutation({ mutationFn: () => resumeRun(run.name), onSuccess: () => queryClient.invalidateQueries({ queryKey: ["flow-run", run.name] }) });
	const latest = [...run.steps].reverse();
	const current = latest.find((step) => step.node_id === run.current_node_id);
	const failed = run.status === "Failed" ? latest.find((step) => step.status === "Failed") : undefined;
	const mayResume = run.status === "Failed" && Boolean(me && me.capabilities["flow.run"] && (me.capabilities["flow.write"] || me.user === run.user));
	const [notice, setNotice] = useState<string | null>(null);
	return (
		<div className="mx-auto grid max-w-[1600px] grid-cols-1 gap-4 p-4 [overflow-wrap:anywhere] md:p-6">
			<Link to={`/flows/${encodeURIComponent(run.flow_definition)}`} className="text-sm text-blue-700 hover:underline">Back to {run.flow_name || "the flow"}</Link>
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">Run of {run.flow_name || run.flow_definition}</h1>
				<StatusBadge status={run.status} />
				{run.is_test ? <TestMark /> : null}
				{RUN_ACTIVE.includes(run.status) ? <span className="text-xs text-slate-500" role="status">Updating as it runs…</span> : null}
				{mayResume ? (
					<Button className="ml-auto" disabled={resume.isPending} onClick={() => resume.mutate()}>
						{resume.isPending ? "Resuming…" : "Resume"}
					</Button>
				) : null}
			</header>
			{resume.isError ? <ErrorNote error={resume.error} /> : null}
			{run.status === "Failed" ? (
				<div role="alert" data-testid="run-failure" className="grid grid-cols-1 gap-1 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
					<p className="font-semibold">{failed ? `It failed at the step "${stepName(failed)}" (${describeType(failed.node_type)}).` : "The run failed."}</p>
					<p className="whitespace-pre-wrap text-sm">{failed?.error || run.last_error || "No reason was recorded."}</p>
				</div>
			) : null}
			{run.status === "Failed" ? (
				<Explain
					method="explain_flow_run"
					args={{ flow_run: run.name }}
					fixAt={(step) => (
						<Link className="text-blue-700 hover:underline" to={`/flows/${encodeURIComponent(run.flow_definition)}?step=${encodeURIComponent(step)}`}>
							open it in the flow
						</Link>
					)}
				/>
			) : null}
			{notice ? <p role="status" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">{notice}</p> : null}
			{run.status === "Needs Attention" ? (
				<section aria-labelledby="attention-title" data-testid="run-attention" className="grid grid-cols-1 gap-2 rounded-md border border-purple-300 bg-purple-50 p-4">
					<h2 id="attention-title" className="font-semibold">This run was interrupted</h2>
					<p className="whitespace-pre-wrap text-sm">{run.waiting?.message || "Huf was interrupted while running a step, and the step may or may not have done its work."}</p>
					{run.can_resolve ? (
						<Resolve flowRun={run.name} step={run.waiting?.label || (current ? stepName(current) : run.current_node_id || "")} onDone={setNotice} />
					) : (
						<p className="text-sm text-slate-600">{WHO_RESOLVES}</p>
					)}
				</section>
			) : null}
			{run.status === "Cancelled" ? (
				<div data-testid="run-ended" className="grid grid-cols-1 gap-1 rounded-md border border-slate-300 bg-slate-50 p-4">
					<p className="font-semibold">This run was ended before it finished.</p>
					{run.last_error ? <p className="whitespace-pre-wrap text-sm">{run.last_error}</p> : null}
				</div>
			) : null}
			{run.status === "Waiting Approval" ? (
				<div className="grid grid-cols-1 gap-2 rounded-md border border-amber-300 bg-amber-50 p-4">
					<p className="font-medium">Waiting for approval{run.waiting?.message ? `: ${run.waiting.message}` : "."}</p>
					{run.can_approve ? <Decision flowRun={run.name} /> : <p className="text-sm text-slate-600">The people this step names decide.</p>}
				</div>
			) : null}
			<dl className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="About this run">
				<Stat label="Current step" value={current ? stepName(current) : run.current_node_id || "—"} />
				<Stat label="Steps taken" value={`${run.hop_count} of at most ${run.max_hops}`} />
				<Stat label="Runs as" value={run.user} />
				<Stat label="Started" value={when(run.started_at)} />
				<Stat label="Finished" value={when(run.completed_at)} />
				<Stat label="Version" value={run.is_test ? `Test of unsaved changes (after version ${run.flow_version})` : run.flow_version} />
			</dl>
			<RunCanvas run={run} />
			<section className="grid grid-cols-1 gap-2" aria-labelledby="timeline-title">
				<h2 id="timeline-title" className="text-base font-semibold">Steps</h2>
				{run.steps.length ? (
					<ol className="grid grid-cols-1 gap-2">
						{run.steps.map((step) => (
							<li key={`${step.hop}-${step.node_id}`} data-testid="run-step" className={`grid grid-cols-1 gap-1 rounded-md border bg-white p-3 ${STEP_BORDER[step.status] ?? "border-slate-200"}`}>
								<div className="flex flex-wrap items-center gap-2 text-sm">
									<span className="text-xs tabular-nums text-slate-400">{step.hop}</span>
									<span className="font-medium">{stepName(step)}</span>
									<span className="text-slate-600">{describeType(step.node_type)}</span>
									<StatusBadge status={step.status} />
									<span className="ml-auto text-xs tabular-nums text-slate-500">{formatMs(step.duration_ms)}</span>
								</div>
								{step.repeats ? <p className="text-sm text-slate-600">{repeatWords(step.repeats)}</p> : null}
								{step.error ? <p className={`text-sm ${STEP_NOTES.includes(step.status) ? "text-slate-700" : "text-red-700"}`}>{step.error}</p> : null}
								{step.input ? (
									<details className="text-sm">
										<summary className="cursor-pointer text-slate-600">What was sent</summary>
										<pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{step.input}</pre>
									</details>
								) : null}
								{step.output ? (
									<details className="text-sm">
										<summary className="cursor-pointer text-slate-600">Result</summary>
										<pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{step.output}</pre>
									</details>
								) : null}
								{step.agent_run ? <Link className="text-sm text-blue-700 hover:underline" to={`/runs/${step.agent_run}`}>Open the agent's run</Link> : null}
							</li>
						))}
					</ol>
				) : (
					<p className="text-sm text-slate-600">No steps yet.</p>
				)}
			</section>
		</div>
	);
}
