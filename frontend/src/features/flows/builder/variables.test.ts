import { describe, expect, it } from "vitest";
import type { Config, LinkEdge, NodeType, StepNode } from "./catalog";
import { variablesAt } from "./variables";

const node = (id: string, type: NodeType, config: Config = {}, label = id): StepNode => ({ id, type, position: { x: 0, y: 0 }, data: { label, config } });
const edge = (source: string, target: string, sourceHandle?: string): LinkEdge => ({ id: `${source}-${target}`, source, target, type: "always", ...(sourceHandle ? { sourceHandle } : {}) });
const names = (nodeId: string, nodes: StepNode[], edges: LinkEdge[]) => variablesAt(nodeId, nodes, edges).map((v) => v.name);

describe("variablesAt", () => {
	const nodes = [node("start", "trigger.webhook", {}, "Lead comes in"), node("score", "agent.run", { output_key: "lead_score" }, "Score lead"), node("hot", "condition"), node("notify", "http_request"), node("side", "end")];
	const edges = [edge("start", "score"), edge("score", "hot"), edge("hot", "notify", "true"), edge("start", "side")];

	it("offers what started the run and the results of every step that can run before, nearest first", () => {
		const found = variablesAt("notify", nodes, edges);
		expect(found.map((v) => v.name)).toEqual(["trigger", "nodes.hot", "nodes.score", "lead_score", "nodes.start"]);
		expect(found.find((v) => v.name === "nodes.score")?.description).toBe('the result of "Score lead"');
		expect(found.find((v) => v.name === "lead_score")?.description).toBe('the result of "Score lead"');
	});

	it("leaves out the step itself and steps on other branches", () => {
		expect(names("score", nodes, edges)).toEqual(["trigger", "nodes.start"]);
		expect(names("side", nodes, edges)).not.toContain("nodes.score");
		expect(names("start", nodes, edges)).toEqual(["trigger"]);
	});

	it("writes ids that are not plain names the way an expression can read them, and skips unusable kept names", () => {
		const odd = [node("get-lead", "http_request", { output_key: "not a name" }), node("if", "transform", { mode: "map", mappings: { email: "trigger.email" } }), node("end", "end")];
		expect(names("end", odd, [edge("get-lead", "if"), edge("if", "end")])).toEqual(["trigger", 'nodes["if"]', "email", 'nodes["get-lead"]']);
	});

	it("offers a loop's item and position only to the steps it repeats", () => {
		const flow = [node("start", "trigger.webhook"), node("each", "loop", { items: "trigger.leads", item_var: "lead", index_var: "n" }, "Each lead"), node("check", "agent.run"), node("save", "tool.call"), node("done", "end")];
		const links = [edge("start", "each"), edge("each", "check", "body"), edge("check", "save"), edge("save", "each"), edge("each", "done", "done")];
		const inBody = variablesAt("save", flow, links);
		expect(inBody.slice(0, 3).map((v) => v.name)).toEqual(["trigger", "lead", "n"]);
		expect(inBody.find((v) => v.name === "lead")?.description).toBe('the item "Each lead" is working on');
		expect(names("check", flow, links)).toEqual(expect.arrayContaining(["lead", "n", "nodes.each", "nodes.save"]));
		const after = names("done", flow, links);
		expect(after).not.toContain("lead");
		expect(after).not.toContain("n");
		expect(after).toEqual(expect.arrayContaining(["nodes.each", "nodes.check", "nodes.save"]));
		expect(names("each", flow, links)).not.toContain("lead");
	});

	it("uses the default names item and index when the loop sets none", () => {
		const flow = [node("each", "loop", { items: "trigger.rows" }), node("work", "end")];
		expect(names("work", flow, [edge("each", "work", "body")])).toEqual(["trigger", "item", "index", "nodes.each"]);
	});
});
