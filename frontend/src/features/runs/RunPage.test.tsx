import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../../test/render";
import RunPage from "./RunPage";

let detail: Record<string, unknown> = {};
vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async () => detail),
}));

afterEach(cleanup);

const agentRun = { name: "run-1", agent: "Scorer", user: "ann@example.com", status: "Success", prompt: "Score A-1", response: "80", model: "openai/gpt-4o-mini" };

const show = () => renderPage({ "/runs/:name": <RunPage /> }, { path: "/runs/run-1" });

describe("RunPage", () => {
	it("names the flow an agent's run is a step of, and links to that flow's run", async () => {
		detail = { run: { ...agentRun, flow_run: "FR-7", flow_id: "ship-orders", flow_name: "Ship orders" }, timeline: [], children: [], needs_attention: [] };
		show();
		const flow = await screen.findByTestId("run-flow");
		expect(flow.textContent).toBe("A step of a run of the flow Ship orders");
		expect(screen.getByRole("link", { name: "Ship orders" }).getAttribute("href")).toBe("/flows/runs/FR-7");
	});

	it("shows the image a tool made, with a Download link, above its input and result", async () => {
		const result = JSON.stringify(JSON.stringify({ success: true, files: [{ file_url: "/private/files/cat.png", file_name: "cat.png", kind: "image", content_type: "image/png" }] }));
		const step = { kind: "tool", at: "2026-12-07 10:00:00", tool: "generate_image", status: "Success", duration_ms: 900, arguments: JSON.stringify({ prompt: "A cat" }), result, error: null };
		detail = { run: agentRun, timeline: [step], children: [], needs_attention: [] };
		show();
		expect((await screen.findByRole("img", { name: "A cat" })).getAttribute("src")).toBe("/private/files/cat.png");
		expect(screen.getByRole("link", { name: "Download cat.png" }).getAttribute("download")).toBe("cat.png");
	});

	it("gives each tool call's step an address the assistant's explanation links to", async () => {
		const step = { kind: "tool", at: "2026-12-07 10:00:00", tool: "create_todo", status: "Failed", call_id: "call 1/x", duration_ms: 4, arguments: "{}", result: "{}", error: null };
		detail = { run: agentRun, timeline: [step], children: [], needs_attention: [] };
		show();
		expect((await screen.findByTestId("timeline-step")).id).toBe("call-call_1_x");
	});

	it("says nothing of flows for a run that is not part of one", async () => {
		detail = { run: { ...agentRun, flow_run: null, flow_id: null, flow_name: null }, timeline: [], children: [], needs_attention: [] };
		show();
		await screen.findByRole("heading", { level: 1 });
		expect(screen.queryByTestId("run-flow")).toBeNull();
	});

	it("shows a planned run's plan: each step in order, done or not, with what it produced", async () => {
		const plan = {
			status: "Running",
			current_step: 2,
			steps: [
				{ step: 1, instruction: "Find the customer", status: "Done", output: "ACME" },
				{ step: 2, instruction: "Write the summary", status: "Pending", output: "" },
				{ step: 3, instruction: "Mail it", status: "Pending", output: "" },
			],
		};
		detail = { run: { ...agentRun, status: "Started" }, timeline: [], children: [], needs_attention: [], plan };
		show();
		const section = await screen.findByTestId("run-plan");
		expect(section.textContent).toContain("1 of 3 steps done");
		expect(screen.getAllByTestId("plan-step").map((step) => step.textContent)).toEqual(["1. Find the customerDoneACME", "2. Write the summaryNext", "3. Mail itTo do"]);
	});

	it("shows no plan for a run without one", async () => {
		detail = { run: agentRun, timeline: [], children: [], needs_attention: [], plan: null };
		show();
		await screen.findByRole("heading", { level: 1 });
		expect(screen.queryByTestId("run-plan")).toBeNull();
	});
});
