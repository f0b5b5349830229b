import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { renderPage } from "../../test/render";
import { Editor } from "./ToolEditor";
import { emptyTool, toolFromDoc } from "./rules";

const saved: Record<string, unknown>[] = [];
const calls: { method: string; args: Record<string, unknown> }[] = [];
let saveReply: () => Promise<unknown> = async () => ({});

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		if (method === "huf.ai.http_handler.handle_http_request") return { success: true, status_code: 200, headers: { "content-type": "application/json" }, data: { items: [1, 2] }, final_url: "https://api.example.com/items" };
		return [];
	}),
	saveDoc: vi.fn(async (_doctype: string, doc: Record<string, unknown>) => {
		saved.push(doc);
		return saveReply();
	}),
}));

afterEach(() => {
	cleanup();
	saved.length = 0;
	calls.length = 0;
});

const renderEditor = (initial = emptyTool(), isNew = true, canWrite = true) => renderPage(<Editor isNew={isNew} initial={initial} canWrite={canWrite} saved={false} onSaved={() => undefined} />);

const webTool = toolFromDoc({ tool_name: "items_api", types: "GET", description: "Lists items.", base_url: "https://api.example.com", http_headers: [{ name: "h1", key: "X-Key", value: "********" }], modified: "2026-01-01" });

describe("ToolEditor", () => {
	it("shows the fields the chosen kind needs and refuses to save without them", async () => {
		const user = userEvent.setup();
		renderEditor();
		expect(screen.getByLabelText("Kind of record")).toBeTruthy();
		await user.selectOptions(screen.getByLabelText("What it does"), "Run Agent");
		expect(screen.queryByLabelText("Kind of record")).toBeNull();
		await user.type(screen.getByLabelText("Name the agent calls it by"), "ask_sales");
		await user.type(screen.getByLabelText("Description"), "Asks the sales agent.");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(screen.getByText("Choose the agent this tool asks.")).toBeTruthy();
		expect(saved).toHaveLength(0);
	});

	it("saves Ask before running with the tool", async () => {
		const user = userEvent.setup();
		saveReply = async () => ({ name: "items_api" });
		renderEditor(webTool, false);
		const ask = screen.getByLabelText(/Ask before running/) as HTMLInputElement;
		expect(ask.checked).toBe(false);
		await user.click(ask);
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]?.requires_approval).toBe(1);
	});

	it("says in plain words what Huf does if interrupted during the tool, and saves the DocType's value", async () => {
		const user = userEvent.setup();
		saveReply = async () => ({ name: "order_api" });
		renderEditor({ ...webTool, types: "POST" }, false);
		const choice = screen.getByLabelText("If Huf is interrupted during this tool") as HTMLSelectElement;
		expect([...choice.options].map((option) => [option.value, option.text])).toEqual([["Automatic", "Decide for me"], ["Safe to repeat", "Run it again"], ["Ask before repeating", "Ask me first"]]);
		expect(choice.value).toBe("Automatic");
		expect(screen.getByText("Huf asks you whether to retry, skip or stop.")).toBeTruthy();
		await user.selectOptions(screen.getByLabelText("What it does"), "GET");
		expect(screen.getByText("It only reads, so Huf runs it again.")).toBeTruthy();
		await user.selectOptions(screen.getByLabelText("What it does"), "Update Document");
		expect(screen.getByText("Changes to your records are undone and the tool runs again.")).toBeTruthy();
		await user.selectOptions(screen.getByLabelText("What it does"), "POST");
		await user.selectOptions(choice, "Run it again");
		expect(choice.getAttribute("aria-describedby")).toBeTruthy();
		expect(document.getElementById(choice.getAttribute("aria-describedby") ?? "")?.textContent).toMatch(/Idempotency-Key/);
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]?.effect).toBe("Safe to repeat");
	});

	it("shows a saved choice for interruptions", () => {
		renderEditor(toolFromDoc({ ...webTool, effect: "Ask before repeating" }), false);
		expect((screen.getByLabelText("If Huf is interrupted during this tool") as HTMLSelectElement).value).toBe("Ask before repeating");
		expect(screen.getByText("Huf asks you whether to retry, skip or stop.")).toBeTruthy();
	});

	it("never shows a saved header value, keeps it unless replaced, and shows the server's refusal by its field", async () => {
		const user = userEvent.setup();
		saveReply = async () => {
			throw new ApiError("The Base URL https://10.0.0.1 is a private address.", 417, "Address Not Allowed", "ValidationError");
		};
		renderEditor(webTool, false);
		const value = screen.getByLabelText("Value 1") as HTMLInputElement;
		expect(value.value).toBe("");
		expect(value.placeholder).toMatch(/Saved \(hidden\)/);
		await user.clear(screen.getByLabelText("Base address"));
		await user.type(screen.getByLabelText("Base address"), "https://10.0.0.1");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]?.http_headers).toEqual([{ name: "h1", key: "X-Key", value: "********" }]);
		expect(await screen.findByText("The Base URL https://10.0.0.1 is a private address.")).toBeTruthy();
		expect(screen.getByLabelText("Base address").getAttribute("aria-invalid")).toBe("true");
		await user.type(value, "new-secret");
		saveReply = async () => ({ name: "items_api" });
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[1]?.http_headers).toEqual([{ name: "h1", key: "X-Key", value: "new-secret" }]);
	});

	it("tries a saved GET tool's request and shows what the agent would read", async () => {
		const user = userEvent.setup();
		renderEditor(webTool, false);
		await user.type(screen.getByLabelText("Path"), "/items");
		await user.click(screen.getByRole("button", { name: "Send" }));
		expect(await screen.findByText(/Answer 200/)).toBeTruthy();
		expect(screen.getByText(/"items"/)).toBeTruthy();
		expect(calls.at(-1)).toEqual({ method: "huf.ai.http_handler.handle_http_request", args: { tool: "items_api", url: "/items", params: "", body: "", body_format: "" } });
	});

	it("is read-only for people who can't change tools", () => {
		renderEditor(webTool, false, false);
		expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
		expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
		expect((screen.getByLabelText("Description") as HTMLTextAreaElement).closest("fieldset")?.disabled).toBe(true);
	});
});
