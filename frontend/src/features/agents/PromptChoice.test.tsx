import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptChoice, promptFields, type PromptChoiceValue } from "./PromptChoice";

const versions = (newest: number) => Array.from({ length: newest }, (_, i) => newest - i).map((version) => ({ name: "x", version, is_latest: version === newest ? 1 : 0, saved_at: "", saved_by: "" }));
const row = (name: string, title: string, version: number, extra: Record<string, unknown> = {}) => ({
	name, title, slug: name, category: null, description: `About ${title}`, visibility: "Public", is_active: 1, is_system: 0, version, owner: "", modified: "", versions: versions(version), used_by: [], ...extra,
});

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (_method: string, args: Record<string, unknown> = {}) =>
		args.kind === "summary"
			? [row("short-summary", "Short summary", 1)]
			: [row("support-tone", "Support tone", 3), row("sales-pitch", "Sales pitch", 1), row("old-rules", "Old rules", 2, { is_active: 0 })],
	),
}));

afterEach(cleanup);

const seen: PromptChoiceValue[] = [];

function Harness({ start, kind = "prompt" }: { start: PromptChoiceValue; kind?: "prompt" | "summary" }) {
	const [value, setValue] = useState(start);
	return (
		<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
			<MemoryRouter>
				<PromptChoice
					kind={kind}
					value={value}
					onChange={(next) => {
						seen.push(next);
						setValue(next);
					}}
				>
					<label>
						Own text
						<textarea />
					</label>
				</PromptChoice>
			</MemoryRouter>
		</QueryClientProvider>
	);
}

const local: PromptChoiceValue = { mode: "Local", template: "", locked: 0, version: 0 };

describe("PromptChoice", () => {
	it("switches from the agent's own text to a searchable list of active prompts, then keeps one version", async () => {
		const user = userEvent.setup();
		render(<Harness start={local} />);
		expect(screen.getByLabelText("Own text")).toBeTruthy();
		await user.click(screen.getByLabelText("Use a prompt from the library"));
		expect(screen.queryByLabelText("Own text")).toBeNull();
		expect(await screen.findByLabelText(/Support tone/)).toBeTruthy();
		expect(screen.queryByLabelText(/Old rules/)).toBeNull(); // not active: not offered
		await user.type(screen.getByLabelText("Find a prompt"), "sales");
		expect(screen.queryByLabelText(/Support tone/)).toBeNull();
		await user.clear(screen.getByLabelText("Find a prompt"));
		await user.click(screen.getByLabelText(/Support tone/));
		expect(seen.at(-1)).toEqual({ mode: "Template", template: "support-tone", locked: 0, version: 3 });
		expect((screen.getByLabelText(/Always the newest version/) as HTMLInputElement).checked).toBe(true);
		await user.click(screen.getByLabelText(/Keep one version/));
		await user.selectOptions(screen.getByLabelText("Version to keep"), "2");
		expect(seen.at(-1)).toEqual({ mode: "Template", template: "support-tone", locked: 1, version: 2 });
		expect(screen.getByRole("link", { name: "Read Support tone" }).getAttribute("href")).toBe("/prompts/prompt/support-tone");
	});

	it("offers summary instructions from their own library", async () => {
		const user = userEvent.setup();
		render(<Harness kind="summary" start={local} />);
		await user.click(screen.getByLabelText("Use summary instructions from the library"));
		expect(await screen.findByLabelText(/Short summary/)).toBeTruthy();
		expect(screen.queryByLabelText(/Support tone/)).toBeNull();
	});

	it("still shows an agent's prompt that is no longer active", async () => {
		render(<Harness start={{ mode: "Template", template: "old-rules", locked: 0, version: 2 }} />);
		expect(((await screen.findByLabelText(/Old rules/)) as HTMLInputElement).checked).toBe(true);
	});
});

describe("promptFields", () => {
	it("saves an older kept version under that version's own name, anything else as picked", () => {
		expect(promptFields({ mode: "Template", template: "tone", locked: 1, version: 2 }, 3)).toEqual({ mode: "Template", template: "tone--v2", locked: 1, version: 2 });
		expect(promptFields({ mode: "Template", template: "tone", locked: 1, version: 3 }, 3)).toEqual({ mode: "Template", template: "tone", locked: 1, version: 3 });
		expect(promptFields({ mode: "Template", template: "tone", locked: 0, version: 1 }, 3)).toEqual({ mode: "Template", template: "tone", locked: 0, version: 1 });
		expect(promptFields({ mode: "Local", template: "tone", locked: 1, version: 2 }, 3)).toEqual({ mode: "Local", template: "", locked: 0, version: 0 });
	});
});
