import { useState } from "react";
import { Link } from "react-router";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { useFlows, type RunDetail } from "./api";
import { Decision } from "./Decision";
import { Resolve } from "./Resolve";
import { when } from "./rules";
import { useWaitingForMe } from "./waiting";

/** Flow runs waiting for the signed-in person's decision: approvals they are named for, and runs Huf
 * was interrupted in that they may retry, skip or end. */
export default function ApprovalsPage() {
	const { toApprove, toResolve, loading, error: failed } = useWaitingForMe();
	const flows = useFlows();
	const names = new Map((flows.data ?? []).map((flow) => [flow.flow_id, flow.flow_name]));
	const [notice, setNotice] = useState<string | null>(null);
	return (
		<div className="mx-auto grid max-w-4xl grid-cols-1 gap-4 p-4 md:p-6">
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
							<RunHeading run={run} flowName={names.get(run.flow_definition)} />
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
							<RunHeading run={run} flowName={names.get(run.flow_definition)} />
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

/** The run's flow by its name (its id while the names load, or for a flow this person cannot list). */
function RunHeading({ run, flowName }: { run: RunDetail; flowName: string | undefined }) {
	return (
		<div className="flex flex-wrap items-baseline gap-2">
			<Link className="font-medium text-blue-700 hover:underline" to={`/flows/runs/${run.name}`}>{flowName || run.flow_definition}</Link>
			<span className="text-xs text-slate-500">started by {run.user}, {when(run.started_at)}</span>
		</div>
	);
}
