// When the canvas has first been drawn: every step of the flow handed to the canvas, and the ones on
// screen measured and painted. The builder draws what sits beside the canvas (its checks, the step
// list, the overview map) only then, so opening a big flow shows the canvas first. The time from the
// builder mounting to that first paint is kept as a User Timing measure for
// benchmarks/flow_canvas.py and the browser's performance panel.
import { useStore, type ReactFlowState } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";

export const FIRST_RENDER = "huf:flow-canvas-first-render";

/** Whether the canvas holds all `steps` and every one inside its visible part has been measured. */
function onScreenMeasured(state: ReactFlowState, steps: number): boolean {
	const { width, height, transform, nodeLookup } = state;
	if (!width || !height || nodeLookup.size < steps) return false;
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

/** Runs `then` once the browser has painted the next frame. */
function afterPaint(then: () => void): () => void {
	let live = true;
	const frame = requestAnimationFrame(() => {
		const channel = new MessageChannel();
		channel.port1.onmessage = () => live && then();
		channel.port2.postMessage(null);
	});
	return () => {
		live = false;
		cancelAnimationFrame(frame);
	};
}

/** Whether the canvas showing `steps` steps has been drawn once; false at first, then true for good. */
export function useFirstDrawn(steps: number): boolean {
	const start = useRef(performance.now());
	const [drawn, setDrawn] = useState(false);
	const ready = useStore((state) => drawn || onScreenMeasured(state, steps));
	useEffect(() => {
		if (!ready || drawn) return;
		return afterPaint(() => {
			performance.measure(FIRST_RENDER, { start: start.current });
			setDrawn(true);
		});
	}, [ready, drawn]);
	return drawn;
}
