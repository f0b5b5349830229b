import { describe, expect, it } from "vitest";
import { fromDefinition } from "./convert";
import type { Graph } from "./editor";
import { markWords, preview } from "./proposal";

const step = (id: string, type: string, label: string, config: Record<string, unknown> = {}, position = { x: 0, y: 0 }) => ({ id, type, position, data: { label, config } });

const current: Graph = (() => {
	const { nodes, edges } = fromDefinition({
		nodes: [step("hook", "trigger.webhook", "New lead", {}, { x: 100, y: 200 }), step("score", "agent.run", "Score", { agent: "Qualifier", prompt: "Score it" }, { x: 420, y: 200 }), step("old", "end", "Old end", {}, { x: 740, y: 200 })],
		edges: [{ id: "e1", source: "hook", target: "score", type: "always" }, { id: "e2", source: "score", target: "old", type: "always" }],
	});
	return { nodes, edges };
})();

const proposed = {
	nodes: [
		step("hook", "trigger.webhook", "New lead", {}, { x: 100, y: 200 }),
		step("score", "agent.run", "Score the lead", { agent: "Qualifier", prompt: "Score it" }, { x: 420, y: 200 }),
		step("tool_call_1", "tool.call", "Make a to-do", { tool: "create_todo", arguments: {} }),
		step("tool_call_2", "tool.call", "Post", { tool: "post", arguments: {} }),
	],
	edges: [
		{ id: "e1", source: "hook", target: "score", type: "always" },
		{ id: "e-score-tool_call_1", source: "score", target: "tool_call_1", type: "always" },
		{ id: "e-score-tool_call_2", source: "score", target: "tool_call_2", type: "always" },
	],
};

describe("a proposal as a change set", () => {
	it("marks new, changed and removed steps against the canvas as it is", () => {
		const shown = preview(current, proposed);
		expect(shown.marks).toEqual({ score: "changed", tool_call_1: "new", tool_call_2: "new", old: "removed" });
		expect(markWords(shown.marks)).toBe("2 new steps, 1 changed, 1 removed");
	});

	it("shows removed steps with their links but accepts without them", () => {
		const shown = preview(current, proposed);
		expect(shown.graph.nodes.map((node) => node.id)).toContain("old");
		expect(shown.graph.edges.map((edge) => edge.id)).toContain("e2");
		expect(shown.accepted.nodes.map((node) => node.id)).toEqual(["hook", "score", "tool_call_1", "tool_call_2"]);
		expect(shown.accepted.edges.map((edge) => edge.id)).not.toContain("e2");
	});

	it("keeps the places of steps already there and puts new ones right of the step they follow, one below the other", () => {
		const at = Object.fromEntries(preview(current, proposed).accepted.nodes.map((node) => [node.id, node.position]));
		expect(at.score).toEqual({ x: 420, y: 200 });
		expect(at.tool_call_1).toEqual({ x: 740, y: 200 });
		expect(at.tool_call_2).toEqual({ x: 740, y: 340 });
	});

	it("says so when nothing changes", () => {
		const same = { nodes: current.nodes.map((node) => ({ id: node.id, type: node.type, position: node.position, data: node.data })), edges: [] };
		expect(markWords(preview(current, same).marks)).toBe("no changes to the steps");
	});
});
