import { describe, expect, it } from "vitest";
import { aroundPath, lowestInSpan, type Box } from "./routes";

const W = 200;
const H = 80;
const box = (x: number, y: number, height = H): Box => ({ x, y, width: W, height });
/** The y of the lane a path runs along: its lowest point. */
const laneOf = (path: string) => Math.max(...[...path.matchAll(/-?\d+(?:\.\d+)? (-?\d+(?:\.\d+)?)/g)].map((match) => Number(match[1])));

// A link back from the way out of `last` (its right side) to the way in of `first` (its left side).
const first = box(0, 0);
const last = box(600, 0);
const sourceX = last.x + W;
const targetX = first.x;

describe("a link back up the flow", () => {
	it("runs below a step between its two ends that lies lower than both", () => {
		const between = box(300, 240);
		const bottom = lowestInSpan([first, between, last], sourceX, targetX);
		expect(bottom).toBe(240 + H);
		const [path, , labelY] = aroundPath(sourceX, 40, targetX, 40, bottom);
		expect(laneOf(path)).toBeGreaterThan(between.y + H);
		expect(labelY).toBeGreaterThan(between.y + H);
	});

	it("runs below the lowest of several steps in its way, and below its own steps when they are lowest", () => {
		expect(lowestInSpan([first, box(200, 100), box(400, 500, 120), box(300, 300), last], sourceX, targetX)).toBe(620);
		expect(lowestInSpan([box(0, 400), box(300, 100), last], sourceX, targetX)).toBe(480);
		expect(lowestInSpan([first, box(300, 100), box(600, 700)], sourceX, targetX)).toBe(780);
	});

	it("counts a step that only reaches into its span, and no step outside it", () => {
		const left = targetX - 24; // the link turns up just left of its way in
		const right = sourceX + 24; // and down just right of its way out
		expect(lowestInSpan([first, last, box(left - W + 1, 900)], sourceX, targetX)).toBe(900 + H); // reaches in by 1 px from the left
		expect(lowestInSpan([first, last, box(right - 1, 900)], sourceX, targetX)).toBe(900 + H); // and from the right
		expect(lowestInSpan([first, last, box(left - W, 900), box(right, 900), box(-1000, 2000), box(2000, 2000)], sourceX, targetX)).toBe(H);
	});

	it("with no step known yet, runs just below its two ends", () => {
		const bottom = lowestInSpan([], sourceX, targetX);
		expect(bottom).toBe(Number.NEGATIVE_INFINITY);
		const [path] = aroundPath(sourceX, 40, targetX, 60, bottom);
		expect(laneOf(path)).toBe(60 + 32);
	});
});
