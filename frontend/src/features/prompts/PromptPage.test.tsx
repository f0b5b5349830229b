import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage as render } from "../../test/render";
import PromptPage from "./PromptPage";

const calls: { method: string; args: Record<string, unknown> }[] = [];

const prompt = {
	name: "support-tone",
	title: "Support tone",
	slug: "support-tone",
	category: null,
	description: "How support agents speak",
	visibility: "Public",
	is_active: 1,
	is_system: 0,
	version: 3,
	owner: "Administrator",
	modified: "2026-12-07 00:00:00",
	versions: [3, 2, 1].map((version) => ({ name: version === 3 ? "support-tone" : `support-tone--v${version}`, version, is_latest: version === 3 ? 1 : 0, saved_at: "2026-12-07 00:00:00", saved_by: "Administrator" })),
	used_by: [
		{ agent: "Helpdesk", pinned: false, attached_version: 3 },
		{ agent: "Old Helpdesk", pinned: true, attached_version: 1 },
	],
};

vi.mock("../../lib/api", () => ({
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		if (method === "huf.permissions.get_me") return { user: "a@b.c", capabilities: { "prompt.read": true, "prompt.write": false } };
		if (method.endsWith("list_prompts")) return [prompt];
		if (method.endsWith("get_prompt_version")) return { name: "x", prompt: "support-tone", title: "Support tone", version: args.version, is_latest: 0, prompt_body: `Text of v${String(args.version)}` };
		if (method.endsWith("diff_prompt_versions")) {
			return { prompt: "support-tone", from_version: args.from_version, to_version: args.to_version, diff: `--- a\n+++ b\n@@ -1 +1 @@\n-old v${String(args.from_version)}\n+new v${String(args.to_version)}\n` };
		}
		throw new Error(`unexpected ${method}`);
	}),
}));

afterEach(() => {
	cleanup();
	calls.length = 0;
});

const renderPage = () => render({ "/prompts/:kind/:name": <PromptPage /> }, { path: "/prompts/prompt/support-tone" });

describe("PromptPage", () => {
	it("shows the versions, the newest text, a diff of the two newest and the agents using it", async () => {
		renderPage();
		expect(await screen.findByRole("heading", { name: "Support tone" })).toBeTruthy();
		expect(screen.getByRole("button", { name: "Version 3 (newest)", pressed: true })).toBeTruthy();
		expect(await screen.findByText("Text of v3")).toBeTruthy();
		const changes = await screen.findByRole("region", { name: "Changes from version 2 to version 3" });
		expect(within(changes).getByText("Removed:")).toBeTruthy();
		expect(within(changes).getByText("new v3")).toBeTruthy();
		expect(screen.getByText(/always uses the newest version/)).toBeTruthy();
		expect(screen.getByText(/stays on version 1/)).toBeTruthy();
	});

	it("compares any two versions and shows an older version's text", async () => {
		renderPage();
		await screen.findByRole("heading", { name: "Support tone" });
		await userEvent.selectOptions(screen.getByLabelText("Compare version"), "1");
		expect(await screen.findByRole("region", { name: "Changes from version 1 to version 3" })).toBeTruthy();
		expect(calls.some((c) => c.method.endsWith("diff_prompt_versions") && c.args.from_version === 1 && c.args.to_version === 3)).toBe(true);
		await userEvent.click(screen.getByRole("button", { name: "Version 1" }));
		expect(await screen.findByText("Text of v1")).toBeTruthy();
		expect(screen.getByRole("heading", { name: "Text of version 1" })).toBeTruthy();
	});
});
