// The agent form's rules, the same ones the server enforces (huf/huf/doctype/agent/agent.py), so a
// mistake shows next to its field before saving; the server still checks everything.
import { fieldOfRefusal, isWhole, NAME_CHARACTERS, NAME_PATTERN, type FieldErrors } from "../../lib/rules";

export type AgentDraft = {
	agent_name: string;
	description: string;
	disabled: 0 | 1;
	provider: string;
	model: string;
	instructions: string;
	prompt_mode: "Local" | "Template";
	prompt_template: string;
	prompt_version_locked: 0 | 1;
	template_version_at_attach: number;
	temperature: number;
	top_p: number;
	enable_prompt_caching: 0 | 1;
	agent_tool: { tool: string }[];
	allow_chat: 0 | 1;
	allow_guest: 0 | 1;
	allow_file_attachments: 0 | 1;
	run_immediately: 0 | 1;
	agent_users: { user: string }[];
	agent_roles: { role: string }[];
	persist_conversation: 0 | 1;
	persist_user_history: 0 | 1;
	enable_conversation_data: 0 | 1;
	inject_conversation_data: 0 | 1;
	summary_model: string;
	summary_prompt: string;
	summary_prompt_mode: "Local" | "Template";
	summary_prompt_template: string;
	summary_prompt_version_locked: 0 | 1;
	summary_template_version_at_attach: number;
	autonaming_of_conversation_title: 0 | 1;
	context_strategy: "None" | "FIFO" | "Summarize";
	history_limit: number;
	summary_ratio: number;
	max_turns: number;
	max_context_chars: number;
	max_agent_depth: number;
	agent_knowledge: KnowledgeBinding[];
	max_knowledge_tokens: number;
	agent_mcp_server: McpBinding[];
	stt_model: string;
	tts_model: string;
	tts_voice: string;
	image_model: string;
	modified?: string;
};

export type KnowledgeBinding = { knowledge_source: string; mode: "Mandatory" | "Optional"; priority: number; token_budget: number };

/** A tool server (MCP) the agent uses; the server fills in tool_count when the agent is saved. */
export type McpBinding = { mcp_server: string; enabled: 0 | 1; tool_count: number | null };

export const MAX_TURNS_LIMIT = 50;

export function emptyAgent(): AgentDraft {
	return {
		agent_name: "", description: "", disabled: 0, provider: "", model: "", instructions: "",
		prompt_mode: "Local", prompt_template: "", prompt_version_locked: 0, template_version_at_attach: 0, temperature: 1, top_p: 1,
		enable_prompt_caching: 0,
		agent_tool: [], allow_chat: 1, allow_guest: 0, allow_file_attachments: 0, run_immediately: 0, agent_users: [], agent_roles: [],
		persist_conversation: 1, persist_user_history: 1, enable_conversation_data: 0, inject_conversation_data: 0, summary_model: "", summary_prompt: "",
		summary_prompt_mode: "Local", summary_prompt_template: "", summary_prompt_version_locked: 0, summary_template_version_at_attach: 0,
		autonaming_of_conversation_title: 0, context_strategy: "FIFO", history_limit: 20,
		summary_ratio: 0.7, max_turns: 10, max_context_chars: 20000, max_agent_depth: 2, agent_knowledge: [], max_knowledge_tokens: 4000, agent_mcp_server: [],
		stt_model: "", tts_model: "", tts_voice: "", image_model: "",
	};
}

