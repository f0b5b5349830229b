// The shapes of connections that React Flow does not draw for us: a link back up the flow, routed
// below every step between its two ends instead of behind them, and the arrowhead at a step's way in.
// Pure, so they can be tested without a browser.

/** How far a link back runs out of its way out, and into its way in, before it turns. */
const REACH = 24;
/** How far below the lowest step in its way a link back runs. */
const BELOW = 32;
const CORNER = 8;

/** Whether a link from (sourceX) to (targetX) goes back up the flow (its way in is not to the right of its way out). */
export const goesBack = (sourceX: number, targetX: number) => targetX < sourceX + 2 * REACH;

/** A step's box on the canvas. */
export type Box = { x: number; y: number; width: number; height: number };

/** The bottom edge of the lowest step in a link back's way: of the steps whose box reaches into the
 * span the link crosses sideways, from just left of its way in to just right of its way out (its two
 * steps and every step between them). -Infinity when there is none. */
export function lowestInSpan(boxes: Iterable<Box>, sourceX: number, targetX: number): number {
	const left = targetX - REACH;
	const right = sourceX + REACH;
	let bottom = Number.NEGATIVE_INFINITY;
	for (const box of boxes) if (box.x < right && box.x + box.width > left) bottom = Math.max(bottom, box.y + box.height);
	return bottom;
}

/** A link back: out to the right, down below the steps in its way (`bottom`, see `lowestInSpan`),
 * left to before the way in, up, and in from the left. Returns the path and where its label goes. */
export function aroundPath(sourceX: number, sourceY: number, targetX: number, targetY: number, bottom: number): [path: string, labelX: number, labelY: number] {
	const lane = Math.max(bottom, sourceY, targetY) + BELOW;
	const right = sourceX + REACH;
	const left = targetX - REACH;
	const r = CORNER;
	const path = [
		`M ${sourceX} ${sourceY}`,
		`L ${right - r} ${sourceY}`,
		`Q ${right} ${sourceY} ${right} ${sourceY + r}`,
		`L ${right} ${lane - r}`,
		`Q ${right} ${lane} ${right - r} ${lane}`,
		`L ${left + r} ${lane}`,
		`Q ${left} ${lane} ${left} ${lane - r}`,
		`L ${left} ${targetY + r}`,
		`Q ${left} ${targetY} ${left + r} ${targetY}`,
		`L ${targetX} ${targetY}`,
	].join(" ");
	return [path, (right + left) / 2, lane];
}

/** The arrowhead at a way in on a step's left side: a link always arrives there moving right. */
export function arrowHead(targetX: number, targetY: number, size = 8): string {
	return `M ${targetX - size} ${targetY - size / 2} L ${targetX} ${targetY} L ${targetX - size} ${targetY + size / 2} Z`;
}
