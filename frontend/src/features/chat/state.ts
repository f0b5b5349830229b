// The chat as the screen shows it: a list of items built from stored messages, then updated by the
// live events of the running answer. A delta carries only its new piece of text; a snapshot (what a
// stream sends first to a reader that has none of the text) and complete carry the whole text and
// replace it. The stream's Last-Event-ID reconnects mean no delta arrives twice.

export type ToolStep = { id: string; name: string; arguments: string; result: string | null; ok: boolean | null; durationMs: number | null };

/** A call the run waits on until a person approves or rejects it (tools marked Requires approval).
 * `ready`: the run has paused for it (its status said Awaiting Approval), so a decision is taken. */
export type Approval = { id: string; name: string; arguments: string; decision: "Approved" | "Rejected" | null; ready: boolean };
export type StoredApproval = { call_id: string; tool: string; tool_args: unknown };
/** A call the run was doing when its worker died, which may or may not have happened: the run waits
 * (Needs Attention) until a person says Retry, Skip or End. */
export type Attention = { id: string; name: string; arguments: string };

export type FileRef = { file: string; file_name: string; file_url: string };
export type UserItem = { kind: "user"; key: string; text: string; run: string | null; attachments: FileRef[] };
export type AnswerItem = {
	kind: "answer";
	key: string;
	run: string | null;
	text: string;
	tools: ToolStep[];
	approvals: Approval[];
	attention: Attention | null;
	resumed: boolean; // the run went on after an interruption
	status: "running" | "done" | "failed" | "cancelled";
	waiting: boolean; // queued: no worker has taken the run yet
	error: string | null;
	usage: Usage | null;
	message: string | null; // the Agent Message that can be rated
	feedback: string | null;
};
export type ChatItem = UserItem | AnswerItem;
export type Usage = { input_tokens: number; output_tokens: number; total_tokens: number; cost: number; seconds: number | null };

export type StoredMessage = {
	name: string;
	sequence: number;
	role: string;
	kind: string;
	content: string | null;
	tool_name: string | null;
	tool_call_id: string | null;
	tool_calls: string | null;
	tool_status: string | null;
	agent_run: string | null;
	feedback: string | null;
	attachments?: FileRef[];
};

type OpenAICall = { id: string; function: { name: string; arguments: string } };

export function newAnswer(key: string, run: string | null = null): AnswerItem {
	return { kind: "answer", key, run, text: "", tools: [], approvals: [], attention: null, resumed: false, status: "running", waiting: false, error: null, usage: null, message: null, feedback: null };
}

export type StoredRun = { status: string; response?: string | null; error_message?: string | null; input_tokens: number; output_tokens: number; total_tokens: number; total_cost: number; duration_seconds: number | null; resumed_count?: number };

/** Turns stored messages (oldest first) into chat items: one answer per run, its tools inside it. */
export function itemsFromMessages(messages: StoredMessage[], runs: Record<string, StoredRun> = {}): ChatItem[] {
	const items: ChatItem[] = [];
	const answers = new Map<string, AnswerItem>();
	const answerFor = (message: StoredMessage): AnswerItem => {
		const run = message.agent_run ?? message.name;
		let answer = answers.get(run);
		if (!answer) {
			const stored = message.agent_run ? runs[message.agent_run] : undefined;
			const status = stored?.status === "Cancelled" ? "cancelled" : stored?.status === "Failed" ? "failed" : "done";
			// A stopped or failed answer may have no stored reply: show the text it had, and why it ended.
			const text = status === "done" ? "" : (stored?.response ?? "");
			const error = status === "failed" ? (stored?.error_message ?? null) : null;
			const resumed = Boolean(stored?.resumed_count);
			answer = { ...newAnswer(`answer-${run}`, message.agent_run), status, text, error, resumed, usage: stored ? usageOf(stored) : null };
			answers.set(run, answer);
			items.push(answer);
		}
		return answer;
	};
	for (const message of messages) {
		if (message.role === "user") {
			items.push({ kind: "user", key: message.name, text: message.content ?? "", run: message.agent_run, attachments: message.attachments ?? [] });
			const ended = message.agent_run ? runs[message.agent_run]?.status : undefined;
			if (ended === "Cancelled" || ended === "Failed") answerFor({ ...message, role: "agent" });
			continue;
		}
		const answer = answerFor(message);
		if (message.kind === "Tool Call") {
			if (message.content) answer.text += (answer.text ? "\n\n" : "") + message.content;
			const calls = JSON.parse(message.tool_calls || "[]") as OpenAICall[];
			for (const call of calls) answer.tools.push({ id: call.id, name: call.function.name, arguments: call.function.arguments, result: null, ok: null, durationMs: null });
		} else if (message.kind === "Tool Result") {
			const step = answer.tools.find((tool) => tool.id === message.tool_call_id);
			if (step) Object.assign(step, { result: message.content ?? "", ok: message.tool_status !== "Failed" });
		} else if (message.kind === "Error") {
			Object.assign(answer, { status: "failed", error: message.content ?? "" });
		} else {
			Object.assign(answer, { text: message.content ?? "", message: message.name, feedback: message.feedback });
		}
	}
	return items;
}

