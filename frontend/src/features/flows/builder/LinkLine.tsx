// One connection on the canvas: a curve from a way out to a way in, ending in an arrow, labelled with
// when it is followed; dashed when it is followed on failure, green once a run took it. A link back
// up the flow runs below its two steps and every step between them, not behind them (routes.ts).
import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type EdgeProps, type InternalNode } from "@xyflow/react";
import { memo, useContext } from "react";
import { cn } from "../../../lib/cn";
import type { LinkEdge } from "./catalog";
import { LookContext } from "./look";
import { aroundPath, arrowHead, goesBack, lowestInSpan, type Box } from "./routes";
import { describeLink } from "./words";

/** Every step's box on the canvas (a step not measured yet has no size). */
function* boxes(nodes: Map<string, InternalNode>): Generator<Box> {
	for (const node of nodes.values()) {
		const { x, y } = node.internals.positionAbsolute;
		yield { x, y, width: node.measured.width ?? 0, height: node.measured.height ?? 0 };
	}
}

function LinkLineView({ id, type, data, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected }: EdgeProps<LinkEdge>) {
	const look = useContext(LookContext);
	const back = goesBack(sourceX, targetX);
	// A number, so a link redraws only when the lowest step in its way moves, not on every change.
	const bottom = useStore((state) => (back ? lowestInSpan(boxes(state.nodeLookup), sourceX, targetX) : 0));
	const [path, labelX, labelY] = back ? aroundPath(sourceX, sourceY, targetX, targetY, bottom) : getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
	const taken = look.overlay?.taken.has(id) ?? false;
	const label = describeLink(type ?? "always", data);
	const stroke = taken ? "#16a34a" : selected ? "#2563eb" : type === "on_failure" ? "#dc2626" : "#64748b";
	return (
		<>
			<BaseEdge id={id} path={path} {...(taken ? { className: "huf-taken" } : {})} data-testid="canvas-link" data-back={back || undefined} style={{ stroke, strokeWidth: taken || selected ? 2.5 : 1.5, ...(type === "on_failure" ? { strokeDasharray: "6 4" } : {}) }} />
			<path d={arrowHead(targetX, targetY)} fill={stroke} data-testid="canvas-arrow" />
			{label ? (
				<EdgeLabelRenderer>
					<div
						data-testid="canvas-link-label"
						data-taken={taken || undefined}
						style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
						className={cn("nodrag nopan pointer-events-auto absolute max-w-48 truncate rounded border bg-white px-1.5 py-0.5 text-[11px]", taken ? "border-green-600 text-green-800" : selected ? "border-blue-600 text-blue-800" : "border-slate-200 text-slate-700")}
					>
						{label}
					</div>
				</EdgeLabelRenderer>
			) : null}
		</>
	);
}

export const LinkLine = memo(LinkLineView);
