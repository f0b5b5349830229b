// Where the canvas looks: the whole flow when its steps stay readable; otherwise its start (the
// trigger furthest left, or the step furthest left) at a size people can read, so a big flow opens
// at its beginning and only the steps on screen are drawn. Used when a flow opens and after Tidy
// up; "Fit the whole flow" in the zoom controls still shows everything.
import { getNodesBounds, getViewportForBounds, type Viewport } from "@xyflow/react";
import type { StepNode } from "./catalog";

/** Below this a step's name (14 px) is smaller than 10 px on screen: the canvas never chooses it. */
export const READABLE_ZOOM = 0.7;
const START_ZOOM = 1;
const MARGIN = 40;

export function openingView(nodes: StepNode[], width: number, height: number): Viewport {
	if (!nodes.length || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
	const bounds = getNodesBounds(nodes);
	const whole = getViewportForBounds(bounds, width, height, 0.1, 1.2, 0.1);
	if (whole.zoom >= READABLE_ZOOM) return whole;
	const triggers = nodes.filter((node) => node.type?.startsWith("trigger."));
	const start = (triggers.length ? triggers : nodes).reduce((left, node) => (node.position.x < left.position.x ? node : left));
	const box = getNodesBounds([start]);
	// The start in the middle of the left edge, unless that leaves empty space above the flow.
	const y = Math.min(height / 2 - (box.y + box.height / 2) * START_ZOOM, MARGIN - bounds.y * START_ZOOM);
	return { zoom: START_ZOOM, x: MARGIN - box.x * START_ZOOM, y };
}
