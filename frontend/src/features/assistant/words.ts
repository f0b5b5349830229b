// The assistant's progress and cost in plain words.
import type { Answer, Step } from "./api";

const READS: Record<string, string> = {
	"your request": "your request",
	list_agents: "the agents",
	list_tools: "the tools",
	list_mcp_tools: "the connected tools",
	list_knowledge_sources: "the knowledge sources",
	list_doctypes: "the kinds of records",
	get_doctype_schema: "the fields of a kind of record",
	list_models: "the models",
	node_catalog: "the kinds of steps",
	check_flow: "whether the flow would pass the checks",
};

/** One progress line, e.g. "Reading the tools", "Fixing 2 problem(s) (attempt 1 of 3)". */
export function stepWords(step: Step): string {
	if (step.step === "reading") return `Reading ${READS[step.detail] ?? "the site"}`;
	if (step.step === "fixing") return `Fixing ${step.detail || "what the checks found"}`;
	return step.attempt > 1 ? `${step.label} (attempt ${step.attempt})` : step.label;
}

/** "1,234 tokens · $0.0012 · 2.4 s" */
export function usageWords(answer: Pick<Answer<unknown>, "usage" | "cost" | "duration_seconds">): string {
	const cost = answer.cost ? `$${answer.cost < 0.01 ? answer.cost.toFixed(4) : answer.cost.toFixed(2)}` : "no cost recorded";
	return `${answer.usage.total_tokens.toLocaleString("en")} tokens · ${cost} · ${answer.duration_seconds.toFixed(1)} s`;
}

/** Why a turn failed, in the provider's own words when it gave some. */
export function failureWords(answer: Answer<unknown>): string {
	const error = answer.error;
	if (!error) return "The assistant could not answer.";
	const kinds: Record<string, string> = { rate_limit: "The provider is limiting requests right now.", auth: "The provider refused the assistant's key." };
	const lead = kinds[error.kind] ?? error.message;
	return error.cause && !lead.includes(error.cause) ? `${lead} The provider said: ${error.cause}` : lead;
}
