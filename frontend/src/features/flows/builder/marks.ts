// When the canvas has first been drawn: every step on screen drawn and measured (so its connections
// are drawn too). The builder draws what sits beside the canvas (its checks, the step list, the
// overview map) only then, so opening a big flow shows the canvas first. The time it took is kept
// as a User Timing measure for benchmarks/flow_canvas.py and the browser's performance panel.
import { useStore, type ReactFlowState } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";

export const FIRST_RENDER = "huf:flow-canvas-first-render";

/** Whether every step inside the visible part of the canvas has been measured. */
function onScreenMeasured(state: ReactFlowState): boolean {
	const { width, height, transform, nodeLookup } = state;
	if (!width || !height) return false;
	const [tx, ty, zoom] = transform;
	const left = -tx / zoom, top = -ty / zoom, right = left + width / zoom, bottom = top + height / zoom;
	for (const node of nodeLookup.values()) {
		const { x, y } = node.internals.positionAbsolute;
		const w = node.measured.width ?? node.initialWidth ?? 0, h = node.measured.height ?? node.initialHeight ?? 0;
		const visible = x < right && x + w > left && y < bottom && y + h > top;
		if (visible && !node.hidden && node.measured.width === undefined) return false;
	}
	return true;
}

/** Whether the canvas has been drawn once; false on the first renders, then true for good. */
export function useFirstDrawn(): boolean {
	const start = useRef(performance.now());
	const [drawn, setDrawn] = useState(false);
	const ready = useStore((state) => drawn || onScreenMeasured(state));
	useEffect(() => {
		if (!ready || drawn) return;
		const frame = requestAnimationFrame(() => {
			performance.measure(FIRST_RENDER, { start: start.current });
			setDrawn(true);
		});
		return () => cancelAnimationFrame(frame);
	}, [ready, drawn]);
	return drawn;
}
