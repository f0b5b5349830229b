import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

const API = "huf.ai.prompts.";

export type PromptKind = "prompt" | "summary";
export const KINDS: { kind: PromptKind; label: string; hint: string }[] = [
	{ kind: "prompt", label: "Agent instructions", hint: "Instructions agents can use instead of their own." },
	{ kind: "summary", label: "Summary instructions", hint: "How agents that summarize long conversations write the summary." },
];

export function isKind(value: string | null | undefined): value is PromptKind {
	return value === "prompt" || value === "summary";
}

export type PromptVersion = { name: string; version: number; is_latest: number; saved_at: string; saved_by: string };
export type PromptUse = { agent: string; pinned: boolean; attached_version: number };
export type PromptRow = {
	name: string;
	title: string;
	slug: string;
	category: string | null;
	description: string | null;
	visibility: "Public" | "App" | "Private";
	is_active: number;
	is_system: number;
	version: number;
	owner: string;
	modified: string;
	versions: PromptVersion[];
	used_by: PromptUse[];
};
export type PromptText = { name: string; prompt: string; title: string; version: number; is_latest: number; prompt_body: string };
export type PromptDiff = { prompt: string; from_version: number; to_version: number; diff: string };

export const usePrompts = (kind: PromptKind) =>
	useQuery({ queryKey: ["prompts", kind], queryFn: () => call<PromptRow[]>(`${API}list_prompts`, { kind }) });

export const usePromptText = (kind: PromptKind, prompt: string, version: number) =>
	useQuery({
		queryKey: ["prompt-text", kind, prompt, version],
		queryFn: () => call<PromptText>(`${API}get_prompt_version`, { kind, prompt, version }),
	});

export const usePromptDiff = (kind: PromptKind, prompt: string, from: number, to: number) =>
	useQuery({
		queryKey: ["prompt-diff", kind, prompt, from, to],
		queryFn: () => call<PromptDiff>(`${API}diff_prompt_versions`, { kind, prompt, from_version: from, to_version: to }),
		enabled: from > 0 && to > 0 && from !== to,
	});

export type DiffLine = { kind: "added" | "removed" | "context" | "hunk" | "file"; text: string };

/** A unified diff's lines, each with what it is (for colour and for screen readers). */
export function diffLines(diff: string): DiffLine[] {
	const lines = diff.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines.map((text) => {
		if (text.startsWith("+++") || text.startsWith("---")) return { kind: "file", text };
		if (text.startsWith("@@")) return { kind: "hunk", text };
		if (text.startsWith("+")) return { kind: "added", text: text.slice(1) };
		if (text.startsWith("-")) return { kind: "removed", text: text.slice(1) };
		return { kind: "context", text: text.startsWith(" ") ? text.slice(1) : text };
	});
}
