// The builder assistant's calls. Each asks for one turn: the answer comes back from the call, and
// its progress (reading the site, drafting, checking, fixing) streams meanwhile on the chat's own
// stream, under a turn id made here.
import { useQuery } from "@tanstack/react-query";
import { call, saveDoc } from "../../lib/api";
import { RunStream } from "../../lib/sse";

export type Step = { step: "reading" | "drafting" | "checking" | "fixing"; label: string; attempt: number; detail: string };
export type Usage = { input_tokens: number; output_tokens: number; total_tokens: number };
export type Answer<R> = {
	turn: string;
	status: "ok" | "problems" | "failed";
	result: R | null;
	proposal: Record<string, unknown> | null;
	problems: string[];
	attempts: number;
	model_calls: number;
	usage: Usage;
	cost: number;
	duration_seconds: number;
	error?: { kind: string; message: string; cause: string | null };
};
export type Status = { ready: boolean; can_set_up: boolean };
const LAST_STEPS_MS = 5000;

export type Method = "propose_flow" | "draft_agent" | "explain_flow_run" | "explain_run";

export function newTurn(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(12));
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** One turn of ``method``; ``onStep`` hears each progress step as it happens. */
export async function ask<R>(method: Method, args: Record<string, unknown>, onStep: (step: Step) => void): Promise<Answer<R>> {
	const turn = newTurn();
	const stream = new RunStream({ onEvent: (event, data) => event === "progress" && onStep(data as Step), onError: () => undefined, onEnd: () => undefined });
	const followed = stream.attachTurn(turn);
	try {
		return await call<Answer<R>>(`huf.ai.assistant.api.${method}`, { ...args, turn }, true);
	} finally {
		// The last steps may still be on their way: they are heard until the turn's final status, or for a while.
		const stop = setTimeout(() => stream.close(), LAST_STEPS_MS);
		void followed.finally(() => clearTimeout(stop));
	}
}

export function useAssistantStatus() {
	return useQuery({ queryKey: ["assistant-status"], queryFn: () => call<Status>("huf.ai.assistant.api.assistant_status") });
}

export function chooseModel(model: string) {
	return saveDoc("Agent Settings", { assistant_model: model }, "Agent Settings");
}
