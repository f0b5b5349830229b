import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { Link, MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, resetApi } from "../../test/fakeApi";
import { ChatPage } from "../chat/ChatPage";
import type { Checklist, StepName } from "./api";
import GettingStarted, { StartBar } from "./GettingStarted";

vi.mock("../../lib/api", async (original) => ({ ...(await original<typeof import("../../lib/api")>()), call: (await import("../../test/fakeApi")).fakeCall }));
vi.mock("../../lib/realtime", () => ({ subscribe: () => () => undefined }));
Element.prototype.scrollIntoView = vi.fn(); // jsdom lays nothing out

const ADMIN = { "provider.write": true, "agent.write": true, "agent.run": true, "agent.read": true, "run.read": true };
const USER = { "agent.run": true, "agent.read": true, "run.read": true };
const EXAMPLE = "Example: Site helper";

function checklist(done: Partial<Record<StepName, string>>, more: Partial<Checklist> = {}): Checklist {
	const steps = (["provider", "model", "agent", "chat"] as const).map((step) => ({ step, done: step in done, name: done[step] || null }));
	return {
		steps,
		done: steps.every((step) => step.done),
		can_set_up: true,
		example: { added: false, agent: null, waiting_for_model: false },
		helpers: [],
		...more,
	};
}

function show(node: ReactNode, capabilities: Record<string, boolean> = ADMIN) {
	api.replies.get_me = { user: "a@b.c", full_name: "A", capabilities };
	// as the app's own client (main.tsx): what was read in the last 15 s is not read again on its own
	const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 15_000 } } });
	render(
		<QueryClientProvider client={client}>
			<MemoryRouter initialEntries={["/chat"]}>{node}</MemoryRouter>
		</QueryClientProvider>,
	);
}

const step = (title: RegExp | string) => screen.getAllByRole("listitem").find((item) => within(item).queryByText(title)) as HTMLElement;

afterEach(() => {
	cleanup();
	resetApi();
	localStorage.clear();
});

