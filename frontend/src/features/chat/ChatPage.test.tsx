import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatPage } from "./ChatPage";

Element.prototype.scrollIntoView = vi.fn(); // jsdom lays nothing out

const titled: Array<(data: Record<string, unknown>) => void> = [];
let titles: Record<string, string> = { C1: "Invoices", C2: "Travel" };

vi.mock("../../lib/api", () => ({
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		if (method.endsWith("get_chat_agents")) return [{ name: "Helper", description: "", allow_file_attachments: 0, conversation_memory: 1 }, { name: "Writer", description: "", allow_file_attachments: 0, conversation_memory: 0 }];
		if (method.endsWith("get_chat_conversations")) return Object.entries(titles).map(([name, title]) => ({ name, title, creation: "", total_messages: 2 }));
		if (method.endsWith("get_agent_chat_messages")) return { conversation: args.conversation_id, agent: "Writer", title: null, mine: args.conversation_id !== "THEIRS", messages: [], has_more: false, runs: {}, active_run: null };
		if (method.endsWith("get_conversation_memory")) return [{ key: "city", value: "Porto", inject: true, updated_at: null }];
		if (method.endsWith("get_me")) return { user: "a@b.c", full_name: "A", capabilities: { "agent.write": false, "agent.read": false } };
		throw new Error(`unexpected ${method}`);
	}),
	uploadFile: vi.fn(),
}));
vi.mock("../../lib/realtime", () => ({
	subscribe: (_event: string, listener: (data: Record<string, unknown>) => void) => {
		titled.push(listener);
		return () => undefined;
	},
}));

function Where() {
	return <output data-testid="where">{useLocation().pathname}</output>;
}

function open(address: string) {
	const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
	render(
		<QueryClientProvider client={client}>
			<MemoryRouter initialEntries={[address]}>
				<Routes>
					<Route path="/chat/:agent?/:conversation?" element={<ChatPage />} />
				</Routes>
				<Where />
			</MemoryRouter>
		</QueryClientProvider>,
	);
}

afterEach(() => {
	cleanup();
	localStorage.clear();
	titled.length = 0;
	titles = { C1: "Invoices", C2: "Travel" };
});

describe("ChatPage", () => {
	it("opens the agent and conversation a link names in its query", async () => {
		open("/chat?agent=Writer&conversation=C2");
		expect(await screen.findByRole("heading", { name: "Writer" })).toBeTruthy();
		expect(screen.getByTestId("where").textContent).toBe("/chat/Writer/C2");
		expect(await screen.findByText("· Travel")).toBeTruthy();
		expect(screen.getByRole("link", { name: "Travel" }).getAttribute("aria-current")).toBe("page");
	});

	it("opens the agent chosen last time, and remembers a new choice", async () => {
		localStorage.setItem("huf_chat_agent", "Writer");
		open("/chat");
		expect(await screen.findByRole("heading", { name: "Writer" })).toBeTruthy();
		await userEvent.selectOptions(screen.getByLabelText("Agent"), "Helper");
		expect(await screen.findByRole("heading", { name: "Helper" })).toBeTruthy();
		expect(localStorage.getItem("huf_chat_agent")).toBe("Helper");
	});

	it("shows a conversation's new name as soon as it is given", async () => {
		titles = { C1: "" };
		open("/chat/Helper/C1");
		expect(await screen.findByRole("link", { name: "Untitled conversation" })).toBeTruthy();
		titles = { C1: "Refund for order 42" };
		for (const listener of titled) listener({ conversation: "C1", title: "Refund for order 42" });
		expect(await screen.findByRole("link", { name: "Refund for order 42" })).toBeTruthy();
	});

	it("opens and closes the memory of a conversation whose agent remembers, from a labelled toggle", async () => {
		open("/chat/Helper/C1");
		const toggle = await screen.findByRole("button", { name: "Memory" });
		expect(toggle.getAttribute("aria-expanded")).toBe("false");
		toggle.focus();
		await userEvent.keyboard("{Enter}");
		expect(toggle.getAttribute("aria-expanded")).toBe("true");
		const panel = screen.getByRole("region", { name: "Memory" });
		expect(toggle.getAttribute("aria-controls")).toBe(panel.id);
		expect(await screen.findByRole("article", { name: "city" })).toBeTruthy();
		await userEvent.click(screen.getByRole("button", { name: "Close memory" }));
		expect(screen.queryByRole("region", { name: "Memory" })).toBeNull();
		expect(document.activeElement).toBe(toggle);
	});

	it("offers no memory for an agent without it, nor before a conversation exists", async () => {
		open("/chat/Writer/C2");
		await screen.findByText("· Travel");
		expect(screen.queryByRole("button", { name: "Memory" })).toBeNull();
		cleanup();
		open("/chat/Helper");
		await screen.findByRole("heading", { name: "Helper" });
		expect(screen.queryByRole("button", { name: "Memory" })).toBeNull();
	});

	it("offers no memory in someone else's conversation, which a manager may read", async () => {
		open("/chat/Helper/THEIRS");
		await screen.findByRole("heading", { name: "Helper" });
		await screen.findByText("Loading the conversation…");
		await vi.waitFor(() => expect(screen.queryByText("Loading the conversation…")).toBeNull()); // its page came: not theirs to see
		expect(screen.queryByRole("button", { name: "Memory" })).toBeNull();
		cleanup();
		open("/chat/Helper/C1"); // the same agent, one's own conversation
		expect(await screen.findByRole("button", { name: "Memory" })).toBeTruthy();
	});
});
