import { call } from "../../lib/api";
import type { StoredApproval, StoredMessage, StoredRun } from "./state";

export type ChatAgent = { name: string; description: string; allow_file_attachments: 0 | 1; conversation_memory?: 0 | 1 };
/** One thing the agent remembers in a conversation; `inject`: shown to it on every turn. */
export type MemoryItem = { key: string; value: unknown; inject: boolean; updated_at: string | null };
export type Conversation = { name: string; title: string | null; creation: string; total_messages: number };
/** A voice note written down (huf/ai/media/speech_to_text.py); `error` says why not. */
export type Transcript = { success: boolean; text: string; language: string; audio_file_url: string; error?: string };
export type MessagePage = { conversation: string; agent: string; title: string | null; mine: boolean; messages: StoredMessage[]; has_more: boolean; runs: Record<string, StoredRun>; active_run: string | null; awaiting_approval?: StoredApproval[]; needs_attention?: StoredApproval[] };

/** The query of a conversation's memory: the panel reads it, an answer's end refreshes it. */
export const memoryKey = (conversation: string) => ["memory", conversation] as const;

export const chatApi = {
	agents: () => call<ChatAgent[]>("huf.ai.agent.chat.get_chat_agents"),
	conversations: (agent: string) => call<Conversation[]>("huf.ai.agent.chat.get_chat_conversations", { agent_name: agent }),
	messages: (conversation: string, before?: number) =>
		call<MessagePage>("huf.ai.agent.chat.get_agent_chat_messages", { conversation_id: conversation, ...(before ? { before_sequence: before } : {}) }),
	send: (agent: string, message: string, conversation: string | null, attachments: string[] = []) =>
		call<{ run: string; conversation: string }>(
			"huf.ai.agent.chat.send_agent_chat_message",
			{ agent_name: agent, message, ...(conversation ? { conversation_id: conversation } : { new_conversation: 1 }), ...(attachments.length ? { attachments } : {}) },
			true,
		),
	decide: (run: string, callId: string, decision: "approve" | "reject", comment?: string) =>
		call<{ status: string }>("huf.ai.agent.approvals.decide_tool_call", { run, call_id: callId, decision, ...(comment ? { comment } : {}) }, true),
	resolve: (run: string, callId: string, action: "retry" | "skip" | "end", value?: string) =>
		call<{ status: string }>("huf.ai.agent.approvals.resolve_interrupted_call", { run, tool_call: callId, action, ...(value ? { value } : {}) }, true),
	memory: (conversation: string) => call<MemoryItem[]>("huf.ai.agent_state.memory.get_conversation_memory", { conversation }),
	/** `value` is JSON text; "" forgets the key. Gives the conversation's memory as it is now. */
	remember: (conversation: string, key: string, value: string) => call<MemoryItem[]>("huf.ai.agent_state.memory.set_conversation_memory", { conversation, key, value }, true),
	transcribe: (audioFileUrl: string, language: string, agent: string) =>
		call<Transcript>("huf.ai.media.speech_to_text.transcribe_audio", { audio_file_url: audioFileUrl, language, agent }, true),
	cancel: (run: string) => call("huf.ai.agent.integration.cancel_agent_run", { run }, true),
	rate: (message: string, feedback: "Thumbs Up" | "Thumbs Down", comments?: string) =>
		call("huf.ai.agent.feedback.rate_agent_message", { agent_message: message, feedback, ...(comments ? { comments } : {}) }, true),
};
