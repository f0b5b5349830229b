import { describe, expect, it } from "vitest";
import { describeWhen, flowIdFromName, flowIdProblem, outline, parseImport, parseInput, problemsByNode, repeatWords, type Definition } from "./rules";

const graph: Definition = {
	nodes: [
		{ id: "done", type: "end", data: { label: "Done" } },
		{ id: "ask", type: "human.approval", data: { label: "Ask (the boss)" } },
		{ id: "start", type: "trigger.webhook", data: { label: "New order" } },
		{ id: "notify", type: "http_request", data: { label: "Tell the shop" } },
		{ id: "orphan", type: "transform" },
	],
	edges: [
		{ id: "e1", source: "start", target: "ask", type: "always" },
		{ id: "e2", source: "ask", target: "done", meta: { outcome: "rejected" } },
		{ id: "e3", source: "ask", target: "notify", meta: { outcome: "approved" }, priority: 5 },
		{ id: "e4", source: "notify", target: "done", type: "expression", condition: "nodes.notify.output.ok" },
	],
};

describe("flow ids", () => {
	it("derive from the name with the server's rule", () => {
		expect(flowIdFromName("Qualify Leads (EU)!")).toBe("qualify-leads-eu");
		expect(flowIdFromName("  Café — Zürich  ")).toBe("cafe-zurich");
		expect(flowIdProblem(flowIdFromName("Qualify Leads"))).toBeUndefined();
		expect(flowIdProblem("Qualify_Leads")).toMatch(/lower-case letters, digits and dashes/);
		expect(flowIdProblem("-leads")).toMatch(/starting with a letter or digit/);
		expect(flowIdProblem("")).toBe("Give the flow an ID.");
	});
});

describe("outline", () => {
	it("follows the run's order from the trigger, highest priority first, then steps nothing leads to", () => {
		const steps = outline(graph);
		expect(steps.map((step) => step.id)).toEqual(["start", "ask", "notify", "done", "orphan"]);
		expect(steps[1]?.kind).toBe("Ask a person to approve");
		expect(steps[1]?.next.map((next) => `${next.targetLabel}: ${next.when}`)).toEqual(["Tell the shop: if approved", "Done: if rejected"]);
		expect(steps[2]?.next[0]?.when).toBe("when nodes.notify.output.ok");
		expect(steps[4]?.label).toBe("orphan");
	});

	it("names a connection to a missing step and an unknown kind", () => {
		const steps = outline({ nodes: [{ id: "a", type: "magic" }], edges: [{ source: "a", target: "gone", type: "on_failure" }] });
		expect(steps[0]?.kind).toBe("Unknown kind of step (magic)");
		expect(steps[0]?.next[0]).toMatchObject({ targetLabel: "a missing step (gone)", when: "if it fails" });
		expect(describeWhen({ type: "on_success" })).toBe("if it succeeds");
	});
});

describe("problemsByNode", () => {
	it("puts each line of the server's message on the step it names, even with brackets in a label", () => {
		const message = "Node Ask (the boss) (ask): choose at least one approver.\nNode orphan: nothing leads to this step.\nThe flow needs an end.";
		expect(problemsByNode(message, graph)).toEqual({
			byNode: { ask: ["choose at least one approver."], orphan: ["nothing leads to this step."] },
			general: ["The flow needs an end."],
		});
	});
});

describe("inputs and imports", () => {
	it("accept nothing or an object, and explain anything else", () => {
		expect(parseInput("  ")).toEqual({ ok: true, payload: null });
		expect(parseInput('{"a": 1}')).toEqual({ ok: true, payload: { a: 1 } });
		expect(parseInput("[1]")).toMatchObject({ ok: false, error: expect.stringMatching(/named values in braces/) });
		expect(parseInput("{a: 1}")).toMatchObject({ ok: false, error: expect.stringMatching(/not readable/) });
	});

	it("take this flow's id for an imported flow and refuse a file without nodes", () => {
		expect(parseImport('{"id": "other", "nodes": []}', "mine")).toEqual({ ok: true, definition: { id: "mine", nodes: [] } });
		expect(parseImport('{"steps": []}', "mine")).toMatchObject({ ok: false });
		expect(parseImport("nope", "mine")).toMatchObject({ ok: false });
	});
});

describe("steps run again", () => {
	it("say nothing for a step run once, and how often otherwise", () => {
		expect(repeatWords(0)).toBeNull();
		expect(repeatWords(null)).toBeNull();
		expect(repeatWords(1)).toBe("Run again after an interruption");
		expect(repeatWords(3)).toBe("Run again 3 times after interruptions");
	});
});
