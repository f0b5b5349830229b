// The canvas's grid, and the size of a step on it with the places of its ways in and out. StepCard
// draws a step to exactly these pixels, so React Flow knows every step's size and connection points
// before drawing it: a big flow then draws only the steps on screen, and a connection to a step off
// screen is still drawn. (React Flow measures each step it draws and uses what it measured.)
import { Position, type NodeHandle } from "@xyflow/react";
import { kindOf } from "./catalog";

export const GRID = 20;
export const STEP_WIDTH = 240;
/** Border 1 and padding 8 above the name-and-kind row (36); the same below it. */
const BELOW_HEADER = 1 + 8 + 36;
export const STEP_HEIGHT = BELOW_HEADER + 8 + 1;
/** On a run, the line saying what the step is doing. */
const STATE_ROW = 20;
/** Each named way out gets a row (16, 4 apart) below a gap of 8. */
const OUTCOME_ROW = 16;
const OUTCOME_GAP = 4;
const OUTCOMES_TOP = 8;
const HANDLE = 12;

type StepBox = { width: number; height: number; handles: NodeHandle[] };

const handle = (type: "source" | "target", id: string | null, centreY: number): NodeHandle => ({
	id,
	type,
	position: type === "target" ? Position.Left : Position.Right,
	x: (type === "target" ? 0 : STEP_WIDTH) - HANDLE / 2,
	y: centreY - HANDLE / 2,
	width: HANDLE,
	height: HANDLE,
});

/** Where the middle of outcome row `index` is, from the step's top edge. */
export const outcomeCentre = (index: number, onRun: boolean) => BELOW_HEADER + (onRun ? STATE_ROW : 0) + OUTCOMES_TOP + index * (OUTCOME_ROW + OUTCOME_GAP) + OUTCOME_ROW / 2;

/** A step's box on the canvas: its size and its ways in and out (with `onRun`, the run's state line too). */
export function stepBox(type: string | undefined, onRun: boolean): StepBox {
	const kind = kindOf(type);
	const outcomes = kind?.outcomes ?? [];
	const rows = outcomes.length ? OUTCOMES_TOP + outcomes.length * OUTCOME_ROW + (outcomes.length - 1) * OUTCOME_GAP : 0;
	const height = STEP_HEIGHT + (onRun ? STATE_ROW : 0) + rows;
	const handles: NodeHandle[] = [];
	if (kind?.hasInput) handles.push(handle("target", null, height / 2));
	if (outcomes.length) outcomes.forEach((outcome, index) => handles.push(handle("source", outcome.id, outcomeCentre(index, onRun))));
	else if (kind?.hasOutput) handles.push(handle("source", null, height / 2));
	return { width: STEP_WIDTH, height, handles };
}