export function validateAgent(draft: AgentDraft, modelProvider: (model: string) => string | undefined): FieldErrors<AgentDraft> {
	const errors: FieldErrors<AgentDraft> = {};
	const name = draft.agent_name.trim();
	if (!name) errors.agent_name = "Give the agent a name.";
	else if (!NAME_PATTERN.test(name)) errors.agent_name = NAME_CHARACTERS;
	else if (name.length > 140) errors.agent_name = "Keep the name under 140 characters.";
	if (!draft.model) errors.model = "Pick the model this agent uses.";
	else if (!modelProvider(draft.model)) errors.model = "This model isn't available. Pick one of a provider that is set up.";
	if (!(draft.temperature >= 0 && draft.temperature <= 2)) errors.temperature = "Use a number from 0 to 2.";
	if (!(draft.top_p > 0 && draft.top_p <= 1)) errors.top_p = "Use a number above 0 and at most 1.";
	if (!isWhole(draft.max_turns, 1, MAX_TURNS_LIMIT)) errors.max_turns = `Use a whole number from 1 to ${MAX_TURNS_LIMIT}.`;
	if (draft.context_strategy !== "None" && !isWhole(draft.history_limit, 1)) errors.history_limit = "Keep at least 1 message, or choose to send the whole history.";
	if (draft.context_strategy === "Summarize" && !(draft.summary_ratio > 0 && draft.summary_ratio < 1)) errors.summary_ratio = "Use a number above 0 and below 1, e.g. 0.7.";
	if (!(draft.max_context_chars >= 0)) errors.max_context_chars = "This can't be negative.";
	if (!(draft.max_agent_depth >= 0)) errors.max_agent_depth = "This can't be negative.";
	if (draft.context_strategy === "Summarize" && draft.summary_model && !modelProvider(draft.summary_model)) errors.summary_model = "This model isn't available. Pick another, or leave it empty to use the agent's model.";
	for (const key of ["stt_model", "tts_model", "image_model"] as const)
		if (draft[key] && !modelProvider(draft[key])) errors[key] = "This model isn't available. Pick another, or leave it empty for the provider's usual one.";
	if (draft.tts_voice.length > 140) errors.tts_voice = "Keep the voice's name under 140 characters.";
	if (draft.prompt_mode === "Template" && !draft.prompt_template) errors.prompt_template = "Pick a prompt from the library, or write the instructions here.";
	if (draft.context_strategy === "Summarize" && draft.summary_prompt_mode === "Template" && !draft.summary_prompt_template)
		errors.summary_prompt_template = "Pick summary instructions from the library, or write them here.";
	const tools = draft.agent_tool.map((row) => row.tool);
	if (new Set(tools).size !== tools.length) errors.agent_tool = "A tool is in the list twice.";
	const knowledge = validateKnowledge(draft);
	if (knowledge) errors.agent_knowledge = knowledge;
	if (draft.agent_mcp_server.some((row) => !row.mcp_server)) errors.agent_mcp_server = "Choose a server for every row, or remove the empty row.";
	if (draft.agent_knowledge.length && !isWhole(draft.max_knowledge_tokens, 1))
		errors.max_knowledge_tokens = "Use a whole number above 0: the most the agent reads from knowledge on each turn.";
	return errors;
}

function validateKnowledge(draft: AgentDraft): string | null {
	const rows = draft.agent_knowledge;
	if (rows.some((row) => !row.knowledge_source)) return "Choose a source for every row, or remove the empty row.";
	const keys = rows.map((row) => `${row.knowledge_source}|${row.mode}`);
	if (new Set(keys).size !== keys.length) return "A source is in the list twice with the same use.";
	if (rows.some((row) => row.mode === "Mandatory" && !isWhole(row.token_budget, 1)))
		return "Give every always-included source a budget above 0.";
	return null;
}

// The server's refusals, by their title, belong next to these fields.
export const fieldOfServerError = fieldOfRefusal<keyof AgentDraft>(
	{
		"Model and provider do not match": "model",
		"Model Disabled": "model",
		"Invalid Temperature": "temperature",
		"Invalid Top P": "top_p",
		"Invalid Max Turns": "max_turns",
		"Invalid History Limit": "history_limit",
		"Invalid Summary Ratio": "summary_ratio",
		"Duplicate Tool": "agent_tool",
		"Unknown Tool": "agent_tool",
		"Duplicate Name": "agent_name",
		"Invalid Max Knowledge Tokens": "max_knowledge_tokens",
		"Duplicate Knowledge Source": "agent_knowledge",
		"Invalid Token Budget": "agent_knowledge",
		"No prompt picked": "prompt_template",
		"Unknown prompt": "prompt_template",
		"Prompt not active": "prompt_template",
		"Unknown version": "prompt_template",
	},
	"agent_name",
);
