import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import NewPromptPage from "./NewPromptPage";
import PromptPage from "./PromptPage";

const saves: { doctype: string; doc: Record<string, unknown>; name: string | undefined }[] = [];
let version = 2;

const row = () => ({
	name: "support-tone",
	title: "Support tone",
	slug: "support-tone",
	category: null,
	description: "",
	visibility: "Public",
	is_active: 1,
	is_system: 0,
	version,
	owner: "a@b.c",
	modified: `2026-12-07 00:00:0${version}`,
	versions: Array.from({ length: version }, (_, i) => version - i).map((v) => ({ name: v === version ? "support-tone" : `support-tone--v${v}`, version: v, is_latest: v === version ? 1 : 0, saved_at: "2026-12-07 00:00:00", saved_by: "a@b.c" })),
	used_by: [],
});

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		if (method === "huf.permissions.get_me") return { user: "a@b.c", capabilities: { "prompt.read": true, "prompt.write": true, "agent.read": true } };
		if (method.endsWith("list_prompts")) return [row()];
		if (method.endsWith("get_prompt_version")) return { name: "support-tone", prompt: "support-tone", title: "Support tone", version: args.version, is_latest: args.version === version ? 1 : 0, prompt_body: `Text of v${String(args.version)}` };
		if (method.endsWith("diff_prompt_versions")) return { prompt: "support-tone", from_version: args.from_version, to_version: args.to_version, diff: "" };
		throw new Error(`unexpected ${method}`);
	}),
	getList: vi.fn(async () => [{ name: "Support" }]),
	saveDoc: vi.fn(async (doctype: string, doc: Record<string, unknown>, name?: string) => {
		saves.push({ doctype, doc, name });
		if (name && doc.prompt_body !== `Text of v${version}`) version += 1;
		return { name: name ?? String(doc.slug), version: name ? version : 1 };
	}),
}));

afterEach(() => {
	cleanup();
	saves.length = 0;
	version = 2;
});

function renderAt(path: string) {
	const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
	const router = createMemoryRouter(
		[
			{ path: "/prompts/:kind/new", element: <NewPromptPage /> },
			{ path: "/prompts/:kind/:name", element: <PromptPage /> },
		],
		{ initialEntries: [path] },
	);
	render(
		<QueryClientProvider client={client}>
			<RouterProvider router={router} />
		</QueryClientProvider>,
	);
}

describe("a manager's prompt form", () => {
	it("edits the newest version and tells which version the save made", async () => {
		const user = userEvent.setup();
		renderAt("/prompts/prompt/support-tone");
		const text = await screen.findByLabelText("Prompt text");
		expect((text as HTMLTextAreaElement).value).toBe("Text of v2");
		await user.clear(text);
		await user.type(text, "Kinder words");
		await user.selectOptions(screen.getByLabelText("Category"), "Support");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Saved as version 3.")).toBeTruthy();
		expect(saves).toEqual([
			{ doctype: "Agent Prompt", name: "support-tone", doc: { title: "Support tone", category: "Support", visibility: "Public", description: "", is_active: 1, prompt_body: "Kinder words" } },
		]);
		expect(await screen.findByRole("heading", { name: "Edit version 3" })).toBeTruthy();
	});

	it("says when a save kept the version (the text did not change)", async () => {
		const user = userEvent.setup();
		renderAt("/prompts/prompt/support-tone");
		await screen.findByLabelText("Prompt text");
		await user.type(screen.getByLabelText("Title"), "!");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Saved. The text didn't change, so this is still version 2.")).toBeTruthy();
	});

	it("shows an older version read-only", async () => {
		const user = userEvent.setup();
		renderAt("/prompts/prompt/support-tone");
		await screen.findByLabelText("Prompt text");
		await user.click(screen.getByRole("button", { name: "Version 1" }));
		expect(await screen.findByText("Text of v1")).toBeTruthy();
		expect(screen.getByText(/Older versions can't be changed/)).toBeTruthy();
		expect(screen.queryByRole("form", { name: "Prompt settings" })).toBeNull();
	});

	it("writes a new prompt, checking it first, with the short name made from the title", async () => {
		const user = userEvent.setup();
		renderAt("/prompts/prompt/new");
		await user.click(await screen.findByRole("button", { name: "Save" }));
		expect(screen.getByText("Give the prompt a title.")).toBeTruthy();
		expect(saves).toEqual([]);
		await user.type(screen.getByLabelText("Title"), "Support tone");
		expect(screen.getByLabelText("Short name").getAttribute("placeholder")).toBe("support-tone");
		await user.type(screen.getByLabelText("Prompt text"), "Be kind.");
		await user.selectOptions(screen.getByLabelText("Who can see it"), "Private");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Saved as version 1.")).toBeTruthy();
		expect(saves[0]?.name).toBeUndefined();
		expect(saves[0]?.doc).toMatchObject({ title: "Support tone", slug: "support-tone", visibility: "Private", prompt_body: "Be kind.", category: null });
	});
});
