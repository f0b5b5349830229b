// One connection on the canvas: a curve from a way out to a way in, labelled with when it is
// followed; dashed when it is followed on failure, green once a run took it.
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { memo, useContext } from "react";
import { cn } from "../../../lib/cn";
import type { LinkEdge } from "./catalog";
import { LookContext } from "./look";
import { describeLink } from "./words";

function LinkLineView({ id, type, data, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd }: EdgeProps<LinkEdge>) {
	const look = useContext(LookContext);
	const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
	const taken = look.overlay?.taken.has(id) ?? false;
	const label = describeLink(type ?? "always", data);
	const stroke = taken ? "#16a34a" : selected ? "#2563eb" : type === "on_failure" ? "#dc2626" : "#64748b";
	return (
		<>
			<BaseEdge id={id} path={path} {...(taken ? { className: "huf-taken" } : {})} data-testid="canvas-link" {...(markerEnd ? { markerEnd } : {})} style={{ stroke, strokeWidth: taken || selected ? 2.5 : 1.5, ...(type === "on_failure" ? { strokeDasharray: "6 4" } : {}) }} />
			{label ? (
				<EdgeLabelRenderer>
					<div
						data-testid="canvas-link-label"
						data-taken={taken || undefined}
						style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
						className={cn("nodrag nopan pointer-events-auto absolute max-w-48 truncate rounded border bg-white px-1.5 py-0.5 text-[11px]", taken ? "border-green-600 text-green-800" : selected ? "border-blue-600 text-blue-800" : "border-slate-200 text-slate-600")}
					>
						{label}
					</div>
				</EdgeLabelRenderer>
			) : null}
		</>
	);
}

export const LinkLine = memo(LinkLineView);
