// A connection's rule in a few words, for its label on the canvas.
import type { EdgeType, LinkData } from "./catalog";

export function describeLink(type: EdgeType, data: LinkData | undefined): string {
	const parts: string[] = [];
	if (data?.label) parts.push(data.label);
	if (type === "on_success") parts.push("if it works");
	if (type === "on_failure") parts.push("if it fails");
	if (type === "expression") parts.push(data?.condition ? `when ${data.condition}` : "when … (no condition yet)");
	if (data?.priority) parts.push(`priority ${data.priority}`);
	return parts.join(", ");
}
