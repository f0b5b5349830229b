import { describe, expect, it } from "vitest";
import type { StepNode } from "./catalog";
import { fromDefinition, toDefinition } from "./convert";
import * as model from "./editor";
import { arrange } from "./layout";
import { GRID } from "./sizes";

const empty: model.Graph = { nodes: [], edges: [] };
const ids = (graph: model.Graph) => graph.nodes.map((node) => node.id);

function leadFlow(): model.Graph {
	let graph = model.addStep(empty, "trigger.webhook", { x: 0, y: 0 });
	graph = model.addStep(graph, "agent.run", { x: 300, y: 0 });
	graph = model.addStep(graph, "human.approval", { x: 600, y: 0 });
	graph = model.addStep(graph, "end", { x: 900, y: 0 });
	graph = model.connect(graph, { source: "webhook_1", sourceHandle: null, target: "agent_run_1" });
	graph = model.connect(graph, { source: "agent_run_1", sourceHandle: null, target: "human_approval_1" });
	return model.connect(graph, { source: "human_approval_1", sourceHandle: "approved", target: "end_1" });
}

describe("adding and connecting steps", () => {
	it("names new steps after their kind, selects only the newest and starts from the kind's settings", () => {
		const graph = model.addStep(model.addStep(empty, "agent.run", { x: 0, y: 0 }), "agent.run", { x: 0, y: 100 });
		expect(ids(graph)).toEqual(["agent_run_1", "agent_run_2"]);
		expect(graph.nodes.map((node) => node.data.label)).toEqual(["Ask an agent", "Ask an agent 2"]);
		expect(graph.nodes.map((node) => Boolean(node.selected))).toEqual([false, true]);
		expect(graph.nodes[1]?.data.config).toEqual({ agent: "", prompt: "", output_format: "text" });
	});

	it("refuses connections the engine could never follow", () => {
		const graph = leadFlow();
		const link = (source: string, target: string, sourceHandle: string | null = null) => model.canLink(graph, { source, target, sourceHandle });
		expect(link("agent_run_1", "webhook_1")).toBe(false); // nothing leads into a trigger
		expect(link("end_1", "agent_run_1")).toBe(false); // nothing leaves a finish
		expect(link("agent_run_1", "agent_run_1")).toBe(false); // not onto itself
		expect(link("webhook_1", "agent_run_1")).toBe(false); // drawn already
		expect(link("human_approval_1", "agent_run_1")).toBe(false); // an approval leaves by an outcome
		expect(link("human_approval_1", "agent_run_1", "maybe")).toBe(false);
		expect(link("human_approval_1", "agent_run_1", "rejected")).toBe(true);
		expect(model.connect(graph, { source: "end_1", sourceHandle: null, target: "agent_run_1" })).toBe(graph);
	});
});

describe("undo and redo", () => {
	it("walks back and forth through edits; a new edit forgets what was undone", () => {
		let editor = model.start(empty);
		editor = model.edit(editor, (graph) => model.addStep(graph, "agent.run", { x: 0, y: 0 }));
		editor = model.edit(editor, (graph) => model.addStep(graph, "end", { x: 0, y: 0 }));
		editor = model.undo(editor);
		expect(ids(editor.graph)).toEqual(["agent_run_1"]);
		editor = model.redo(editor);
		expect(ids(editor.graph)).toEqual(["agent_run_1", "end_1"]);
		editor = model.undo(model.undo(editor));
		expect(ids(editor.graph)).toEqual([]);
		expect(model.undo(editor)).toBe(editor);
		editor = model.edit(editor, (graph) => model.addStep(graph, "condition", { x: 0, y: 0 }));
		expect(editor.future).toEqual([]);
		expect(model.redo(editor)).toBe(editor);
	});

	it("makes a whole drag one step, and a click without a move none", () => {
		let editor = model.start(leadFlow());
		const move = (graph: model.Graph, x: number): model.Graph => ({ ...graph, nodes: graph.nodes.map((node, index) => (index === 0 ? { ...node, position: { x, y: 0 } } : node)) });
		editor = model.settle(model.hold(editor));
		expect(editor.past).toHaveLength(0);
		editor = model.hold(editor);
		for (const x of [10, 20, 30]) editor = model.live(editor, (graph) => move(graph, x));
		editor = model.settle(editor);
		expect(editor.past).toHaveLength(1);
		expect(model.undo(editor).graph.nodes[0]?.position).toEqual({ x: 0, y: 0 });
	});

	it("makes what is typed in one field one step, until focus moves", () => {
		const field = {};
		const other = {};
		const typed = (editor: model.Editor, text: string, where: object) =>
			model.edit(editor, (graph) => model.updateStep(graph, "agent_run_1", { label: text }), where);
		let editor = model.edit(model.start(empty), (graph) => model.addStep(graph, "agent.run", { x: 0, y: 0 }));
		const label = (state: model.Editor) => state.graph.nodes[0]?.data.label;
		for (const text of ["s", "sc", "sco", "score > 5"]) editor = typed(editor, text, field);
		expect(editor.past).toHaveLength(2);
		expect(label(model.undo(editor))).toBe("Ask an agent");
		// another field is another step; so is the same field after focus moved
		editor = typed(editor, "x", other);
		expect(editor.past).toHaveLength(3);
		editor = typed(model.pause(editor), "xy", other);
		expect(editor.past).toHaveLength(4);
		expect(label(model.undo(editor))).toBe("x");
		// what is typed after an undo is a change of its own, not part of the undone one
		editor = typed(model.undo(editor), "xz", other);
		expect(editor.past).toHaveLength(4);
		expect(label(model.undo(editor))).toBe("x");
		// changes not typed (a button, a list) are a step each
		editor = model.edit(editor, (graph) => model.updateStep(graph, "agent_run_1", { label: "a" }));
		editor = model.edit(editor, (graph) => model.updateStep(graph, "agent_run_1", { label: "b" }));
		expect(label(model.undo(editor))).toBe("a");
		expect(model.pause(model.start(empty))).toEqual(model.start(empty));
	});

	it("does not remember selection as an edit", () => {
		const editor = model.live(model.start(leadFlow()), model.selectAll);
		expect(editor.past).toHaveLength(0);
		expect(editor.graph.nodes.every((node) => node.selected)).toBe(true);
	});
});

