import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Config, LinkEdge, NodeType, StepNode } from "./catalog";
import { StepSettings, type StepSettingsProps } from "./StepSettings";

const lists: Record<string, unknown[]> = {
	Agent: [
		{ name: "Lead Scorer", disabled: 0 },
		{ name: "Old Bot", disabled: 1 },
	],
	"Agent Tool Function": [{ name: "create_opportunity", description: "Makes an opportunity" }],
};
const docs: Record<string, unknown> = {
	make_record: { name: "make_record", requires_approval: 0, types: "Create Document", reference_doctype: "ToDo", parameters: [] },
	create_opportunity: { name: "create_opportunity", requires_approval: 1, parameters: [{ fieldname: "lead", label: "Lead", type: "string", required: 1 }, { fieldname: "amount", type: "number" }, { fieldname: "urgent", type: "boolean" }] },
};
const searches: Record<string, { value: string; description?: string }[]> = {
	User: [
		{ value: "ann@example.com", description: "Ann Lee" },
		{ value: "bob@example.com", description: "Bob Roy" },
	],
};

vi.mock("../../../lib/api", async (original) => ({
	...(await original<typeof import("../../../lib/api")>()),
	getList: vi.fn(async (doctype: string) => lists[doctype] ?? []),
	getDoc: vi.fn(async (_doctype: string, name: string) => docs[name]),
	call: vi.fn(async (_method: string, args: { doctype: string; txt: string }) => (searches[args.doctype] ?? []).filter((row) => row.value.includes(args.txt) || row.description?.toLowerCase().includes(args.txt.toLowerCase()))),
}));

afterEach(cleanup);

const step = (id: string, type: NodeType, config: Config, label = id): StepNode => ({ id, type, position: { x: 0, y: 0 }, data: { label, config } });
const noProblems = { fields: {}, general: [] };

type Shown = { changes: Config[]; labels: string[]; onConnect: ReturnType<typeof vi.fn<StepSettingsProps["onConnect"]>>; onDisconnect: ReturnType<typeof vi.fn<StepSettingsProps["onDisconnect"]>> };

/** The panel as the canvas uses it: the step's settings are held above it and follow each change. */
function show(first: StepNode, others: StepNode[] = [], edges: LinkEdge[] = [], extra: Partial<StepSettingsProps> = {}): Shown {
	const shown: Shown = { changes: [], labels: [], onConnect: vi.fn<StepSettingsProps["onConnect"]>(), onDisconnect: vi.fn<StepSettingsProps["onDisconnect"]>() };
	function Canvas() {
		const [node, setNode] = useState(first);
		return (
			<StepSettings
				node={node}
				nodes={[node, ...others]}
				edges={edges}
				problems={noProblems}
				onChange={(patch) => {
					if (patch.config) shown.changes.push(patch.config);
					if (patch.label !== undefined) shown.labels.push(patch.label);
					setNode((current) => ({ ...current, data: { label: patch.label ?? current.data.label, config: patch.config ?? current.data.config } }));
				}}
				onConnect={shown.onConnect}
				onDisconnect={shown.onDisconnect}
				{...extra}
			/>
		);
	}
	const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
	render(
		<QueryClientProvider client={client}>
			<Canvas />
		</QueryClientProvider>,
	);
	return shown;
}

const last = (shown: Shown) => shown.changes[shown.changes.length - 1];

