import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AssistantPanel } from "../flows/builder/AssistantPanel";
import { DraftPanel } from "../agents/DraftPanel";
import { renderPage } from "../../test/render";
import type { Answer } from "./api";
import { Explain } from "./Explain";
import { Outcome } from "./Turn";
import { failureWords, usageWords } from "./words";

const calls: { method: string; args: Record<string, unknown> }[] = [];
let answers: Record<string, unknown> = {};

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		return answers[method.split(".").pop() ?? ""];
	}),
	saveDoc: vi.fn(async (doctype: string, doc: Record<string, unknown>) => {
		calls.push({ method: `save ${doctype}`, args: doc });
		return doc;
	}),
}));

/** The turn's progress as the server streams it, read by the real stream reader. */
const streamed: string[] = [];
function progressStream(): Response {
	const events = [
		{ step: "reading", label: "Reading the site", attempt: 0, detail: "your request" },
		{ step: "reading", label: "Reading the site", attempt: 1, detail: "list_tools" },
		{ step: "drafting", label: "Drafting", attempt: 1, detail: "" },
	];
	const body = events.map((data, index) => `id: 1-${index}\nevent: progress\ndata: ${JSON.stringify(data)}\n\n`).join("") + 'id: 1-9\nevent: status\ndata: {"status": "Success"}\n\n';
	return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

beforeEach(() => {
	vi.stubGlobal(
		"fetch",
		vi.fn(async (url: string) => {
			streamed.push(url);
			return progressStream();
		}),
	);
});

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
	calls.length = 0;
	streamed.length = 0;
	answers = {};
});

const usage = { input_tokens: 1200, output_tokens: 34, total_tokens: 1234 };
function answer<R>(result: R, extra: Partial<Answer<R>> = {}): Answer<R> {
	return { turn: "t", status: "ok", result, proposal: { summary: "Adds a to-do step." }, problems: [], attempts: 1, model_calls: 2, usage, cost: 0.0012, duration_seconds: 2.44, ...extra };
}

const show = (node: ReactNode) => renderPage(node);

describe("the assistant's words", () => {
	it("gives each turn's tokens, cost and time, and a failure in the provider's own words", () => {
		expect(usageWords(answer(null))).toBe("1,234 tokens · $0.0012 · 2.4 s");
		const limited = answer(null, { status: "failed", error: { kind: "rate_limit", message: "Rate limited", cause: "Slow down: 3 requests a minute" } });
		expect(failureWords(limited)).toBe("The provider is limiting requests right now. The provider said: Slow down: 3 requests a minute");
	});
});

describe("Ask the assistant, in the flow builder", () => {
	const canvas = { id: "leads", nodes: [], edges: [] };

	it("sends the request with the canvas, shows the progress, then draws the proposal to accept", async () => {
		const proposed = { id: "leads", nodes: [{ id: "tool_call_1" }], edges: [] };
		answers = { assistant_status: { ready: true, can_set_up: true }, propose_flow: answer(proposed) };
		const onProposal = vi.fn(() => "1 new step");
		const onAccept = vi.fn();
		const user = userEvent.setup();
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={onProposal} pending={null} onAccept={onAccept} onDiscard={vi.fn()} onClose={vi.fn()} />);
		await user.type(await screen.findByLabelText("What should this flow do?"), "Make a to-do for each lead");
		await user.click(screen.getByRole("button", { name: "Ask" }));

		await vi.waitFor(() => expect(onProposal).toHaveBeenCalledWith(proposed));
		const sent = calls.find((call) => call.method === "huf.ai.assistant.api.propose_flow");
		expect(sent?.args).toMatchObject({ flow: "leads", request: "Make a to-do for each lead", canvas: JSON.stringify(canvas) });
		expect(streamed).toEqual([`/huf/stream/assistant/${String(sent?.args.turn)}`]);
		expect(screen.getByRole("list", { name: "What the assistant is doing" }).textContent).toContain("Reading the tools");
		const earlier = screen.getByRole("list", { name: "Earlier answers" }).textContent ?? "";
		expect(earlier).toContain("Adds a to-do step. On the canvas: 1 new step.");
		expect(earlier).toContain("1,234 tokens · $0.0012 · 2.4 s");
		expect(screen.getByLabelText("What else should change?")).toBeTruthy();
	});

	it("offers Accept and Discard while a proposal is on the canvas", async () => {
		answers = { assistant_status: { ready: true, can_set_up: true } };
		const onAccept = vi.fn();
		const onDiscard = vi.fn();
		const user = userEvent.setup();
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={vi.fn(() => "")} pending="2 new steps, 1 removed" onAccept={onAccept} onDiscard={onDiscard} onClose={vi.fn()} />);
		expect((await screen.findByTestId("assistant-proposal")).textContent).toContain("Shown on the canvas: 2 new steps, 1 removed.");
		await user.click(screen.getByRole("button", { name: "Accept" }));
		await user.click(screen.getByRole("button", { name: "Discard" }));
		expect(onAccept).toHaveBeenCalledOnce();
		expect(onDiscard).toHaveBeenCalledOnce();
	});

	it("states the limit on an over-long request and will not send it", async () => {
		answers = { assistant_status: { ready: true, can_set_up: true } };
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={vi.fn(() => "")} pending={null} onAccept={vi.fn()} onDiscard={vi.fn()} onClose={vi.fn()} />);
		const box = await screen.findByLabelText("What should this flow do?");
		const user = userEvent.setup();
		await user.click(box);
		await user.paste("x".repeat(4001));
		expect(screen.getByText("Keep it under 4,000 characters (now 4,001).")).toBeTruthy();
		expect((screen.getByRole("button", { name: "Ask" }) as HTMLButtonElement).disabled).toBe(true);
	});

	it("without a model, offers to set up a provider to whoever can, and says whom to ask to anyone else", async () => {
		answers = { assistant_status: { ready: false, can_set_up: true }, get_provider_overview: [] };
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={vi.fn(() => "")} pending={null} onAccept={vi.fn()} onDiscard={vi.fn()} onClose={vi.fn()} />);
		expect(await screen.findByRole("button", { name: "Set up a provider" })).toBeTruthy();
		expect(screen.queryByLabelText("What should this flow do?")).toBeNull();
		cleanup();
		answers = { assistant_status: { ready: false, can_set_up: false } };
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={vi.fn(() => "")} pending={null} onAccept={vi.fn()} onDiscard={vi.fn()} onClose={vi.fn()} />);
		expect(await screen.findByText(/Ask whoever runs Huf here to choose a model/)).toBeTruthy();
	});

	it("lets whoever can set it up choose a model they already have", async () => {
		const model = (name: string, disabled: 0 | 1 = 0) => ({ name, provider: "OpenAI", disabled, use_custom_pricing: 0, input_cost_per_1m_tokens: 0, output_cost_per_1m_tokens: 0, cached_input_cost_per_1m_tokens: 0, fallback_models: null });
		answers = {
			assistant_status: { ready: false, can_set_up: true },
			get_provider_overview: [
				{ name: "OpenAI", api_base: null, description: null, key_set: true, ready: true, models: [model("gpt-4o-mini"), model("gpt-4o"), model("old-model", 1)] },
				{ name: "Groq", api_base: null, description: null, key_set: false, ready: false, models: [model("llama-3")] },
			],
		};
		const user = userEvent.setup();
		show(<AssistantPanel flowId="leads" canvas={() => canvas} onProposal={vi.fn(() => "")} pending={null} onAccept={vi.fn()} onDiscard={vi.fn()} onClose={vi.fn()} />);
		const choice = (await screen.findByLabelText("Your models")) as HTMLSelectElement;
		expect([...choice.options].map((option) => option.value)).toEqual(["gpt-4o-mini", "gpt-4o"]); // not a disabled model, nor one of a provider without a key
		await user.selectOptions(choice, "gpt-4o");
		answers.assistant_status = { ready: true, can_set_up: true };
		await user.click(screen.getByRole("button", { name: "Use this model" }));
		expect(calls).toContainEqual({ method: "save Agent Settings", args: { assistant_model: "gpt-4o" } });
		expect(await screen.findByLabelText("What should this flow do?")).toBeTruthy();
	});
});

