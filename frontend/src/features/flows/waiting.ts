// What waits for the signed-in person: flow runs asking for their approval, and interrupted runs
// they may retry, skip or end. Read by "Waiting for me" and by the count beside it in the navigation.
import { useQueries } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { useFlowRuns, type RunDetail } from "./api";

export function useWaitingForMe() {
	const approvals = useFlowRuns(undefined, "Waiting Approval");
	const interrupted = useFlowRuns(undefined, "Needs Attention");
	// by name: a run may move from one list to the other between the two reads
	const listed = [...new Map([...(approvals.data ?? []), ...(interrupted.data ?? [])].map((run) => [run.name, run])).values()];
	const details = useQueries({
		queries: listed.map((run) => ({ queryKey: ["flow-run", run.name], queryFn: () => call<RunDetail>("huf.ai.flow.api.get_flow_run", { flow_run: run.name }) })),
	});
	const runs = details.flatMap((detail) => (detail.data ? [detail.data] : []));
	return {
		toApprove: runs.filter((run) => run.can_approve && run.status === "Waiting Approval"),
		toResolve: runs.filter((run) => run.can_resolve && run.status === "Needs Attention"),
		loading: approvals.isPending || interrupted.isPending || details.some((detail) => detail.isPending),
		error: approvals.error ?? interrupted.error,
	};
}
