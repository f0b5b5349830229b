import { describe, expect, it } from "vitest";
import { pollEvery } from "./poll";

describe("pollEvery", () => {
	it("reads a moving run often at first without live updates, then less often", () => {
		expect(pollEvery("Queued", 1, false)).toBe(250);
		expect(pollEvery("Running", 15, false)).toBe(250);
		expect(pollEvery("Running", 16, false)).toBe(1000);
		expect(pollEvery("Running", 46, false)).toBe(2000);
	});

	it("reads a moving run often at first with live updates too (its events may come before the page listens), then every 2 s behind them", () => {
		expect(pollEvery("Running", 1, true)).toBe(250);
		expect(pollEvery("Running", 16, true)).toBe(2000);
	});

	it("reads a run waiting for a decision every 10 s, and a finished run never", () => {
		expect(pollEvery("Waiting Approval", 1, false)).toBe(10_000);
		expect(pollEvery("Needs Attention", 1, true)).toBe(10_000);
		expect(pollEvery("Success", 1, false)).toBe(false);
		expect(pollEvery("Failed", 1, false)).toBe(false);
		expect(pollEvery(undefined, 0, false)).toBe(false);
	});
});