describe("Draft with the assistant, in the agent editor", () => {
	it("shows the draft as a change to the form and hands it over on Accept", async () => {
		const drafted = { instructions: "Make to-dos.", model: "gpt-4o-mini", tools: ["create_todo"] };
		answers = { assistant_status: { ready: true, can_set_up: false }, draft_agent: answer(drafted) };
		const onAccept = vi.fn();
		const user = userEvent.setup();
		show(<DraftPanel agent="Helper" now={{ instructions: "", model: "gpt-4o", tools: ["old_tool"] }} onAccept={onAccept} />);
		await user.click(screen.getByRole("button", { name: "Draft with the assistant" }));
		await user.type(await screen.findByLabelText("What should this agent do?"), "Makes to-dos");
		await user.click(screen.getByRole("button", { name: "Draft" }));
		const change = await screen.findByTestId("agent-draft");
		expect(change.textContent).toContain("Tools: adds create_todo; removes old_tool");
		expect(change.textContent).toContain("gpt-4o → gpt-4o-mini");
		expect(calls.find((call) => call.method.endsWith("draft_agent"))?.args).toMatchObject({ description: "Makes to-dos", agent: "Helper" });
		await user.click(screen.getByRole("button", { name: "Accept" }));
		expect(onAccept).toHaveBeenCalledWith(drafted);
		expect(screen.queryByTestId("agent-draft")).toBeNull();
	});
});

describe("Explain, on a failed run", () => {
	it("says what went wrong, what to change and which step", async () => {
		const explained = { what_went_wrong: "The to-do had no description.", what_to_change: "Give the step a description.", step: "tool_call_1", step_label: "Make a to-do" };
		answers = { assistant_status: { ready: true, can_set_up: false }, explain_flow_run: answer(explained) };
		const user = userEvent.setup();
		show(<Explain method="explain_flow_run" args={{ flow_run: "FR-1" }} fixAt={(step) => <a href={`/flows/leads?step=${step}`}>open it in the flow</a>} />);
		await user.click(await screen.findByRole("button", { name: "Explain" }));
		const text = (await screen.findByTestId("explanation")).textContent;
		expect(text).toContain("The to-do had no description.");
		expect(text).toContain("What to change: Give the step a description.");
		expect(text).toContain("Step to fix: Make a to-do · open it in the flow");
		expect(screen.getByRole("link", { name: "open it in the flow" }).getAttribute("href")).toBe("/flows/leads?step=tool_call_1");
		expect(calls.find((call) => call.method.endsWith("explain_flow_run"))?.args).toMatchObject({ flow_run: "FR-1" });
		expect(screen.getByTestId("assistant-usage").textContent).toBe("1,234 tokens · $0.0012 · 2.4 s");
	});
});

describe("an answer that is never usable", () => {
	it("says so in plain words rather than showing the checks' words for the model", () => {
		show(<Outcome answer={answer(null, { status: "problems", attempts: 3, problems: ["Your answer is not valid JSON (x)."] })} />);
		expect(screen.getByText("The assistant did not give a usable answer in 3 tries. Try asking in other words.")).toBeTruthy();
		expect(screen.queryByText(/not valid JSON/)).toBeNull();
	});
});