/** The calls a paused run waits on, as the chat's messages page lists them (a reload shows them again). */
export function approvalsFrom(stored: StoredApproval[] = []): Approval[] {
	return stored.map((row) => ({
		id: row.call_id,
		name: row.tool,
		arguments: argumentsText(row.tool_args),
		decision: null,
		ready: true,
	}));
}

/** The call a run stopped on, as the chat's messages page lists it (a reload asks again). */
export function attentionFrom(stored: StoredApproval[] = []): Attention | null {
	const [row] = stored;
	return row ? { id: row.call_id, name: row.tool, arguments: argumentsText(row.tool_args) } : null;
}

function argumentsText(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value ?? {});
}

/** JSON text indented for reading; any other text as it is. */
export function pretty(text: string | null): string {
	if (!text) return "";
	try {
		return JSON.stringify(JSON.parse(text), null, 2);
	} catch {
		return text;
	}
}

/** "delete_document" -> "Delete document": a tool's name as a person reads it. */
export function toolLabel(name: string): string {
	const words = name.replace(/[_.]+/g, " ").trim();
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Applies one live event of the running answer; returns a new answer (the old one is not changed). */
export function applyEvent(answer: AnswerItem, event: string, data: Record<string, unknown>): AnswerItem {
	const next: AnswerItem = { ...answer, tools: answer.tools.map((tool) => ({ ...tool })), approvals: answer.approvals.map((a) => ({ ...a })) };
	if (!next.run && typeof data.run === "string") next.run = data.run;
	switch (event) {
		case "delta":
			next.text += String(data.content ?? "");
			break;
		case "snapshot":
			next.text = String(data.full_response ?? "");
			break;
		case "resumed": // the run goes on after an interruption, from the text of its recorded steps
			next.text = String(data.full_response ?? "");
			next.resumed = true;
			break;
		case "tool_call": {
			const id = String(data.id);
			if (!next.tools.some((tool) => tool.id === id)) {
				next.tools.push({ id, name: String(data.name), arguments: argumentsText(data.arguments), result: null, ok: null, durationMs: null });
			}
			break;
		}
		case "tool_approval": {
			const id = String(data.id);
			if (!next.approvals.some((approval) => approval.id === id)) {
				next.approvals.push({ id, name: String(data.name), arguments: argumentsText(data.arguments), decision: null, ready: false });
			}
			break;
		}
		case "tool_decision": {
			const approval = next.approvals.find((a) => a.id === String(data.id));
			if (approval) approval.decision = data.decision === "Approved" ? "Approved" : "Rejected";
			break;
		}
		case "tool_result": {
			const step = next.tools.find((tool) => tool.id === String(data.id));
			if (step) Object.assign(step, { result: String(data.content ?? data.error ?? ""), ok: Boolean(data.ok), durationMs: Number(data.duration_ms ?? 0) });
			break;
		}
		case "complete": {
			const usage = (data.usage ?? {}) as Record<string, number>;
			next.text = String(data.response ?? next.text);
			next.usage = {
				input_tokens: usage.input_tokens ?? 0,
				output_tokens: usage.output_tokens ?? 0,
				total_tokens: usage.total_tokens ?? 0,
				cost: Number(data.cost ?? 0),
				seconds: data.duration_seconds == null ? null : Number(data.duration_seconds),
			};
			break;
		}
		case "error":
			next.error = String(data.message ?? "The agent could not answer.");
			break;
		case "status": {
			next.waiting = data.status === "Queued";
			if (data.status === "Awaiting Approval") for (const approval of next.approvals) approval.ready = true;
			const call = data.call as Record<string, unknown> | undefined;
			next.attention = data.status === "Needs Attention" && call ? { id: String(call.id), name: String(call.name), arguments: argumentsText(call.arguments) } : null;
			if (data.status === "Success") next.status = "done";
			else if (data.status === "Failed") {
				next.status = "failed";
				next.error = next.error ?? String(data.error ?? "The agent could not answer.");
			} else if (data.status === "Cancelled") next.status = "cancelled";
			break;
		}
	}
	return next;
}

function usageOf(run: StoredRun): Usage | null {
	if (run.status !== "Success") return null;
	return { input_tokens: run.input_tokens, output_tokens: run.output_tokens, total_tokens: run.total_tokens, cost: run.total_cost, seconds: run.duration_seconds };
}

export function formatCost(cost: number): string {
	if (!cost) return "$0";
	return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
