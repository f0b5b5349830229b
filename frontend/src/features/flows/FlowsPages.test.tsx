import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { api, resetApi } from "../../test/fakeApi";
import { renderPage } from "../../test/render";
import ApprovalsPage from "./ApprovalsPage";
import FlowRunPage from "./FlowRunPage";
import FlowsPage from "./FlowsPage";

vi.mock("../../lib/api", async (original) => ({ ...(await original<typeof import("../../lib/api")>()), call: (await import("../../test/fakeApi")).fakeCall }));
const calls = api.calls;

afterEach(() => {
	cleanup();
	resetApi();
});

const me = (manager: boolean, user = "ann@example.com") => ({ user, full_name: "Ann", capabilities: { "flow.read": true, "flow.run": true, "flow.write": manager } });

const show = (path: string, element: ReactNode, route = path) => renderPage({ [route]: element }, { path, me: api.replies.get_me });

const flowRow = { flow_id: "ship-orders", flow_name: "Ship orders", status: "Active", version: 3, updated_by: "boss@example.com", updated_at: "2026-01-02 10:00:00", modified_by: "boss@example.com", modified: "2026-01-02 10:00:00", last_run: { name: "r1", status: "Failed", creation: "2026-01-03 09:00:00" } };

describe("FlowsPage", () => {
	it("lists flows with status, version and last run; a Huf User cannot create one", async () => {
		api.replies = { get_me: me(false), list_flows: [flowRow] };
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
		api.replies = { get_me: me(true), list_flows: [], save_flow_definition: (args: Record<string, unknown>) => ({ flow_id: args.flow_id }) };
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
	name: "r1", flow_definition: "ship-orders", flow_name: "Ship orders", flow_version: 3, status: "Failed", user: "ann@example.com", trigger_type: "Manual", current_node_id: "notify",
	hop_count: 2, max_hops: 100, started_at: "2026-01-03 09:00:00", completed_at: "2026-01-03 09:00:02", last_error: "Node notify failed", context: { trigger: {} }, waiting: null, can_approve: false, can_resolve: false,
	steps: [
		{ hop: 1, node_id: "ask", node_label: "Ask the boss", node_type: "human.approval", status: "Success", agent_run: null, output: "{\"outcome\": \"approved\"}", error: null, started_at: null, duration_ms: 12, repeats: 0 },
		{ hop: 2, node_id: "notify", node_label: "Tell the shop", node_type: "http_request", status: "Failed", agent_run: null, output: null, error: "The shop answered 500: out of paper", started_at: null, duration_ms: 1500, repeats: 0 },
	],
};

describe("FlowRunPage", () => {
	it("puts the failing step and its reason first and lets the owner resume", async () => {
		const user = userEvent.setup();
		api.replies = { get_me: me(false), get_flow_run: run, resume_flow_run: { status: "Queued" } };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const failure = await screen.findByTestId("run-failure");
		expect(screen.getByRole("heading", { level: 1, name: "Run of Ship orders" })).toBeTruthy(); // the flow's name, not its id
		expect(screen.getByRole("link", { name: "Back to Ship orders" }).getAttribute("href")).toBe("/flows/ship-orders");
		expect(failure.textContent).toContain('It failed at the step "Tell the shop" (Call a web address).');
		expect(failure.textContent).toContain("The shop answered 500: out of paper");
		expect(screen.getAllByTestId("run-step")).toHaveLength(2);
		expect(screen.getByText("2 of at most 100")).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Resume" }));
		expect(calls.find((call) => call.method.endsWith("resume_flow_run"))?.args).toEqual({ flow_run: "r1" });
	});

	it("offers no Resume to someone else's run", async () => {
		api.replies = { get_me: me(false, "bob@example.com"), get_flow_run: run };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		await screen.findByTestId("run-failure");
		expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
	});
});

const MESSAGE = "Huf was interrupted while running the step 'Tell the shop' (for example, the server restarted). The step may or may not have acted.";
const interrupted = {
	...run, status: "Needs Attention", completed_at: null, last_error: null, can_resolve: true,
	waiting: { kind: "attention", node_id: "notify", label: "Tell the shop", message: MESSAGE, since: "2026-01-03 09:00:02", approvers: { users: [], roles: [] } },
	steps: [run.steps[0], { ...run.steps[1], status: "Needs Attention", error: MESSAGE, repeats: 2 }],
};
const reads = () => calls.filter((call) => call.method.endsWith("get_flow_run")).length;

describe("FlowRunPage: a run Huf was interrupted in", () => {
	it("says so with the server's message, shows the step's repeats, and skips with the value typed", async () => {
		const user = userEvent.setup();
		api.replies = { get_me: me(false), get_flow_run: interrupted, skip_flow_step: { status: "Queued" } };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const panel = await screen.findByTestId("run-attention");
		expect(within(panel).getByRole("heading", { name: "This run was interrupted" })).toBeTruthy();
		expect(within(panel).getByText(MESSAGE)).toBeTruthy();
		expect(screen.getAllByText("Needs your decision").map((badge) => badge.className)).toEqual([expect.stringContaining("bg-purple-100"), expect.stringContaining("bg-purple-100")]); // the run and its step
		expect(screen.getByText("Run again 2 times after interruptions")).toBeTruthy();
		const retry = within(panel).getByRole("button", { name: "Try the step again" });
		expect(document.getElementById(retry.getAttribute("aria-describedby") ?? "")?.textContent).toMatch(/Runs the step once more/);
		await user.click(within(panel).getByRole("button", { name: "Skip it" }));
		const value = within(panel).getByLabelText("What the step should give the next steps (optional)");
		expect(document.activeElement).toBe(value);
		await user.paste('{"id": 7}');
		const before = reads();
		await user.click(within(panel).getByRole("button", { name: "Skip the step" }));
		expect(calls.find((call) => call.method.endsWith("skip_flow_step"))?.args).toEqual({ flow_run: "r1", output: '{"id": 7}' });
		expect(await screen.findByText("The step was skipped: the run goes on.")).toBeTruthy();
		expect(reads()).toBeGreaterThan(before);
	});

	it("skips without a value as none, and ends the run only once confirmed", async () => {
		const user = userEvent.setup();
		api.replies = { get_me: me(false), get_flow_run: interrupted, skip_flow_step: { status: "Queued" }, end_flow_run: { status: "Cancelled" } };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const panel = await screen.findByTestId("run-attention");
		await user.click(within(panel).getByRole("button", { name: "End the run" }));
		const question = within(panel).getByRole("alertdialog");
		expect(question.textContent).toContain('The steps after "Tell the shop" will not run');
		expect(document.activeElement).toBe(within(question).getByRole("button", { name: "Keep it waiting" }));
		expect(calls.some((call) => call.method.endsWith("end_flow_run"))).toBe(false);
		await user.click(within(question).getByRole("button", { name: "Keep it waiting" }));
		expect(within(panel).queryByRole("alertdialog")).toBeNull();
		await user.click(within(panel).getByRole("button", { name: "End the run" }));
		await user.click(within(panel).getByRole("button", { name: "Yes, end the run" }));
		expect(calls.find((call) => call.method.endsWith("end_flow_run"))?.args).toEqual({ flow_run: "r1" });
		expect(await screen.findByText("You ended the run.")).toBeTruthy();
		await user.click(within(panel).getByRole("button", { name: "Skip it" }));
		await user.click(within(panel).getByRole("button", { name: "Skip the step" }));
		expect(calls.find((call) => call.method.endsWith("skip_flow_step"))?.args).toEqual({ flow_run: "r1", output: null });
	});

	it("says plainly when someone else decided first, and reads the run again", async () => {
		const user = userEvent.setup();
		api.replies = {
			get_me: me(false),
			get_flow_run: interrupted,
			retry_flow_step: () => {
				throw new ApiError("This flow run does not need attention (it is Queued); nothing was changed.", 409);
			},
		};
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const panel = await screen.findByTestId("run-attention");
		const before = reads();
		await user.click(within(panel).getByRole("button", { name: "Try the step again" }));
		expect(calls.find((call) => call.method.endsWith("retry_flow_step"))?.args).toEqual({ flow_run: "r1" });
		expect((await screen.findByText(/Someone else decided what happens to this run before you did/)).getAttribute("role")).toBe("status");
		expect(reads()).toBeGreaterThan(before);
		expect(screen.queryByText(/does not need attention/)).toBeNull();
	});

	it("offers no choice to someone who may not decide, and says who may", async () => {
		api.replies = { get_me: me(false, "bob@example.com"), get_flow_run: { ...interrupted, can_resolve: false } };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		const panel = await screen.findByTestId("run-attention");
		expect(within(panel).queryByRole("button")).toBeNull();
		expect(within(panel).getByText(/the flow's approvers or a Huf Manager decide what happens next/)).toBeTruthy();
	});

	it("shows an ended run with who ended it and the step as ended there, not as a failure", async () => {
		const reason = "ann@example.com ended the run at the step Tell the shop, which may or may not have acted before its worker stopped.";
		const ended = { ...interrupted, status: "Cancelled", can_resolve: false, waiting: null, last_error: reason, steps: [run.steps[0], { ...run.steps[1], status: "Cancelled", error: reason }] };
		api.replies = { get_me: me(false), get_flow_run: ended };
		show("/flows/runs/r1", <FlowRunPage />, "/flows/runs/:run");
		expect((await screen.findByTestId("run-ended")).textContent).toContain(reason);
		expect(screen.queryByTestId("run-failure")).toBeNull();
		expect(screen.queryByTestId("run-attention")).toBeNull();
		expect(screen.getAllByText(reason).some((node) => node.className.includes("text-slate-700"))).toBe(true);
	});
});

describe("ApprovalsPage", () => {
	it("shows only runs I may decide, with the question and input, and approves with my comment", async () => {
		const user = userEvent.setup();
		const waiting = (name: string, can_approve: boolean) => ({ ...run, name, status: "Waiting Approval", can_approve, steps: [], context: { trigger: { order: "A-1" } }, waiting: { node_id: "ask", message: `Ship ${name}?` } });
		api.replies = {
			get_me: me(false),
			list_flow_runs: (args: Record<string, unknown>) => (args.status === "Waiting Approval" ? [{ ...run, name: "mine", status: "Waiting Approval" }, { ...run, name: "theirs", status: "Waiting Approval" }] : []),
			get_flow_run: (args: Record<string, unknown>) => waiting(String(args.flow_run), args.flow_run === "mine"),
			approve_flow_run: { status: "Running" },
		};
		show("/flows/approvals", <ApprovalsPage />);
		const card = await screen.findByTestId("approval");
		expect(screen.getAllByTestId("approval")).toHaveLength(1);
		expect(within(card).getByText("Ship mine?")).toBeTruthy();
		expect(within(card).getByText(/"order": "A-1"/)).toBeTruthy();
		expect(calls.filter((call) => call.method.endsWith("list_flow_runs")).map((call) => call.args.status)).toEqual(["Waiting Approval", "Needs Attention"]);
		await user.type(within(card).getByLabelText("Comment (optional)"), "Fine by me");
		await user.click(within(card).getByRole("button", { name: "Approve" }));
		expect(calls.find((call) => call.method.endsWith("approve_flow_run"))?.args).toEqual({ flow_run: "mine", comment: "Fine by me" });
	});

	it("lists interrupted runs I may decide for, and tries the step again", async () => {
		const user = userEvent.setup();
		api.replies = {
			get_me: me(false),
			list_flow_runs: (args: Record<string, unknown>) => (args.status === "Needs Attention" ? [{ ...run, name: "stuck", status: "Needs Attention" }, { ...run, name: "elsewhere", status: "Needs Attention" }] : []),
			get_flow_run: (args: Record<string, unknown>) => ({ ...interrupted, name: args.flow_run, can_resolve: args.flow_run === "stuck" }),
			retry_flow_step: { status: "Queued" },
		};
		show("/flows/approvals", <ApprovalsPage />);
		const card = await screen.findByTestId("attention");
		expect(screen.getAllByTestId("attention")).toHaveLength(1);
		expect(screen.queryByTestId("approval")).toBeNull();
		expect(within(card).getByText("This run was interrupted")).toBeTruthy();
		expect(within(card).getByText(MESSAGE)).toBeTruthy();
		await user.click(within(card).getByRole("button", { name: "Try the step again" }));
		expect(calls.find((call) => call.method.endsWith("retry_flow_step"))?.args).toEqual({ flow_run: "stuck" });
		expect(await screen.findByText("The step is being tried again.")).toBeTruthy();
	});
});