describe("StepSettings: asking an agent", () => {
	const agentStep = () => step("score", "agent.run", { agent: "", prompt: "", output_format: "text", output_key: "score" }, "Score lead");

	it("shows the kind, offers the site's agents and gives back the whole settings on each change", async () => {
		const user = userEvent.setup();
		const shown = show(agentStep(), [step("start", "trigger.webhook", {}, "Lead comes in")], [{ id: "e1", source: "start", target: "score" }]);
		expect(screen.getByRole("heading", { name: "Ask an agent" })).toBeTruthy();
		expect(screen.getByText("An agent reads your instructions and answers or acts.")).toBeTruthy();
		const agent = screen.getByLabelText("Agent");
		expect(await within(agent).findByRole("option", { name: "Old Bot (turned off)" })).toBeTruthy();
		await user.selectOptions(agent, "Lead Scorer");
		await user.type(screen.getByLabelText("Instructions"), "Rate it");
		expect(last(shown)).toEqual({ agent: "Lead Scorer", prompt: "Rate it", output_format: "text", output_key: "score" });
		await user.type(screen.getByLabelText("Name"), "!");
		expect(shown.labels).toEqual(["Score lead!"]);
	});

	it("puts a value from an earlier step where the cursor is", async () => {
		const user = userEvent.setup();
		const shown = show(step("score", "agent.run", { agent: "Lead Scorer", prompt: "Score  now" }), [step("start", "trigger.webhook", {}, "Lead comes in")], [{ id: "e1", source: "start", target: "score" }]);
		const prompt = screen.getByLabelText("Instructions") as HTMLTextAreaElement;
		await user.click(prompt);
		prompt.setSelectionRange(6, 6);
		await user.click(screen.getByRole("button", { name: "Insert Lead comes in" }));
		expect(last(shown)?.prompt).toBe("Score {{ nodes.start }} now");
		await user.click(screen.getByRole("button", { name: "Insert Run input" }));
		expect(last(shown)?.prompt).toBe("Score {{ nodes.start }}{{ trigger }} now");
	});

	it("shows each problem under its field, tied to it, and the problems no field shows at the top", () => {
		const problems = { fields: { prompt: ["It has no prompt; write what the agent should do."], colour: ["Its colour is not one Huf knows."] }, general: ["Nothing leads to this step."] };
		show(agentStep(), [], [], { problems });
		const prompt = screen.getByLabelText("Instructions");
		expect(prompt.getAttribute("aria-invalid")).toBe("true");
		const note = document.getElementById(prompt.getAttribute("aria-describedby") ?? "");
		expect(note?.textContent).toBe("It has no prompt; write what the agent should do.");
		expect(screen.getByLabelText("Agent").getAttribute("aria-invalid")).toBe("false");
		const top = within(screen.getByRole("alert")).getAllByRole("listitem").map((item) => item.textContent);
		expect(top).toEqual(["Nothing leads to this step.", "Its colour is not one Huf knows."]);
	});

	it("read-only, shows the settings but nothing can be changed", async () => {
		const user = userEvent.setup();
		const shown = show(step("score", "agent.run", { agent: "Lead Scorer", prompt: "Rate it" }), [step("end", "end", {})], [], { readOnly: true });
		const prompt = screen.getByLabelText("Instructions") as HTMLTextAreaElement;
		expect(prompt.value).toBe("Rate it");
		for (const control of [prompt, screen.getByLabelText("Name"), screen.getByLabelText("Agent"), screen.getByRole("button", { name: "Add" })]) expect(control.matches(":disabled")).toBe(true);
		await user.type(prompt, "x");
		expect(shown.changes).toEqual([]);
	});
});

describe("StepSettings: asking for approval", () => {
	const ask = () => step("ask", "human.approval", { approval_type: "user", users: [], roles: [], message: "" }, "Ask the boss");
	const others = [step("ship", "tool.call", {}, "Ship it"), step("stop", "end", {}, "Stop")];

	it("adds people found on the site and removes them again", async () => {
		const user = userEvent.setup();
		const shown = show(ask(), others);
		await user.type(screen.getByLabelText("Find a person"), "ann");
		await user.click(await screen.findByRole("button", { name: "Add Ann Lee (ann@example.com)" }));
		expect(last(shown)).toEqual({ approval_type: "user", users: ["ann@example.com"], roles: [], message: "" });
		await user.click(screen.getByRole("button", { name: "Remove ann@example.com" }));
		expect(last(shown)?.users).toEqual([]);
		await user.click(screen.getByLabelText("Anyone with a role"));
		expect(last(shown)?.approval_type).toBe("role");
		expect(screen.getByLabelText("Find a role")).toBeTruthy();
	});

	it("connects each way out to the step chosen, and removes a connection", async () => {
		const user = userEvent.setup();
		const shown = show(ask(), others, [{ id: "e-no", source: "ask", target: "stop", sourceHandle: "rejected" }]);
		const approved = screen.getByRole("group", { name: "Approved" });
		expect(within(approved).getByText("Not connected yet.")).toBeTruthy();
		await user.selectOptions(within(approved).getByLabelText("Then go to…"), "Ship it");
		await user.click(within(approved).getByRole("button", { name: "Add" }));
		expect(shown.onConnect).toHaveBeenCalledWith({ source: "ask", sourceHandle: "approved", target: "ship" });
		const rejected = screen.getByRole("group", { name: "Rejected" });
		expect(within(rejected).getByText("Goes to Stop")).toBeTruthy();
		await user.click(within(rejected).getByRole("button", { name: "Remove the connection to Stop" }));
		expect(shown.onDisconnect).toHaveBeenCalledWith("e-no");
	});
});

