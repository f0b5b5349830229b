import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import ApprovalsPage from "./ApprovalsPage";
import FlowRunPage from "./FlowRunPage";
import FlowsPage from "./FlowsPage";

const calls: { method: string; args: Record<string, unknown> }[] = [];
let replies: Record<string, unknown> = {};

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		const reply = replies[method.split(".").pop() ?? ""];
		return typeof reply === "function" ? reply(args) : reply;
	}),
}));

afterEach(() => {
	cleanup();
	calls.length = 0;
	replies = {};
});

const me = (manager: boolean, user = "ann@example.com") => ({ user, full_name: "Ann", is_manager: manager, capabilities: { "agent.run": true } });

function show(path: string, element: ReactNode, route = path) {
	const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
	client.setQueryData(["me"], replies.get_me); // who is signed in is known before the page draws
	render(
		<QueryClientProvider client={client}>
			<MemoryRouter initialEntries={[path]}>
				<Routes>
					<Route path={route} element={element} />
					<Route path="*" element={<p>Elsewhere</p>} />
				</Routes>
			</MemoryRouter>
		</QueryClientProvider>,
	);
}

const flowRow = { flow_id: "ship-orders", flow_name: "Ship orders", status: "Active", version: 3, updated_by: "boss@example.com", updated_at: "2026-01-02 10:00:00", modified_by: "boss@example.com", modified: "2026-01-02 10:00:00", last_run: { name: "r1", status: "Failed", creation: "2026-01-03 09:00:00" } };

describe("FlowsPage", () => {
	it("lists flows with status, version and last run; a Huf User cannot create one", async () => {
		replies = { get_me: me(false), list_flows: [flowRow] };
		show("/flows", <FlowsPage />);
		const row = (await screen.findByRole("link", { name: "Ship orders" })).closest("tr") as HTMLElement;
		expect(within(row).getByText("Active")).toBeTruthy();
		expect(within(row).getByText("3")).toBeTruthy();
		expect(within(row).getByText("Failed")).toBeTruthy();
		expect(within(row).getByText(/boss@example.com/)).toBeTruthy();
		expect(screen.queryByRole("button", { name: "New flow" })).toBeNull();
	});

	it("lets a manager create a flow with an ID made from its name, checked like the server", async () => {
		const user = userEvent.setup();
		replies = { get_me: me(true), list_flows: [], save_flow_definition: (args: Record<string, unknown>) => ({ flow_id: args.flow_id }) };
		show("/flows", <FlowsPage />);
		await user.click(await screen.findByRole("button", { name: "New flow" }));
		await user.type(screen.getByLabelText("Name"), "Qualify Leads");
		expect((screen.getByLabelText("Flow ID") as HTMLInputElement).value).toBe("qualify-leads");
		await user.clear(screen.getByLabelText("Flow ID"));
		await user.type(screen.getByLabelText("Flow ID"), "Bad ID");
		expect(screen.getByText(/Use only lower-case letters/)).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Create flow" }));
		expect(calls.some((call) => call.method.endsWith("save_flow_definition"))).toBe(false);
		await user.clear(screen.getByLabelText("Flow ID"));
		await user.type(screen.getByLabelText("Flow ID"), "leads-eu");
		await user.click(screen.getByRole("button", { name: "Create flow" }));
		expect(await screen.findByText("Elsewhere")).toBeTruthy();
		expect(calls.find((call) => call.method.endsWith("save_flow_definition"))?.args).toMatchObject({ flow_id: "leads-eu", flow_name: "Qualify Leads" });
	});
});

const run = {
	name: "r1", flow_definition: "ship-orders", flow_version: 3, status: "Failed", user: "ann@example.com", trigger_type: "Manual", current_node_id: "notify",
	hop_count: 2, max_hops: 100, started_at: "2026-01-03 09:00:00", completed_at: "2026-01-03 09:00:02", last_error: "Node notify failed", context: { trigger: {} }, waiting: null, can_approve: false,
	steps: [
		{ hop: 1, node_id: "ask", node_label: "Ask the boss", node_type: "human.approval", status: "Success", agent_run: null, output: "{\"outcome\": \"approved\"}", error: null, started_at: null, duration_ms: 12 },
		{ hop: 2, node_id: "notify", node_label: "Tell the shop", node_type: "http_request", status: "Failed", agent_run: null, output: null, error: "The shop answered 500: out of paper", started_at: null, duration_ms: 1500 },
	],
};

describe("FlowRunPage", () => {
	it("puts the failing step and its reason first and lets the owner resume", async () => {
		const user = userEvent.setup();
		replies = { get_me: me(false), get_flow_run: run, resume_flow_run: { status: "Queued" } };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const failure = await screen.findByTestId("run-failure");
		expect(failure.textContent).toContain('It failed at the step "Tell the shop" (Call a web address).');
		expect(failure.textContent).toContain("The shop answered 500: out of paper");
		expect(screen.getAllByTestId("run-step")).toHaveLength(2);
		expect(screen.getByText("2 of at most 100")).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Resume" }));
		expect(calls.find((call) => call.method.endsWith("resume_flow_run"))?.args).toEqual({ flow_run: "r1" });
	});

	it("offers no Resume to someone else's run", async () => {
		replies = { get_me: me(false, "bob@example.com"), get_flow_run: run };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		await screen.findByTestId("run-failure");
		expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
	});
});

describe("ApprovalsPage", () => {
	it("shows only runs I may decide, with the question and input, and approves with my comment", async () => {
		const user = userEvent.setup();
		const waiting = (name: string, can_approve: boolean) => ({ ...run, name, status: "Waiting Approval", can_approve, steps: [], context: { trigger: { order: "A-1" } }, waiting: { node_id: "ask", message: `Ship ${name}?` } });
		replies = {
			get_me: me(false),
			list_flow_runs: [{ ...run, name: "mine", status: "Waiting Approval" }, { ...run, name: "theirs", status: "Waiting Approval" }],
			get_flow_run: (args: Record<string, unknown>) => waiting(String(args.flow_run), args.flow_run === "mine"),
			approve_flow_run: { status: "Running" },
		};
		show("/flows/approvals", <ApprovalsPage />);
		const card = await screen.findByTestId("approval");
		expect(screen.getAllByTestId("approval")).toHaveLength(1);
		expect(within(card).getByText("Ship mine?")).toBeTruthy();
		expect(within(card).getByText(/"order": "A-1"/)).toBeTruthy();
		expect(calls.find((call) => call.method.endsWith("list_flow_runs"))?.args).toMatchObject({ status: "Waiting Approval" });
		await user.type(within(card).getByLabelText("Comment (optional)"), "Fine by me");
		await user.click(within(card).getByRole("button", { name: "Approve" }));
		expect(calls.find((call) => call.method.endsWith("approve_flow_run"))?.args).toEqual({ flow_run: "mine", comment: "Fine by me" });
	});
});
