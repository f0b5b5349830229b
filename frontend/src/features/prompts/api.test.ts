import { describe, expect, it } from "vitest";
import { diffLines, emptyPrompt, isKind, MAX_BODY_CHARS, promptFieldOfServerError, shortName, validatePrompt } from "./api";

describe("diffLines", () => {
	it("tells added, removed, unchanged and heading lines apart", () => {
		const diff = "--- tone v1\n+++ tone v2\n@@ -1,2 +1,2 @@\n line one\n-line two\n+line 2\n";
		expect(diffLines(diff)).toEqual([
			{ kind: "file", text: "--- tone v1" },
			{ kind: "file", text: "+++ tone v2" },
			{ kind: "hunk", text: "@@ -1,2 +1,2 @@" },
			{ kind: "context", text: "line one" },
			{ kind: "removed", text: "line two" },
			{ kind: "added", text: "line 2" },
		]);
	});

	it("gives nothing for two equal versions", () => {
		expect(diffLines("")).toEqual([]);
	});
});

describe("isKind", () => {
	it("knows the two libraries", () => {
		expect(isKind("prompt") && isKind("summary")).toBe(true);
		expect(isKind("other")).toBe(false);
		expect(isKind(null)).toBe(false);
	});
});

describe("a prompt's rules before saving", () => {
	it("makes the short name from the title, as the server does", () => {
		expect(shortName("Sales: Follow-up  Emails!")).toBe("sales-follow-up-emails");
		expect(shortName("  ")).toBe("");
	});

	it("asks for a title and a text, a usable short name, and a text within the limit", () => {
		expect(validatePrompt(emptyPrompt("prompt"), true)).toEqual({ title: "Give the prompt a title.", prompt_body: "Write the text of the prompt." });
		const draft = { ...emptyPrompt("prompt"), title: "Tone", prompt_body: "Be kind." };
		expect(validatePrompt(draft, true)).toEqual({});
		expect(validatePrompt({ ...draft, slug: "Bad Name" }, true).slug).toMatch(/lowercase letters, digits and single hyphens/);
		expect(validatePrompt({ ...draft, slug: "Bad Name" }, false)).toEqual({}); // a saved prompt's short name is not edited
		expect(validatePrompt({ ...draft, prompt_body: "a".repeat(MAX_BODY_CHARS + 1) }, false).prompt_body).toBe("The text is 100,001 characters long; the limit is 100,000.");
	});

	it("starts summary instructions with the placeholder for the messages", () => {
		expect(emptyPrompt("summary").prompt_body).toContain("{summary_data}");
	});

	it("puts the server's refusals next to their field, in the page's words", () => {
		expect(promptFieldOfServerError("Slug taken", "There is already a prompt with the slug x.")).toEqual(["slug", "There is already a prompt with this short name. Pick another short name or title."]);
		expect(promptFieldOfServerError("Prompt too long", "The prompt body is 100,001 characters long; the limit is 100,000.")?.[0]).toBe("prompt_body");
		expect(promptFieldOfServerError("Something else", "x")).toBeNull();
	});
});
