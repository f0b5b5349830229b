import { describe, expect, it } from "vitest";
import { emptyAgent, fieldOfServerError, validateAgent, type AgentDraft } from "./validation";

const known = (model: string) => (model === "gpt-4o-mini" ? "OpenAI" : undefined);
const agent = (changes: Partial<AgentDraft> = {}): AgentDraft => ({ ...emptyAgent(), agent_name: "Helper", model: "gpt-4o-mini", ...changes });

describe("validateAgent", () => {
	it("accepts a complete agent", () => {
		expect(validateAgent(agent(), known)).toEqual({});
	});

	it("asks for a name and a model of a set-up provider", () => {
		expect(validateAgent(agent({ agent_name: "  ", model: "" }), known)).toMatchObject({ agent_name: "Give the agent a name.", model: "Pick the model this agent uses." });
		expect(validateAgent(agent({ model: "gone-model" }), known).model).toMatch(/isn't available/);
		expect(validateAgent(agent({ agent_name: "a/b" }), known).agent_name).toMatch(/can't contain/);
	});

	it("asks for a prompt when the instructions come from the library", () => {
		expect(validateAgent(agent({ prompt_mode: "Template" }), known).prompt_template).toBe("Pick a prompt from the library, or write the instructions here.");
		expect(validateAgent(agent({ prompt_mode: "Template", prompt_template: "tone" }), known)).toEqual({});
		expect(validateAgent(agent({ summary_prompt_mode: "Template" }), known)).toEqual({}); // only an agent that summarizes uses them
		expect(validateAgent(agent({ context_strategy: "Summarize", summary_prompt_mode: "Template" }), known).summary_prompt_template).toMatch(/Pick summary instructions/);
		expect(fieldOfServerError("Prompt not active", "ValidationError")).toBe("prompt_template");
	});

	it("keeps sampling and limits inside the ranges the server accepts", () => {
		const errors = validateAgent(agent({ temperature: 2.5, top_p: 0, max_turns: 51 }), known);
		expect(Object.keys(errors).sort()).toEqual(["max_turns", "temperature", "top_p"]);
		expect(validateAgent(agent({ temperature: 0, top_p: 1, max_turns: 50 }), known)).toEqual({});
		expect(validateAgent(agent({ temperature: Number.NaN }), known).temperature).toBe("Use a number from 0 to 2.");
		expect(validateAgent(agent({ max_turns: 2.5 }), known).max_turns).toBeDefined();
	});

	it("checks history settings only for the strategy that uses them", () => {
		expect(validateAgent(agent({ context_strategy: "None", history_limit: 0 }), known)).toEqual({});
		expect(validateAgent(agent({ context_strategy: "FIFO", history_limit: 0 }), known).history_limit).toBeDefined();
		expect(validateAgent(agent({ context_strategy: "FIFO", summary_ratio: 5 }), known)).toEqual({});
		expect(validateAgent(agent({ context_strategy: "Summarize", summary_ratio: 1 }), known).summary_ratio).toBeDefined();
	});

	it("refuses a tool listed twice and negative limits", () => {
		const errors = validateAgent(agent({ agent_tool: [{ tool: "a" }, { tool: "a" }], max_context_chars: -1, max_agent_depth: -2 }), known);
		expect(Object.keys(errors).sort()).toEqual(["agent_tool", "max_agent_depth", "max_context_chars"]);
	});
});

describe("fieldOfServerError", () => {
	it("puts the server's refusals next to their field", () => {
		expect(fieldOfServerError("Invalid Temperature", "ValidationError")).toBe("temperature");
		expect(fieldOfServerError("Model and provider do not match", "ValidationError")).toBe("model");
		expect(fieldOfServerError("", "DuplicateEntryError")).toBe("agent_name");
		expect(fieldOfServerError("Something else", "ValidationError")).toBeNull();
	});
});

describe("validateAgent: the summary model", () => {
	it("must be available when summaries are on, and is ignored otherwise", () => {
		expect(validateAgent(agent({ context_strategy: "Summarize", summary_model: "gone" }), known).summary_model).toBeDefined();
		expect(validateAgent(agent({ context_strategy: "Summarize", summary_model: "gpt-4o-mini" }), known)).toEqual({});
		expect(validateAgent(agent({ context_strategy: "FIFO", summary_model: "gone" }), known)).toEqual({});
	});
});

describe("validateAgent knowledge", () => {
	const row = (changes: Partial<AgentDraft["agent_knowledge"][number]> = {}) => ({ knowledge_source: "Handbook", mode: "Mandatory" as const, priority: 0, token_budget: 1000, ...changes });

	it("accepts a source bound both ways, and no budget for a looked-up one", () => {
		expect(validateAgent(agent({ agent_knowledge: [row(), row({ mode: "Optional", token_budget: 0 })] }), known)).toEqual({});
	});

	it("refuses an empty row, a repeated binding, a zero budget and a zero overall limit", () => {
		expect(validateAgent(agent({ agent_knowledge: [row({ knowledge_source: "" })] }), known).agent_knowledge).toMatch(/Choose a source/);
		expect(validateAgent(agent({ agent_knowledge: [row(), row()] }), known).agent_knowledge).toMatch(/twice/);
		expect(validateAgent(agent({ agent_knowledge: [row({ token_budget: 0 })] }), known).agent_knowledge).toMatch(/budget above 0/);
		expect(validateAgent(agent({ agent_knowledge: [row()], max_knowledge_tokens: 0 }), known).max_knowledge_tokens).toBeDefined();
		expect(validateAgent(agent({ max_knowledge_tokens: 0 }), known)).toEqual({});
		expect(fieldOfServerError("Invalid Token Budget", "ValidationError")).toBe("agent_knowledge");
	});
});
