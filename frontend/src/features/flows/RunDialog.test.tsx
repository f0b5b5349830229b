import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../../test/render";
import { RunDialog, type RunChoice } from "./RunDialog";
import type { Definition } from "./rules";

const calls: { method: string; args: Record<string, unknown> }[] = [];

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		return { flow_run: method.endsWith("run_flow_draft") ? "test-run-1" : "run-1" };
	}),
}));

afterEach(() => {
	cleanup();
	calls.length = 0;
});

const draft: Definition = { nodes: [{ id: "shape", type: "transform", data: { label: "Shape the letter", config: { mode: "template", template: "Hi", key: "letter" } } }], edges: [] };

function show(props: { draft: Definition | null; dirty: boolean; active?: boolean }) {
	const started: [string, RunChoice][] = [];
	const closed = vi.fn();
	renderPage(<RunDialog flowId="ship-orders" version={3} active={props.active ?? true} draft={props.draft} dirty={props.dirty} onStarted={(run, choice) => started.push([run, choice])} onClose={closed} />);
	return { started, closed };
}

describe("RunDialog", () => {
	it("with unsaved changes, runs the steps on screen as a test run by default, with its input", async () => {
		const user = userEvent.setup();
		const { started } = show({ draft, dirty: true });
		expect((screen.getByRole("radio", { name: /Run this draft/ }) as HTMLInputElement).checked).toBe(true);
		expect(screen.getByRole("radio", { name: /Run the active version/ })).toBeTruthy();
		expect(screen.getByText(/unsaved changes included/)).toBeTruthy();
		await user.type(screen.getByLabelText("Input (optional)"), '{{"who": "Ada"}');
		await user.click(screen.getByRole("button", { name: "Start test run" }));
		await vi.waitFor(() => expect(started).toEqual([["test-run-1", "draft"]]));
		expect(calls).toEqual([{ method: "huf.ai.flow.api.run_flow_draft", args: { flow_id: "ship-orders", definition: draft, payload: { who: "Ada" } } }]);
	});

	it("runs the saved version when chosen, and says the unsaved changes are not in it", async () => {
		const user = userEvent.setup();
		const { started } = show({ draft, dirty: true, active: false });
		await user.click(screen.getByRole("radio", { name: /Run the saved version/ }));
		expect(screen.getByText(/your unsaved changes are not in it/)).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Start run" }));
		await vi.waitFor(() => expect(started).toEqual([["run-1", "saved"]]));
		expect(calls.map((call) => call.method)).toEqual(["huf.ai.flow.api.run_flow"]);
	});

	it("offers the saved version first when nothing changed, and only it to someone who may not change the flow", () => {
		show({ draft, dirty: false });
		expect((screen.getByRole("radio", { name: /Run the active version/ }) as HTMLInputElement).checked).toBe(true);
		cleanup();
		show({ draft: null, dirty: false });
		expect(screen.queryByRole("radio")).toBeNull();
		expect(screen.getByRole("button", { name: "Start run" })).toBeTruthy();
	});
});
