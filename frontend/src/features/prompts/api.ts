import { useQuery } from "@tanstack/react-query";
import { call, getList, saveDoc } from "../../lib/api";
import type { FieldErrors } from "../../lib/rules";

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

export const DOCTYPE: Record<PromptKind, string> = { prompt: "Agent Prompt", summary: "Agent Summary Prompt" };
const CATEGORY: Record<PromptKind, string> = { prompt: "Agent Prompt Category", summary: "Agent Summary Prompt Category" };

export const VISIBILITY: { value: PromptRow["visibility"]; label: string }[] = [
	{ value: "Public", label: "Everyone" },
	{ value: "App", label: "Everyone (from an app)" },
	{ value: "Private", label: "Only its owner and managers" },
];

export const useCategories = (kind: PromptKind) =>
	useQuery({
		queryKey: ["prompt-categories", kind],
		queryFn: async () => (await getList<{ name: string }>(CATEGORY[kind], { order_by: "name asc", limit: 500 })).map((row) => row.name),
	});

/** What a manager edits: the newest version's fields. A changed text makes the next version. */
export type PromptDraft = {
	title: string;
	slug: string;
	category: string;
	visibility: PromptRow["visibility"];
	description: string;
	is_active: 0 | 1;
	prompt_body: string;
};

export const MAX_BODY_CHARS = 100_000;
const SHORT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function emptyPrompt(kind: PromptKind): PromptDraft {
	return { title: "", slug: "", category: "", visibility: "Public", description: "", is_active: 1, prompt_body: kind === "summary" ? "Summarize this conversation:\n\n{summary_data}" : "" };
}

/** The short name the server makes from a title when none is given (huf/ai/prompts.py make_slug). */
export function shortName(title: string): string {
	return title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The server's rules, checked before saving (the server checks them again). */
export function validatePrompt(draft: PromptDraft, isNew: boolean): FieldErrors<PromptDraft> {
	const errors: FieldErrors<PromptDraft> = {};
	if (!draft.title.trim()) errors.title = "Give the prompt a title.";
	if (isNew) {
		const name = draft.slug.trim() || shortName(draft.title);
		if (draft.title.trim() && !SHORT_NAME.test(name)) errors.slug = "Use lowercase letters, digits and single hyphens between them, e.g. support-tone.";
	}
	if (!draft.prompt_body.trim()) errors.prompt_body = "Write the text of the prompt.";
	else if (draft.prompt_body.length > MAX_BODY_CHARS) errors.prompt_body = `The text is ${draft.prompt_body.length.toLocaleString("en")} characters long; the limit is ${MAX_BODY_CHARS.toLocaleString("en")}.`;
	return errors;
}

// The server's refusals, by their title, in this page's words and next to their field.
const SERVER_ERRORS: Record<string, [keyof PromptDraft, string]> = {
	"Invalid slug": ["slug", "Use lowercase letters, digits and single hyphens between them, e.g. support-tone."],
	"Slug taken": ["slug", "There is already a prompt with this short name. Pick another short name or title."],
	"Prompt too long": ["prompt_body", ""],
};

export function promptFieldOfServerError(title: string, message: string): [keyof PromptDraft, string] | null {
	const found = SERVER_ERRORS[title];
	return found ? [found[0], found[1] || message] : null;
}

export type SavedPrompt = { name: string; version: number };

export function savePrompt(kind: PromptKind, draft: PromptDraft, name?: string): Promise<SavedPrompt> {
	const { slug, ...fields } = draft;
	const doc = { ...fields, category: fields.category || null, ...(name ? {} : { slug: slug.trim() || shortName(draft.title) }) };
	return saveDoc<SavedPrompt>(DOCTYPE[kind], doc, name);
}
