// A User Timing measure of how long the canvas took from mounting to every step drawn and measured,
// for benchmarks/flow_canvas.py (and the browser's performance panel) to read.
import { useNodesInitialized } from "@xyflow/react";
import { useEffect, useRef } from "react";

export const FIRST_RENDER = "huf:flow-canvas-first-render";

export function useFirstRenderMark(): void {
	const start = useRef(performance.now());
	const ready = useNodesInitialized();
	const done = useRef(false);
	useEffect(() => {
		if (!ready || done.current) return;
		done.current = true;
		requestAnimationFrame(() => performance.measure(FIRST_RENDER, { start: start.current }));
	}, [ready]);
}