describe("GettingStarted, for someone who may add providers", () => {
	it("starts at the provider: the one step to do now links to Providers, the later ones wait", () => {
		show(<GettingStarted checklist={checklist({})} />);
		expect(screen.getByRole("heading", { name: "Get your first agent answering" })).toBeTruthy();
		const items = within(screen.getByRole("list", { name: "Steps to a first chat" })).getAllByRole("listitem");
		expect(items.map((item) => item.querySelector("p")?.textContent)).toEqual(["Add a provider", "Add a model", "Set up an agent", "Have a first chat"]);
		const [first, ...rest] = items as [HTMLElement, ...HTMLElement[]];
		expect(first.getAttribute("aria-current")).toBe("step");
		expect(within(first).getByText("Next")).toBeTruthy();
		expect(within(first).getByText(/No provider yet/)).toBeTruthy();
		expect(within(first).getByRole("link", { name: "Go to Providers" }).getAttribute("href")).toBe("/providers");
		for (const later of rest) {
			expect(within(later).getByText("Not yet")).toBeTruthy();
			expect(within(later).queryByRole("link")).toBeNull();
			expect(later.getAttribute("aria-current")).toBeNull();
		}
		expect(screen.getByText("It needs a provider and a model: add them, and the example agent is ready.")).toBeTruthy();
	});

	it("shows a provider added as done, with its name, and moves on to the model", () => {
		show(<GettingStarted checklist={checklist({ provider: "OpenAI" })} />);
		const provider = step("Provider added: OpenAI");
		expect(within(provider).getByText("Done")).toBeTruthy();
		expect(within(provider).queryByText(/No provider yet/)).toBeNull();
		const model = step("Add a model");
		expect(model.getAttribute("aria-current")).toBe("step");
		expect(within(model).getByText(/No model yet/)).toBeTruthy();
		expect(within(model).getByRole("link", { name: "Go to Providers" }).getAttribute("href")).toBe("/providers");
	});

	it("with a model, points at the agent editor and at the example, which will use that model", () => {
		show(<GettingStarted checklist={checklist({ provider: "OpenAI", model: "gpt-4o-mini" })} />);
		expect(within(step("Model added: gpt-4o-mini")).getByText("Done")).toBeTruthy();
		const agent = step("Set up an agent");
		expect(agent.getAttribute("aria-current")).toBe("step");
		expect(within(agent).getByRole("link", { name: "Create an agent" }).getAttribute("href")).toBe("/agents/new");
		expect(within(step("Have a first chat")).getByText("Not yet")).toBeTruthy();
		expect(screen.getByText("The example agent uses your model gpt-4o-mini.")).toBeTruthy();
	});

	it("adds the example with one click and says so", async () => {
		api.replies.add_example = { added: true, agent: EXAMPLE, waiting_for_model: false, problems: [] };
		show(<GettingStarted checklist={checklist({ provider: "OpenAI", model: "gpt-4o-mini" })} />);
		await userEvent.click(screen.getByRole("button", { name: "Add the example" }));
		expect(await screen.findByText(`Example added: ${EXAMPLE}`)).toBeTruthy();
		expect(api.calls.filter((c) => c.method === "huf.ai.getting_started.add_example")).toHaveLength(1);
		expect(screen.queryByRole("button", { name: "Add the example" })).toBeNull();
	});

	it("says what an example added before any model waits for", () => {
		show(<GettingStarted checklist={checklist({}, { example: { added: true, agent: null, waiting_for_model: true } })} />);
		expect(screen.getByText("Example added. Add a provider and a model, and the example agent is ready.")).toBeTruthy();
		expect(screen.queryByRole("button", { name: "Add the example" })).toBeNull();
	});

	it("shows what the example could not add", async () => {
		api.replies.add_example = { added: true, agent: null, waiting_for_model: false, problems: ["huf/huf/examples/flows/example_flow.json: refused"] };
		show(<GettingStarted checklist={checklist({ provider: "OpenAI", model: "m" })} />);
		await userEvent.click(screen.getByRole("button", { name: "Add the example" }));
		expect((await screen.findByRole("alert")).textContent).toContain("Some of the example could not be added: huf/huf/examples/flows/example_flow.json: refused");
	});
});

describe("GettingStarted, for someone who may not set anything up", () => {
	const waiting = (helpers: string[], done: Partial<Record<StepName, string>> = {}) => checklist(done, { can_set_up: false, example: null, helpers });

	it("names who can set an agent up", async () => {
		show(<GettingStarted checklist={waiting(["Ana Diaz", "Ben Ode", "Cy Li"])} />, USER);
		expect(await screen.findByText("Ask Ana Diaz, Ben Ode or Cy Li to set one up for you.")).toBeTruthy();
		expect(screen.getByRole("heading", { name: "No agents to chat with yet" })).toBeTruthy();
		expect(screen.queryByRole("list")).toBeNull(); // no steps they cannot take
		expect(screen.queryByRole("button")).toBeNull();
	});

	it("says whom to ask when nobody can be named", async () => {
		show(<GettingStarted checklist={waiting([])} />, USER);
		expect(await screen.findByText("Ask whoever looks after this site to set one up for you.")).toBeTruthy();
	});

	it("lets someone who builds agents make one once a model exists", async () => {
		show(<GettingStarted checklist={waiting(["Ana Diaz"], { provider: "OpenAI", model: "m" })} />, { ...USER, "agent.write": true });
		expect((await screen.findByRole("link", { name: "Create an agent" })).getAttribute("href")).toBe("/agents/new");
	});
});

describe("StartBar", () => {
	it("gives the last step above the chat, and goes once it is done", () => {
		show(<StartBar checklist={checklist({ provider: "OpenAI", model: "m", agent: EXAMPLE })} agent={EXAMPLE} />);
		expect(screen.getByRole("region", { name: "Getting started" }).textContent).toBe(`Getting started: 3 of 4 steps done. Last step: write your first message to ${EXAMPLE} below.`);
		cleanup();
		show(<StartBar checklist={checklist({ provider: "OpenAI", model: "m", agent: EXAMPLE, chat: "yes" })} agent={EXAMPLE} />);
		expect(screen.queryByRole("region", { name: "Getting started" })).toBeNull();
	});
});

