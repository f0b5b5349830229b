import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import type { MemoryItem } from "./api";
import { MemoryPanel, valueProblem } from "./MemoryPanel";

let stored: MemoryItem[] = [];
const written: unknown[][] = [];
let refusal: Error | null = null;
vi.mock("./api", async (original) => ({
	...(await original<typeof import("./api")>()),
	chatApi: {
		memory: vi.fn(async () => stored),
		remember: vi.fn(async (...args: [string, string, string]) => {
			if (refusal) throw refusal;
			written.push(args);
			const [, key, value] = args;
			stored = value ? stored.map((item) => (item.key === key ? { ...item, value: JSON.parse(value) as unknown } : item)) : stored.filter((item) => item.key !== key);
			return stored;
		}),
	},
}));

afterEach(() => {
	cleanup();
	stored = [];
	written.length = 0;
	refusal = null;
});

function open(onClose = () => undefined) {
	const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
	render(
		<QueryClientProvider client={client}>
			<MemoryPanel id="memory" conversation="C1" onClose={onClose} />
		</QueryClientProvider>,
	);
	return client;
}

const city: MemoryItem = { key: "city", value: "Porto", inject: true, updated_at: "2026-12-07 03:19:40" };
const order: MemoryItem = { key: "order", value: { id: 42, items: ["tea"] }, inject: false, updated_at: null };

describe("MemoryPanel", () => {
	it("explains itself and says when nothing is remembered yet", async () => {
		open();
		expect(screen.getByRole("region", { name: "Memory" })).toBeTruthy();
		expect(screen.getByText("What the agent remembers in this conversation.")).toBeTruthy();
		expect(await screen.findByText(/Nothing yet/)).toBeTruthy();
	});

	it("lists each key with its value as readable JSON", async () => {
		stored = [city, order];
		open();
		const entry = await screen.findByRole("article", { name: "order" });
		expect(entry.querySelector("pre")?.textContent).toBe('{\n  "id": 42,\n  "items": [\n    "tea"\n  ]\n}');
		expect(within(entry).getByText("The agent looks it up only when it needs it.")).toBeTruthy();
		expect(screen.getByRole("article", { name: "city" }).querySelector("pre")?.textContent).toBe('"Porto"');
	});

	it("saves a changed value as JSON", async () => {
		stored = [city];
		open();
		await userEvent.click(await screen.findByRole("button", { name: "Edit city" }));
		const field = screen.getByLabelText("New value of city");
		expect((field as HTMLTextAreaElement).value).toBe('"Porto"');
		expect(screen.getByText(/Text goes in quotes/)).toBeTruthy();
		await userEvent.clear(field);
		await userEvent.type(field, '"Lisbon"');
		await userEvent.click(screen.getByRole("button", { name: "Save" }));
		expect(written).toEqual([["C1", "city", '"Lisbon"']]);
		expect((await screen.findByRole("article", { name: "city" })).querySelector("pre")?.textContent).toBe('"Lisbon"');
		expect(screen.queryByLabelText("New value of city")).toBeNull();
	});

	it("says in words why text without quotes is refused, without asking the server", async () => {
		stored = [city];
		open();
		await userEvent.click(await screen.findByRole("button", { name: "Edit city" }));
		const field = screen.getByLabelText("New value of city");
		await userEvent.clear(field);
		await userEvent.type(field, "Lisbon");
		await userEvent.click(screen.getByRole("button", { name: "Save" }));
		expect(field.getAttribute("aria-invalid")).toBe("true");
		expect(screen.getByText(/Put text in quotes, like "Porto"/)).toBeTruthy();
		expect(written).toEqual([]);
	});

	it("shows the server's refusal and keeps what was typed", async () => {
		stored = [city];
		refusal = new ApiError("A memory value can be at most 16384 bytes as JSON; this one is 20000.", 417);
		open();
		await userEvent.click(await screen.findByRole("button", { name: "Edit city" }));
		await userEvent.click(screen.getByRole("button", { name: "Save" }));
		expect((await screen.findByRole("alert")).textContent).toContain("at most 16384 bytes");
		expect((screen.getByLabelText("New value of city") as HTMLTextAreaElement).value).toBe('"Porto"');
	});

	it("clears a key only once it is confirmed", async () => {
		stored = [city, order];
		open();
		await userEvent.click(await screen.findByRole("button", { name: "Clear city" }));
		const question = screen.getByRole("alertdialog");
		expect(question.textContent).toContain("Clear “city”? The agent forgets it");
		await userEvent.click(within(question).getByRole("button", { name: "Keep it" }));
		expect(written).toEqual([]);
		await userEvent.click(screen.getByRole("button", { name: "Clear city" }));
		await userEvent.click(screen.getByRole("button", { name: "Clear it" }));
		expect(written).toEqual([["C1", "city", ""]]);
		expect(await screen.findByRole("article", { name: "order" })).toBeTruthy();
		expect(screen.queryByRole("article", { name: "city" })).toBeNull();
		expect(document.activeElement?.textContent).toBe("Memory"); // focus stays in the panel
	});

	it("shows a reading error in words", async () => {
		const { chatApi } = await import("./api");
		vi.mocked(chatApi.memory).mockRejectedValueOnce(new ApiError("There is no conversation C1 of yours.", 404));
		open();
		expect((await screen.findByRole("alert")).textContent).toBe("There is no conversation C1 of yours.");
	});

	it("reads the memory again when an answer's end marks it stale", async () => {
		stored = [city];
		const client = open();
		await screen.findByRole("article", { name: "city" });
		stored = [city, order];
		await client.invalidateQueries({ queryKey: ["memory", "C1"] });
		expect(await screen.findByRole("article", { name: "order" })).toBeTruthy();
	});

	it("closes with its own button, or Escape unless a value is being typed", async () => {
		stored = [city];
		const onClose = vi.fn();
		open(onClose);
		await userEvent.click(screen.getByRole("button", { name: "Close memory" }));
		expect(onClose).toHaveBeenCalledOnce();
		await userEvent.click(await screen.findByRole("button", { name: "Edit city" }));
		await userEvent.keyboard("{Escape}");
		expect(onClose).toHaveBeenCalledOnce();
		screen.getByRole("button", { name: "Cancel" }).focus();
		await userEvent.keyboard("{Escape}");
		expect(onClose).toHaveBeenCalledTimes(2);
	});
});

describe("valueProblem", () => {
	it("takes JSON and refuses empty or bare text", () => {
		for (const ok of ['"Porto"', "42", "true", "null", '{"a": [1]}']) expect(valueProblem(ok)).toBeUndefined();
		expect(valueProblem("  ")).toBe("Write a value, or use Clear to forget this one.");
		expect(valueProblem("Porto")).toMatch(/Put text in quotes/);
	});
});
