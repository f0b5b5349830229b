// A run laid over its flow: what each step is doing or did, and which connections the run took.
// Read from the run's recorded steps (one per hop) and its status, so a live run and a run from
// last week are drawn the same way.
import type { RunDetail, RunStep } from "../api";
import type { LinkEdge } from "./catalog";

export type StepState = "queued" | "running" | "succeeded" | "failed" | "waiting" | "retrying" | "attention" | "skipped" | "cancelled";

export type StepView = { state: StepState; visits: number; last: RunStep };
/** `io`: what went into each step and what came out, on its last visit (see `inputOf`). */
export type Overlay = { steps: Record<string, StepView>; taken: Set<string>; hops: number; current: string | null; queued: string | null; io: Record<string, StepIO> };
export type StepIO = { input: unknown; output: unknown };

const STATES: Record<string, StepState> = {
	Running: "running",
	Success: "succeeded",
	Failed: "failed",
	Waiting: "waiting",
	Retrying: "retrying",
	"Needs Attention": "attention",
	Skipped: "skipped",
	Cancelled: "cancelled",
};

/** Whether the run left `from` by `edge`: the outcome a step reached picks among its connections. */
function leftBy(edge: LinkEdge, from: RunStep): boolean {
	if (!edge.sourceHandle) return true;
	const output = parseOutput(from.output);
	const outcome = typeof output === "object" && output !== null && "outcome" in output ? String((output as { outcome: unknown }).outcome) : null;
	if (outcome) return edge.sourceHandle === outcome;
	if (typeof output === "boolean") return edge.sourceHandle === String(output);
	return true;
}

function parseOutput(output: string | null): unknown {
	if (!output) return null;
	try {
		return JSON.parse(output);
	} catch {
		return output;
	}
}

export function overlay(run: Pick<RunDetail, "status" | "steps" | "current_node_id" | "hop_count"> & Partial<Pick<RunDetail, "context">>, edges: LinkEdge[]): Overlay {
	const steps: Record<string, StepView> = {};
	const ordered = [...run.steps].sort((a, b) => a.hop - b.hop);
	for (const step of ordered) {
		const seen = steps[step.node_id];
		steps[step.node_id] = { state: STATES[step.status] ?? "running", visits: (seen?.visits ?? 0) + 1, last: step };
	}
	const taken = new Set<string>();
	ordered.forEach((step, index) => {
		const next = ordered[index + 1];
		if (!next || next.node_id === step.node_id) return; // a retry stays on its step
		const candidates = edges.filter((edge) => edge.source === step.node_id && edge.target === next.node_id);
		const edge = candidates.find((candidate) => leftBy(candidate, step)) ?? candidates[0];
		if (edge) taken.add(edge.id);
	});
	const current = run.current_node_id;
	// A moving run whose next step has not started yet: that step is up next.
	const lastStep = ordered.at(-1);
	const moving = run.status === "Queued" || run.status === "Running";
	const started = lastStep?.node_id === current && (lastStep.status === "Running" || lastStep.status === "Retrying");
	const queued = moving && current && !started ? current : null;
	if (queued && lastStep && lastStep.node_id !== queued) {
		const edge = edges.find((candidate) => candidate.source === lastStep.node_id && candidate.target === queued && leftBy(candidate, lastStep));
		if (edge) taken.add(edge.id);
	}
	const io: Record<string, StepIO> = {};
	for (const [id, view] of Object.entries(steps)) io[id] = { input: inputOf({ steps: run.steps, context: run.context ?? {} }, view.last), output: parseOutput(view.last.output) };
	return { steps, taken, hops: run.hop_count, current, queued, io };
}

/** What a step shows: the recorded state, or queued when the run is about to reach it. */
export function stateOf(view: Overlay, nodeId: string): StepState | null {
	if (view.queued === nodeId && view.steps[nodeId]?.state !== "running") return "queued";
	return view.steps[nodeId]?.state ?? null;
}

export const STATE_WORDS: Record<StepState, string> = {
	queued: "Up next",
	running: "Running",
	succeeded: "Done",
	failed: "Failed",
	waiting: "Waiting for approval",
	retrying: "Trying again",
	attention: "Interrupted: needs a decision",
	skipped: "Skipped",
	cancelled: "The run was ended here",
};

/** Steps that send something out: what they sent is recorded on their step (`input`). */
const SENDS = new Set(["tool.call", "agent.run"]);

/** Said of a sending step whose run did not record what it sent (runs from before it was recorded). */
export const NOT_RECORDED = "Not recorded for this run.";

/** What went into a step: what it sent (a tool's arguments, an agent's prompt) when it sends
 * something; otherwise what the step before it gave, or what started the run for the first. */
export function inputOf(run: Pick<RunDetail, "steps" | "context">, step: RunStep): unknown {
	if (step.input) return parseOutput(step.input);
	if (SENDS.has(step.node_type)) return NOT_RECORDED;
	const before = [...run.steps].filter((other) => other.hop < step.hop).sort((a, b) => b.hop - a.hop)[0];
	return before ? parseOutput(before.output) : (run.context?.trigger ?? null);
}
