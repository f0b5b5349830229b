import { useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { call } from "../../lib/api";
import { useFlowRuns, type RunDetail } from "./api";
import { Decision } from "./Decision";
import { Resolve } from "./Resolve";
import { when } from "./rules";

/** Flow runs waiting for the signed-in person's decision: approvals they are named for, and runs Huf
 * was interrupted in that they may retry, skip or end. */
export default function ApprovalsPage() {
	const approvals = useFlowRuns(undefined, "Waiting Approval");
	const interrupted = useFlowRuns(undefined, "Needs Attention");
	// by name: a run may move from one list to the other between the two reads
	const listed = [...new Map([...(approvals.data ?? []), ...(interrupted.data ?? [])].map((run) => [run.name, run])).values()];
	const details = useQueries({
		queries: listed.map((run) => ({ queryKey: ["flow-run", run.name], queryFn: () => call<RunDetail>("huf.ai.flow.api.get_flow_run", { flow_run: run.name }) })),
	});
	const runs = details.flatMap((detail) => (detail.data ? [detail.data] : []));
	const toApprove = runs.filter((run) => run.can_approve && run.status === "Waiting Approval");
	const toResolve = runs.filter((run) => run.can_resolve && run.status === "Needs Attention");
	const [notice, setNotice] = useState<string | null>(null);
	const loading = approvals.isPending || interrupted.isPending || details.some((detail) => detail.isPending);
	const failed = approvals.error ?? interrupted.error;
	return (
		<div className="mx-auto grid max-w-4xl gap-4 p-4 md:p-6">
			<Link to="/flows" className="text-sm text-blue-700 hover:underline">All flows</Link>
			<h1 className="text-xl font-semibold">Waiting for me</h1>
			{loading ? <Loading /> : null}
			{failed ? <ErrorNote error={failed} /> : null}
			{notice ? <p role="status" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">{notice}</p> : null}
			{!loading && !toApprove.length && !toResolve.length ? <Empty title="Nothing is waiting for you">When a flow asks you to approve a step, or a run you may decide for is interrupted, it shows up here.</Empty> : null}
			{toApprove.length ? (
				<ul className="grid gap-3" aria-label="Waiting for my approval">
					{toApprove.map((run) => (
						<li key={run.name} data-testid="approval" className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
							<RunHeading run={run} />
							<p className="text-sm">{run.waiting?.message || "This step asks for your approval."}</p>
							{run.context.trigger && Object.keys(run.context.trigger).length ? (
								<details className="text-sm">
									<summary className="cursor-pointer text-slate-600">What the run started with</summary>
									<pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{JSON.stringify(run.context.trigger, null, 2)}</pre>
								</details>
							) : null}
							<Decision flowRun={run.name} />
						</li>
					))}
				</ul>
			) : null}
			{toResolve.length ? (
				<ul className="grid gap-3" aria-label="Interrupted runs I may decide for">
					{toResolve.map((run) => (
						<li key={run.name} data-testid="attention" className="grid gap-2 rounded-lg border border-purple-300 bg-white p-4">
							<RunHeading run={run} />
							<p className="text-sm font-medium">This run was interrupted</p>
							<p className="whitespace-pre-wrap text-sm">{run.waiting?.message}</p>
							<Resolve flowRun={run.name} step={run.waiting?.label || run.current_node_id || ""} onDone={setNotice} />
						</li>
					))}
				</ul>
			) : null}
		</div>
	);
}

function RunHeading({ run }: { run: RunDetail }) {
	return (
		<div className="flex flex-wrap items-baseline gap-2">
			<Link className="font-medium text-blue-700 hover:underline" to={`/flows/runs/${run.name}`}>{run.flow_definition}</Link>
			<span className="text-xs text-slate-500">started by {run.user}, {when(run.started_at)}</span>
		</div>
	);
}
