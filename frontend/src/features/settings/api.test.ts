import { describe, expect, it } from "vitest";
import { byArea, kindLabel, recordPath, seedSummary, type CapabilityInfo } from "./api";

describe("settings helpers", () => {
	it("groups permissions by what they are about, in the server's order", () => {
		const capabilities: CapabilityInfo[] = [
			{ name: "agent.read", description: "See agents." },
			{ name: "agent.write", description: "Change agents." },
			{ name: "run.read.all", description: "See everyone's runs." },
			{ name: "settings.write", description: "Decide who may do what." },
		];
		expect(byArea(capabilities).map((group) => [group.area, group.capabilities.map((c) => c.name)])).toEqual([
			["Agents", ["agent.read", "agent.write"]],
			["Conversations and runs", ["run.read.all"]],
			["Settings", ["settings.write"]],
		]);
	});

	it("names seeded records in plain words and links those the web app shows", () => {
		expect(kindLabel("Agent Tool Function")).toBe("Tool");
		expect(kindLabel("Flow Definition")).toBe("Flow");
		expect(recordPath("Agent", "Site helper")).toBe("/agents/Site%20helper");
		expect(recordPath("Agent Prompt", "tone")).toBe("/prompts/prompt/tone");
		expect(recordPath("Agent Trigger", "nightly")).toBeNull();
	});

	it("sums up a seeding in words, leaving out what did not happen", () => {
		const report = { created: ["Agent: a", "Tool: b"], updated: [], unchanged: 3, kept: ["Agent: c: changed from the app's version"], waiting: [], skipped: ["x"], notes: [] };
		expect(seedSummary(report)).toBe("Done: 2 added, 3 already up to date, 1 left as changed here, 1 skipped because of a problem.");
		expect(seedSummary({ ...report, created: [], unchanged: 0, kept: [], skipped: [] })).toBe("Done: no app ships anything for Huf.");
	});
});
