// What the Flows area reads and calls on the site (huf.ai.flow.api).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call, getList } from "../../lib/api";
import { live, subscribe } from "../../lib/realtime";
import { pollEvery } from "./poll";
import { RUN_ACTIVE, type Definition } from "./rules";

const API = "huf.ai.flow.api";

export type FlowRow = {
	flow_id: string;
	flow_name: string;
	status: "Draft" | "Active" | "Archived";
	version: number;
	updated_by: string | null;
	updated_at: string | null;
	modified_by: string;
	modified: string;
	last_run: { name: string; status: string; creation: string } | null;
};

export type Flow = { flow_id: string; flow_name: string; status: FlowRow["status"]; version: number; updated_by: string | null; updated_at: string | null; modified: string; definition: Definition };

export type VersionRow = { name: string; version: number; note: string | null; saved_by: string; saved_at: string };

export type RunRow = {
	name: string;
	flow_definition: string;
	flow_version: number;
	status: string;
	user: string;
	trigger_type: string;
	current_node_id: string | null;
	hop_count: number;
	max_hops: number;
	started_at: string | null;
	completed_at: string | null;
	last_error: string | null;
	/** A test run: started from the builder with the graph on screen, saved or not. */
	is_test: 0 | 1;
};

/** `repeats`: how many times the step was run again because Huf was interrupted while running it.
 * `input`: what the step sent, as JSON text (a tool's arguments, an agent's prompt); null when it sends nothing or was not recorded. */
export type RunStep = { hop: number; node_id: string; node_label: string | null; node_type: string; status: string; agent_run: string | null; input: string | null; output: string | null; error: string | null; started_at: string | null; duration_ms: number | null; repeats: number };

export type RunDetail = RunRow & {
	/** The flow's name as people gave it (its id when it has none). */
	flow_name: string | null;
	context: { trigger?: Record<string, unknown>; [key: string]: unknown };
	/** An approval step's question, or (kind "attention") the step Huf was interrupted in. */
	waiting: { kind?: string; node_id?: string; label?: string; message?: string; [key: string]: unknown } | null;
	can_approve: boolean;
	/** The run Needs Attention and the signed-in person may retry, skip or end it. */
	can_resolve: boolean;
	steps: RunStep[];
	/** A test run's own graph (the draft it was started with); null for a run of a saved version. */
	definition: Definition | null;
};

export type SaveArgs = { flow_id: string; definition?: Definition; flow_name?: string; status?: FlowRow["status"]; note?: string };

export const useFlows = () => useQuery({ queryKey: ["flows"], queryFn: () => call<FlowRow[]>(`${API}.list_flows`) });

export const useFlow = (flowId: string, version?: number) =>
	useQuery({ queryKey: ["flow", flowId, version ?? "current"], queryFn: () => call<Flow>(`${API}.get_flow_definition`, { flow_id: flowId, version }) });

export const useVersions = (flowId: string) =>
	useQuery({
		queryKey: ["flow-versions", flowId],
		queryFn: () => getList<VersionRow>("Flow Definition Version", { fields: ["name", "version", "note", "saved_by", "saved_at"], filters: [["flow_definition", "=", flowId]], order_by: "version desc", limit: 100 }),
	});

export const useFlowRuns = (flowId: string | undefined, status?: string) =>
	useQuery({
		queryKey: ["flow-runs", flowId ?? "all", status ?? "any"],
		queryFn: () => call<RunRow[]>(`${API}.list_flow_runs`, { flow_id: flowId, status, limit: 50 }),
		refetchInterval: (query) => (query.state.data?.some((run) => RUN_ACTIVE.includes(run.status)) ? 3000 : false),
	});

const RUN_EVENTS = ["flow_node_started", "flow_node_finished", "flow_run_status"];

/** A flow run, read again as soon as the site says one of its steps started or finished, and each
 * time the live connection is made (what was sent before then never arrives); by the clock as well,
 * often at first (see poll.ts). */
export function useFlowRun(name: string | null) {
	const queryClient = useQueryClient();
	useEffect(() => {
		if (!name) return;
		const refresh = (data: Record<string, unknown>) => {
			if (data.flow_run === name) void queryClient.invalidateQueries({ queryKey: ["flow-run", name] });
		};
		const missed = () => void queryClient.invalidateQueries({ queryKey: ["flow-run", name] });
		const stops = RUN_EVENTS.map((event, index) => subscribe(event, refresh, index === 0 ? missed : undefined));
		return () => stops.forEach((stop) => stop());
	}, [name, queryClient]);
	return useRunQuery(name);
}

const useRunQuery = (name: string | null) =>
	useQuery({
		queryKey: ["flow-run", name],
		enabled: name !== null,
		queryFn: () => call<RunDetail>(`${API}.get_flow_run`, { flow_run: name }),
		refetchInterval: (query) => pollEvery(query.state.data?.status, query.state.dataUpdateCount, live()),
	});

export const saveFlow = (args: SaveArgs) => call<Flow>(`${API}.save_flow_definition`, args, true);
export const runFlow = (flowId: string, payload: Record<string, unknown> | null) => call<{ flow_run: string }>(`${API}.run_flow`, { flow_id: flowId, payload }, true);
/** A test run of the graph as the builder shows it, saved or not. */
export const runDraft = (flowId: string, definition: Definition, payload: Record<string, unknown> | null) =>
	call<{ flow_run: string }>(`${API}.run_flow_draft`, { flow_id: flowId, definition, payload }, true);
export const decide = (flowRun: string, approve: boolean, comment: string) => call<unknown>(`${API}.${approve ? "approve" : "reject"}_flow_run`, { flow_run: flowRun, comment: comment || null }, true);
export const resumeRun = (flowRun: string) => call<unknown>(`${API}.resume_flow_run`, { flow_run: flowRun }, true);

/** What a person decides for a run that Needs Attention: run the step again, count it as done (with
 * the value it gives, typed as text: JSON text is read as JSON), or end the run. */
export type Resolution = "retry" | "skip" | "end";
const RESOLUTIONS: Record<Resolution, string> = { retry: "retry_flow_step", skip: "skip_flow_step", end: "end_flow_run" };
export const resolveRun = (flowRun: string, action: Resolution, output = "") =>
	call<unknown>(`${API}.${RESOLUTIONS[action]}`, action === "skip" ? { flow_run: flowRun, output: output || null } : { flow_run: flowRun }, true);