describe("the chat page's first screen", () => {
	function openChat(capabilities: Record<string, boolean>) {
		show(
			<Routes>
				<Route path="/chat/:agent?/:conversation?" element={<ChatPage />} />
				<Route path="*" element={<Link to="/chat">Back to the chat</Link>} />
			</Routes>,
			capabilities,
		);
	}

	it("is the guide for an admin on a site with no agent", async () => {
		api.replies.get_chat_agents = [];
		api.replies.get_checklist = checklist({});
		openChat(ADMIN);
		expect(await screen.findByRole("heading", { name: "Get your first agent answering" })).toBeTruthy();
		expect(step("Add a provider").getAttribute("aria-current")).toBe("step");
	});

	it("is who to ask for someone else on a site with no agent", async () => {
		api.replies.get_chat_agents = [];
		api.replies.get_checklist = checklist({}, { can_set_up: false, example: null, helpers: ["Ana Diaz"] });
		openChat(USER);
		expect(await screen.findByText("Ask Ana Diaz to set one up for you.")).toBeTruthy();
	});

	it("keeps the chat, with the last step above it, until the first chat; others are never asked", async () => {
		api.replies.get_chat_agents = [{ name: EXAMPLE, description: "", allow_file_attachments: 0, conversation_memory: 0 }];
		api.replies.get_chat_conversations = [];
		api.replies.get_checklist = checklist({ provider: "OpenAI", model: "m", agent: EXAMPLE });
		openChat(ADMIN);
		expect(await screen.findByText(`Last step: write your first message to ${EXAMPLE} below.`, { exact: false })).toBeTruthy();
		expect(screen.getByRole("heading", { name: EXAMPLE })).toBeTruthy();
		cleanup();
		api.calls.length = 0;
		openChat(USER);
		await screen.findByRole("heading", { name: EXAMPLE });
		expect(api.calls.some((c) => c.method.endsWith("get_checklist"))).toBe(false);
		expect(screen.queryByRole("region", { name: "Getting started" })).toBeNull();
	});

	it("reads the steps again when the admin comes back from a step's link", async () => {
		api.replies.get_chat_agents = [];
		api.replies.get_checklist = checklist({});
		openChat(ADMIN);
		await userEvent.click(await screen.findByRole("link", { name: "Go to Providers" }));
		api.replies.get_checklist = checklist({ provider: "OpenAI" }); // added there
		await userEvent.click(screen.getByRole("link", { name: "Back to the chat" }));
		expect(await screen.findByText("Provider added: OpenAI")).toBeTruthy();
		expect(step("Add a model").getAttribute("aria-current")).toBe("step");
	});

	it("opens the chat with an agent that came since the agents were read (the example, when its model was saved)", async () => {
		let agents: { name: string }[] = [];
		api.replies.get_chat_agents = () => agents.map((a) => ({ ...a, description: "", allow_file_attachments: 0, conversation_memory: 0 }));
		api.replies.get_chat_conversations = [];
		api.replies.get_checklist = checklist({ provider: "OpenAI" });
		openChat(ADMIN);
		await userEvent.click(await screen.findByRole("link", { name: "Go to Providers" }));
		agents = [{ name: EXAMPLE }]; // the model was saved there, and the waiting example agent took it
		api.replies.get_checklist = checklist({ provider: "OpenAI", model: "m", agent: EXAMPLE });
		await userEvent.click(screen.getByRole("link", { name: "Back to the chat" }));
		expect(await screen.findByRole("heading", { name: EXAMPLE })).toBeTruthy();
		expect(screen.getByRole("region", { name: "Getting started" }).textContent).toContain("Last step");
	});
});
