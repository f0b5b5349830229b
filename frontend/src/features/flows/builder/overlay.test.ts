import { describe, expect, it } from "vitest";
import type { RunDetail, RunStep } from "../api";
import type { LinkEdge } from "./catalog";
import { inputOf, NOT_RECORDED, overlay, stateOf } from "./overlay";

const edges: LinkEdge[] = [
	{ id: "e1", source: "hook", target: "score" },
	{ id: "e2", source: "score", target: "ask" },
	{ id: "e3", source: "ask", sourceHandle: "approved", target: "create" },
	{ id: "e4", source: "ask", sourceHandle: "rejected", target: "stop" },
];

const step = (hop: number, node_id: string, status: string, output: unknown = null): RunStep => ({
	hop,
	node_id,
	node_label: null,
	node_type: "transform",
	status,
	agent_run: null,
	input: null,
	output: output === null ? null : JSON.stringify(output),
	error: status === "Failed" ? "boom" : null,
	started_at: null,
	duration_ms: 5,
	repeats: 0,
});

type Run = Pick<RunDetail, "status" | "steps" | "current_node_id" | "hop_count">;
const run = (status: string, current: string, steps: RunStep[]): Run => ({ status, current_node_id: current, steps, hop_count: steps.length });

describe("the run overlay", () => {
	it("shows a queued run's first step as up next and nothing taken", () => {
		const view = overlay(run("Queued", "hook", []), edges);
		expect(stateOf(view, "hook")).toBe("queued");
		expect(stateOf(view, "score")).toBeNull();
		expect(view.taken.size).toBe(0);
	});

	it("follows a run as it moves: done steps, the running one, the connections between", () => {
		const moving = overlay(run("Running", "score", [step(0, "hook", "Success", { lead: 1 }), step(1, "score", "Running")]), edges);
		expect([stateOf(moving, "hook"), stateOf(moving, "score"), stateOf(moving, "ask")]).toEqual(["succeeded", "running", null]);
		expect([...moving.taken]).toEqual(["e1"]);
		const between = overlay(run("Running", "ask", [step(0, "hook", "Success"), step(1, "score", "Success", 80)]), edges);
		expect(stateOf(between, "ask")).toBe("queued");
		expect([...between.taken].sort()).toEqual(["e1", "e2"]);
	});

	it("marks the approval waiting, then the outcome's connection once decided", () => {
		const waiting = overlay(run("Waiting Approval", "ask", [step(0, "hook", "Success"), step(1, "score", "Success"), step(2, "ask", "Waiting")]), edges);
		expect(stateOf(waiting, "ask")).toBe("waiting");
		const decided = [step(0, "hook", "Success"), step(1, "score", "Success"), step(2, "ask", "Success", { outcome: "rejected", comment: "" }), step(3, "stop", "Success")];
		const view = overlay(run("Success", "stop", decided), edges);
		expect(view.taken.has("e4")).toBe(true);
		expect(view.taken.has("e3")).toBe(false);
		expect(stateOf(view, "stop")).toBe("succeeded");
		expect(stateOf(view, "create")).toBeNull();
	});

	it("shows a failed step as failed and a retried one as trying again, without a connection to itself", () => {
		const failed = overlay(run("Failed", "score", [step(0, "hook", "Success"), step(1, "score", "Failed")]), edges);
		expect(stateOf(failed, "score")).toBe("failed");
		expect(failed.queued).toBeNull();
		const retrying = overlay(run("Running", "score", [step(0, "hook", "Success"), step(1, "score", "Retrying"), step(2, "score", "Running")]), edges);
		expect(stateOf(retrying, "score")).toBe("running");
		expect(retrying.steps.score?.visits).toBe(2);
		expect([...retrying.taken]).toEqual(["e1"]);
	});

	it("shows the step Huf was interrupted in as needing a decision, with nothing up next", () => {
		const view = overlay(run("Needs Attention", "score", [step(0, "hook", "Success"), step(1, "score", "Needs Attention")]), edges);
		expect(stateOf(view, "score")).toBe("attention");
		expect(view.queued).toBeNull();
		expect([...view.taken]).toEqual(["e1"]);
	});

	it("shows a skipped step and the connection the run took after it, and the step a run was ended at", () => {
		const skipped = overlay(run("Running", "ask", [step(0, "hook", "Success"), step(1, "score", "Skipped", 90), step(2, "ask", "Running")]), edges);
		expect([stateOf(skipped, "score"), stateOf(skipped, "ask")]).toEqual(["skipped", "running"]);
		expect([...skipped.taken].sort()).toEqual(["e1", "e2"]);
		const ended = overlay(run("Cancelled", "score", [step(0, "hook", "Success"), step(1, "score", "Cancelled")]), edges);
		expect(stateOf(ended, "score")).toBe("cancelled");
		expect(ended.queued).toBeNull();
		expect(stateOf(ended, "ask")).toBeNull();
	});

	it("shows a step tried again after an interruption as trying again until it runs", () => {
		const view = overlay(run("Queued", "score", [step(0, "hook", "Success"), step(1, "score", "Retrying")]), edges);
		expect(stateOf(view, "score")).toBe("retrying");
		expect(view.queued).toBeNull();
	});

	it("gives each step what the step before it gave, and the first one what started the run", () => {
		const steps = [step(0, "hook", "Success", { lead: "ACME" }), step(1, "score", "Success", 80)];
		const detail = { steps, context: { trigger: { lead: "ACME" } } };
		expect(inputOf(detail, steps[0] as RunStep)).toEqual({ lead: "ACME" });
		expect(inputOf(detail, steps[1] as RunStep)).toEqual({ lead: "ACME" });
		expect(inputOf({ steps: [...steps, step(2, "ask", "Running")], context: {} }, step(2, "ask", "Running"))).toBe(80);
	});

	it("gives a tool step what was sent to the tool, not the step before's result", () => {
		const sent = { ...step(1, "create", "Success", { name: "TODO-1" }), node_type: "tool.call", input: JSON.stringify({ data: { description: "Call ACME" } }) };
		const steps = [step(0, "score", "Success", 80), sent];
		expect(inputOf({ steps, context: {} }, sent)).toEqual({ data: { description: "Call ACME" } });
		expect(inputOf({ steps, context: {} }, { ...sent, input: null })).toBe(NOT_RECORDED);
		const view = overlay({ ...run("Success", "create", steps), context: {} }, edges);
		expect(view.io.create).toEqual({ input: { data: { description: "Call ACME" } }, output: { name: "TODO-1" } });
	});
});
