import { useQueries } from "@tanstack/react-query";
import { Link } from "react-router";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { call } from "../../lib/api";
import { useFlowRuns, type RunDetail } from "./api";
import { Decision } from "./Decision";
import { when } from "./rules";

/** Flow runs waiting for the signed-in person's decision. */
export default function ApprovalsPage() {
	const waiting = useFlowRuns(undefined, "Waiting Approval");
	const details = useQueries({
		queries: (waiting.data ?? []).map((run) => ({ queryKey: ["flow-run", run.name], queryFn: () => call<RunDetail>("huf.ai.flow.api.get_flow_run", { flow_run: run.name }) })),
	});
	const mine = details.flatMap((detail) => (detail.data?.can_approve && detail.data.status === "Waiting Approval" ? [detail.data] : []));
	const loading = waiting.isPending || details.some((detail) => detail.isPending);
	return (
		<div className="mx-auto grid max-w-4xl gap-4 p-4 md:p-6">
			<Link to="/flows" className="text-sm text-blue-700 hover:underline">All flows</Link>
			<h1 className="text-xl font-semibold">Waiting for me</h1>
			{loading ? <Loading /> : null}
			{waiting.isError ? <ErrorNote error={waiting.error} /> : null}
			{!loading && !mine.length ? <Empty title="Nothing is waiting for you">When a flow asks you to approve a step, it shows up here.</Empty> : null}
			<ul className="grid gap-3" aria-label="Waiting for my approval">
				{mine.map((run) => (
					<li key={run.name} data-testid="approval" className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
						<div className="flex flex-wrap items-baseline gap-2">
							<Link className="font-medium text-blue-700 hover:underline" to={`/flows/runs/${run.name}`}>{run.flow_definition}</Link>
							<span className="text-xs text-slate-500">started by {run.user}, {when(run.started_at)}</span>
						</div>
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
		</div>
	);
}
