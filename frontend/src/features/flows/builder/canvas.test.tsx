// The canvas's own pure parts: Tidy up keeps the names readable, a way out's "+" adds a step after
// it and connects it (through the keyboard-usable picker too), links back up the flow go around
// their steps with an arrow at the way in, and connections are announced by their steps' names.
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LinkEdge, NodeType, StepNode } from "./catalog";
import { linkLabel } from "./Canvas";
import type { Graph } from "./editor";
import { tidy } from "./layout";
import { addAfter, findKinds } from "./place";
import { aroundPath, arrowHead, goesBack } from "./routes";
import { STEP_WIDTH, stepBox } from "./sizes";
import { StepPicker } from "./StepPicker";
import { READABLE_ZOOM } from "./view";

afterEach(cleanup);

const node = (id: string, type: NodeType, x = 0, y = 0, label = id): StepNode => ({ id, type, position: { x, y }, data: { label, config: {} } });
const link = (source: string, target: string, sourceHandle?: string): LinkEdge => ({ id: `${source}-${target}`, source, target, type: "always", data: {}, ...(sourceHandle ? { sourceHandle } : {}) });

/** A flow of `size` steps: a trigger, then a chain with a condition every fifth step whose "No" skips ahead. */
function flowOf(size: number): Graph {
	const nodes: StepNode[] = [node("start", "trigger.webhook")];
	const edges: LinkEdge[] = [];
	for (let n = 1; n < size; n++) {
		const type: NodeType = n === size - 1 ? "end" : n % 5 === 0 ? "condition" : "agent.run";
		nodes.push(node(`s${n}`, type));
		const before = nodes[n - 1]!;
		edges.push(link(before.id, `s${n}`, before.type === "condition" ? "true" : undefined));
		if (before.type === "condition" && n + 2 < size) edges.push(link(before.id, `s${n + 2}`, "false"));
	}
	return { nodes, edges };
}

describe("Tidy up", () => {
	for (const size of [6, 50, 200])
		for (const [width, height] of [
			[1200, 800],
			[560, 600],
			[360, 500],
		] as const)
			it(`keeps ${size} steps readable on a ${width}x${height} canvas`, () => {
				const { graph, view } = tidy(flowOf(size), width, height);
				expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
				// Left to right: every connection but a link back goes right.
				const x = new Map(graph.nodes.map((step) => [step.id, step.position.x]));
				for (const edge of graph.edges) expect(x.get(edge.target)!).toBeGreaterThan(x.get(edge.source)!);
				// No two steps overlap.
				const boxes = graph.nodes.map((step) => ({ ...step.position, height: stepBox(step.type, false).height }));
				for (let a = 0; a < boxes.length; a++)
					for (let b = a + 1; b < boxes.length; b++) {
						const [p, q] = [boxes[a]!, boxes[b]!];
						expect(p.x < q.x + STEP_WIDTH && q.x < p.x + STEP_WIDTH && p.y < q.y + q.height && q.y < p.y + p.height).toBe(false);
					}
				// The start is on screen.
				const start = graph.nodes[0]!.position;
				const left = start.x * view.zoom + view.x;
				expect(left).toBeGreaterThanOrEqual(0);
				expect(left).toBeLessThan(width);
			});

	it("shows the whole of a small flow when it fits", () => {
		const { view } = tidy(flowOf(3), 1200, 800);
		expect(view.zoom).toBeGreaterThan(1);
	});
});

describe("adding after a way out", () => {
	it("places the new step to the right of the step, connected to that way out", () => {
		const graph = { nodes: [node("start", "trigger.webhook", 100, 200, "Order comes in")], edges: [] };
		const next = addAfter(graph, { source: "start", sourceHandle: null }, "agent.run");
		const added = next.nodes.at(-1)!;
		expect(added).toMatchObject({ type: "agent.run", selected: true, data: { label: "Ask an agent" } });
		expect(added.position.x).toBeGreaterThanOrEqual(100 + STEP_WIDTH);
		expect(added.position.y).toBe(200);
		expect(next.edges).toEqual([expect.objectContaining({ source: "start", target: added.id, type: "always" })]);
	});

	it("connects the named way out and goes below what is already there", () => {
		let graph: Graph = { nodes: [node("check", "condition", 0, 0)], edges: [] };
		graph = addAfter(graph, { source: "check", sourceHandle: "true" }, "agent.run");
		graph = addAfter(graph, { source: "check", sourceHandle: "false" }, "end");
		const [yes, no] = [graph.nodes[1]!, graph.nodes[2]!];
		expect(graph.edges.map((edge) => [edge.sourceHandle, edge.target])).toEqual([
			["true", yes.id],
			["false", no.id],
		]);
		expect(no.position.y).toBeGreaterThanOrEqual(yes.position.y + stepBox("agent.run", false).height);
	});

	it("adds nothing that cannot follow: a trigger, or after a finish", () => {
		const graph = { nodes: [node("start", "trigger.webhook"), node("done", "end", 300)], edges: [] };
		expect(addAfter(graph, { source: "start", sourceHandle: null }, "trigger.schedule")).toBe(graph);
		expect(addAfter(graph, { source: "done", sourceHandle: null }, "agent.run")).toBe(graph);
	});

	it("finds kinds by any words of their title or description, never a trigger", () => {
		expect(findKinds("").some((kind) => kind.type.startsWith("trigger."))).toBe(false);
		expect(findKinds("approv").map((kind) => kind.type)).toEqual(["human.approval"]);
		expect(findKinds("web address").map((kind) => kind.type)).toEqual(["http_request"]);
	});

	it("the picker narrows as you type and adds with the keyboard alone", async () => {
		const onPick = vi.fn();
		render(<StepPicker after="Order comes in" onPick={onPick} onClose={() => {}} />);
		expect(screen.getByRole("dialog", { name: "Add a step after Order comes in" })).toBeTruthy();
		const find = screen.getByRole("combobox", { name: "Find a step" });
		expect(document.activeElement).toBe(find);
		await userEvent.type(find, "condition");
		expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([expect.stringContaining("Check a condition")]);
		await userEvent.clear(find);
		await userEvent.keyboard("{ArrowDown}{ArrowDown}{ArrowUp}{Enter}");
		expect(onPick).toHaveBeenCalledWith(findKinds("")[1]!.type);
	});
});

describe("connections", () => {
	it("a link back up the flow runs below both steps and ends moving right into the way in", () => {
		expect(goesBack(500, 100)).toBe(true);
		expect(goesBack(100, 500)).toBe(false);
		const [path, , labelY] = aroundPath(500, 50, 100, 60, 120);
		const ys = [...path.matchAll(/-?\d+(\.\d+)? (-?\d+(\.\d+)?)/g)].map((match) => Number(match[2]));
		expect(Math.max(...ys)).toBeGreaterThan(120);
		expect(labelY).toBeGreaterThan(120);
		expect(path.endsWith("L 100 60")).toBe(true);
		expect(arrowHead(100, 60)).toBe("M 92 56 L 100 60 L 92 64 Z");
	});

	it("is announced by its steps' names and way out, never their ids", () => {
		const steps = new Map([
			["condition_1", node("condition_1", "condition", 0, 0, "Is it big?")],
			["end_1", node("end_1", "end", 300, 0, "Done")],
		]);
		expect(linkLabel(link("condition_1", "end_1", "true"), steps)).toBe("From Is it big? (Yes) to Done");
		expect(linkLabel(link("condition_1", "gone"), steps)).toBe("From Is it big? to a missing step");
	});
});