describe("delete, copy, paste and duplicate", () => {
	it("removes the selected steps with every connection touching them", () => {
		const graph = model.removeSelected(model.selectOnly(leadFlow(), "agent_run_1"));
		expect(ids(graph)).toEqual(["webhook_1", "human_approval_1", "end_1"]);
		expect(graph.edges.map((edge) => [edge.source, edge.target])).toEqual([["human_approval_1", "end_1"]]);
	});

	it("removes a selected connection alone", () => {
		const flow = leadFlow();
		const graph = model.removeSelected({ nodes: flow.nodes.map((node) => ({ ...node, selected: false })), edges: flow.edges.map((edge, index) => ({ ...edge, selected: index === 0 })) });
		expect(graph.nodes).toHaveLength(4);
		expect(graph.edges.map((edge) => edge.id)).toEqual(["edge_2", "edge_3"]);
	});

	it("pastes copies with new ids, their inner connections, settings of their own and an offset", () => {
		const flow = model.updateStep(leadFlow(), "agent_run_1", { config: { agent: "Scorer", prompt: "Score {{ trigger }}" } });
		const chosen = { ...flow, nodes: flow.nodes.map((node) => ({ ...node, selected: ["agent_run_1", "human_approval_1"].includes(node.id) })) };
		const piece = model.selection(chosen) as model.Graph;
		expect(piece.edges.map((edge) => edge.id)).toEqual(["edge_2"]);
		const pasted = model.paste(chosen, piece);
		const added = pasted.nodes.slice(4);
		expect(added.map((node) => node.id)).toEqual(["agent_run_2", "human_approval_2"]);
		expect(added.map((node) => node.data.label)).toEqual(["Ask an agent (copy)", "Ask for approval (copy)"]);
		expect(added[0]?.position).toEqual({ x: 340, y: 40 });
		expect(pasted.edges.at(-1)).toMatchObject({ id: "edge_4", source: "agent_run_2", target: "human_approval_2" });
		expect(pasted.nodes.filter((node) => node.selected).map((node) => node.id)).toEqual(["agent_run_2", "human_approval_2"]);
		(added[0] as StepNode).data.config.agent = "Changed";
		expect(flow.nodes[1]?.data.config.agent).toBe("Scorer");
	});

	it("duplicates nothing when nothing is selected", () => {
		const flow = model.live(model.start(leadFlow()), (graph) => ({ ...graph, nodes: graph.nodes.map((node) => ({ ...node, selected: false })) })).graph;
		expect(model.duplicate(flow)).toBe(flow);
	});
});

describe("saving what was drawn", () => {
	it("writes the shape the server reads and reads it back the same", () => {
		const drawn = model.updateLink(leadFlow(), "edge_2", { type: "expression", data: { condition: "nodes['agent_run_1'] > 50", priority: 2 } });
		const definition = toDefinition({ ...drawn, rest: { id: "qualify-leads", max_hops: 50 } });
		expect(definition).toMatchObject({ id: "qualify-leads", max_hops: 50 });
		expect(definition.edges?.[1]).toEqual({ id: "edge_2", source: "agent_run_1", target: "human_approval_1", type: "expression", priority: 2, condition: "nodes['agent_run_1'] > 50" });
		expect(definition.edges?.[2]).toMatchObject({ sourceHandle: "approved", type: "always" });
		expect(definition.nodes?.[1]).toEqual({ id: "agent_run_1", type: "agent.run", position: { x: 300, y: 0 }, data: { label: "Ask an agent", config: { output_format: "text" } } });
		const again = fromDefinition(definition);
		expect(toDefinition(again)).toEqual(definition);
	});

	it("reads a flow written by hand: config and label at the top, outcomes in meta, no positions", () => {
		const canvas = fromDefinition({ id: "x", nodes: [{ id: "a", type: "condition", label: "Hot?", config: { expression: "1 > 0" } }, { id: "b", type: "end" }], edges: [{ source: "a", target: "b", meta: { outcome: "TRUE" } }] });
		expect(canvas.nodes[0]).toMatchObject({ id: "a", data: { label: "Hot?", config: { expression: "1 > 0" } }, position: { x: 0, y: 0 } });
		expect(canvas.nodes[1]?.position).toEqual({ x: 0, y: 120 });
		expect(canvas.edges[0]).toMatchObject({ id: "edge-1", type: "always", sourceHandle: "true" });
	});
});

describe("tidy up", () => {
	it("lays the steps out left to right in the order of their connections, on the grid", () => {
		const scattered = leadFlow();
		const placed = arrange({ ...scattered, nodes: scattered.nodes.map((node, index) => ({ ...node, position: { x: 1000 - index * 300, y: index * 77 } })) });
		const xs = placed.nodes.map((node) => node.position.x);
		expect(xs).toEqual([...xs].sort((a, b) => a - b));
		expect(new Set(xs).size).toBe(4);
		for (const node of placed.nodes) expect([node.position.x % GRID, node.position.y % GRID].map(Math.abs)).toEqual([0, 0]);
	});
});