describe("StepSettings: other kinds", () => {
	it("keeps a header row whose name is still empty, and gives out the named ones in order", async () => {
		const user = userEvent.setup();
		const shown = show(step("call", "http_request", { method: "GET", url: "https://api.example.com", headers: { Accept: "text/plain" } }));
		await user.click(screen.getByRole("button", { name: "Add a header" }));
		await user.type(screen.getByLabelText("Header value 2"), "abc");
		expect(screen.getAllByLabelText(/Header name/)).toHaveLength(2);
		expect(last(shown)?.headers).toEqual({ Accept: "text/plain" });
		await user.type(screen.getByLabelText("Header name 2"), "X-Key");
		expect(last(shown)?.headers).toEqual({ Accept: "text/plain", "X-Key": "abc" });
		await user.clear(screen.getByLabelText("Header name 1"));
		expect(last(shown)?.headers).toEqual({ "X-Key": "abc" });
		expect((screen.getByLabelText("Header value 1") as HTMLInputElement).value).toBe("text/plain");
	});

	it("asks whether the receiver honours the Idempotency-Key only for POST and PATCH, and forgets the answer for other methods", async () => {
		const user = userEvent.setup();
		const shown = show(step("call", "http_request", { method: "GET", url: "https://api.example.com", headers: {} }));
		const question = /ignores repeats with the same Idempotency-Key/;
		expect(screen.queryByLabelText(question)).toBeNull();
		await user.selectOptions(screen.getByLabelText("Method"), "POST");
		const box = screen.getByLabelText(question) as HTMLInputElement;
		expect(box.checked).toBe(false);
		expect(box.getAttribute("aria-describedby")).toBeTruthy();
		expect(document.getElementById(box.getAttribute("aria-describedby") ?? "")?.textContent).toMatch(/Huf sends an Idempotency-Key with every POST and PATCH/);
		await user.click(box);
		expect(last(shown)).toMatchObject({ method: "POST", idempotent: true });
		await user.selectOptions(screen.getByLabelText("Method"), "PATCH");
		expect((screen.getByLabelText(question) as HTMLInputElement).checked).toBe(true);
		expect(last(shown)?.idempotent).toBe(true);
		await user.selectOptions(screen.getByLabelText("Method"), "PUT");
		expect(screen.queryByLabelText(question)).toBeNull();
		expect(last(shown)).not.toHaveProperty("idempotent");
		await user.selectOptions(screen.getByLabelText("Method"), "POST");
		await user.click(screen.getByLabelText(question));
		await user.click(screen.getByLabelText(question));
		expect(last(shown)?.idempotent).toBe(false);
	});

	it("shows a chosen tool's inputs, says it must be approved first, and keeps numbers as numbers", async () => {
		const user = userEvent.setup();
		const shown = show(step("make", "tool.call", { tool: "create_opportunity", arguments: {} }));
		expect(await screen.findByText(/This tool asks a person before it runs/)).toBeTruthy();
		await user.type(screen.getByLabelText("Lead (required)"), "{{{{ trigger.lead }}"); // "{{" types one "{"
		await user.type(screen.getByLabelText("amount"), "12.5");
		await user.click(screen.getByLabelText("urgent"));
		expect(last(shown)).toEqual({ tool: "create_opportunity", arguments: { lead: "{{ trigger.lead }}", amount: 12.5, urgent: true } });
	});

	it("lets inputs be named for a tool that lists none, keeping a record typed in braces as a record", async () => {
		const user = userEvent.setup();
		const shown = show(step("make", "tool.call", { tool: "make_record", arguments: {} }));
		await user.click(await screen.findByRole("button", { name: "Add an input" }));
		await user.type(screen.getByLabelText("Input name 1"), "data");
		await user.type(screen.getByLabelText("Value 1"), '{{"description": "Call"}');
		expect(last(shown)).toEqual({ tool: "make_record", arguments: { data: { description: "Call" } } });
		expect(screen.queryByText("This tool takes no inputs.")).toBeNull();
	});

	it("keeps a result that reads as structured data as such, and a text as text", async () => {
		const user = userEvent.setup();
		const shown = show(step("end", "end", {}));
		const result = screen.getByLabelText("Result (optional)");
		await user.type(result, '{{"ok": true}');
		expect(last(shown)).toEqual({ output: { ok: true } });
		await user.type(result, " and more");
		expect(last(shown)?.output).toBe('{"ok": true} and more');
		await user.clear(result);
		expect(last(shown)).toEqual({});
	});
});
