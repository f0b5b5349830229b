import { describe, expect, it } from "vitest";
import { diffLines, isKind } from "./api";

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
