import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage as render } from "../../test/render";
import SourcePage from "./SourcePage";

const calls: { method: string; args: Record<string, unknown> }[] = [];
const replies: Record<string, unknown> = {};

vi.mock("../../lib/api", () => ({
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		const reply = replies[method.replace("huf.ai.knowledge.api.", "")];
		return typeof reply === "function" ? reply(args) : reply;
	}),
	uploadFile: vi.fn(async (file: File) => ({ name: "F1", file_name: file.name, file_url: `/private/files/${file.name}` })),
	deleteDoc: vi.fn(async () => undefined),
	saveDoc: vi.fn(),
}));
vi.mock("../../lib/realtime", () => ({ subscribeDoc: () => () => undefined }));

afterEach(() => {
	cleanup();
	calls.length = 0;
});

const status = { source: "Handbook", status: "Ready", total_inputs: 1, indexed_inputs: 1, failed_inputs: 0, chunk_count: 3, last_error: null };
const detail = {
	...status,
	name: "Handbook",
	source_name: "Handbook",
	description: "Staff rules",
	knowledge_type: "sqlite_fts",
	last_indexed: null,
	can_write: true,
	inputs: [{ name: "IN1", input_type: "File", title: "leave.pdf", status: "Error", error: "leave.pdf is password-protected; upload a copy without a password.", chunk_count: 0, duplicate_of: null, url: null, creation: "" }],
};

function renderPage() {
	replies.get_source = detail;
	replies.get_index_status = status;
	render({ "/knowledge/:source": <SourcePage /> }, { path: "/knowledge/Handbook" });
}

describe("SourcePage", () => {
	it("shows each document's status with the reason it could not be read", async () => {
		renderPage();
		expect(await screen.findByText("leave.pdf is password-protected; upload a copy without a password.")).toBeTruthy();
		expect(screen.getByRole("progressbar", { name: "Indexed Handbook: 1 of 1 document" })).toBeTruthy();
	});

	it("adds pasted text and says when the same text was already there", async () => {
		renderPage();
		await userEvent.click(await screen.findByRole("tab", { name: "Text" }));
		await userEvent.type(screen.getByLabelText("Title"), "Leave rules");
		await userEvent.type(screen.getByLabelText("Text"), "25 days of leave");
		replies.add_input = { name: "IN2", already_there: false };
		await userEvent.click(screen.getByRole("button", { name: "Add" }));
		expect(calls.find((c) => c.method.endsWith("add_input"))?.args).toEqual({ source: "Handbook", input_type: "Text", text: "25 days of leave", title: "Leave rules" });
		expect(await screen.findByText("Added. It is being read and indexed now.")).toBeTruthy();
		await userEvent.type(screen.getByLabelText("Text"), "25 days of leave");
		replies.add_input = { name: "IN2", already_there: true };
		await userEvent.click(screen.getByRole("button", { name: "Add" }));
		expect(await screen.findByText("This text is already in the source; nothing was added.")).toBeTruthy();
	});

	it("refuses a web address that is not one, before asking the server", async () => {
		renderPage();
		await userEvent.click(await screen.findByRole("tab", { name: "Web address" }));
		await userEvent.type(screen.getByLabelText("Web address"), "intranet/page");
		await userEvent.click(screen.getByRole("button", { name: "Add" }));
		expect(screen.getByText("Enter a web address that starts with http:// or https://.")).toBeTruthy();
		expect(calls.some((c) => c.method.endsWith("add_input"))).toBe(false);
	});

	it("uploads chosen files and adds each to the source", async () => {
		renderPage();
		replies.add_input = { name: "IN3" };
		await userEvent.upload(await screen.findByTestId("knowledge-files"), [new File(["a"], "a.pdf"), new File(["b"], "b.docx")]);
		const added = calls.filter((c) => c.method.endsWith("add_input")).map((c) => c.args.file_url);
		expect(added).toEqual(["/private/files/a.pdf", "/private/files/b.docx"]);
		expect(await screen.findByText("Added. The files are being read and indexed now.")).toBeTruthy();
	});

	it("tries a search and shows where each passage came from", async () => {
		renderPage();
		replies.test_search = { results: [{ source: "Handbook", input: "IN1", title: "leave.pdf", where: "page 2", text: "25 days of paid leave.", score: 1.2 }] };
		await userEvent.type(await screen.findByLabelText("Search this source"), "how much leave");
		await userEvent.click(screen.getByRole("button", { name: "Search" }));
		expect(await screen.findByText("leave.pdf, page 2")).toBeTruthy();
		expect(screen.getByText("25 days of paid leave.")).toBeTruthy();
		expect(calls.find((c) => c.method.endsWith("test_search"))?.args).toEqual({ source: "Handbook", query: "how much leave", limit: 5 });
	});
});
