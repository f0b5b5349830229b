// "Next step": connecting steps without dragging, for the keyboard and screen readers. For each way
// out of the step (its outcomes, or one plain way out) the steps it leads to, each with Remove, and
// a choice of another step to add. Connections the ways out don't account for are listed too, so
// every one can be removed from here.
import { X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../../components/ui/button";
import { Select } from "../../../../components/ui/field";
import { EDGE_WORDS, kindOf, type LinkEdge, type StepNode } from "../catalog";

type NextStepsProps = {
	node: StepNode;
	nodes: StepNode[];
	edges: LinkEdge[];
	onConnect: (link: { source: string; sourceHandle: string | null; target: string }) => void;
	onDisconnect: (edgeId: string) => void;
};

/** A step as people see it: its name, with its id when another step has the same name. */
function namer(nodes: StepNode[]) {
	const count = new Map<string, number>();
	for (const node of nodes) count.set(node.data.label, (count.get(node.data.label) ?? 0) + 1);
	return (id: string) => {
		const node = nodes.find((n) => n.id === id);
		if (!node) return `a missing step (${id})`;
		return !node.data.label ? node.id : (count.get(node.data.label) ?? 0) > 1 ? `${node.data.label} (${node.id})` : node.data.label;
	};
}

export function NextSteps({ node, nodes, edges, onConnect, onDisconnect }: NextStepsProps) {
	const id = useId();
	const kind = kindOf(node.type);
	if (kind && !kind.hasOutput) return null;
	const name = namer(nodes);
	const leaving = edges.filter((edge) => edge.source === node.id);
	const plain = !kind?.outcomes.length;
	const ways = plain ? [{ id: "", label: "Then" }] : (kind?.outcomes ?? []);
	const named = new Set(ways.map((way) => way.id));
	const along = (way: string) => leaving.filter((edge) => plain || (edge.sourceHandle ?? "") === way);
	const others = plain ? [] : leaving.filter((edge) => !named.has(edge.sourceHandle ?? ""));
	const targets = nodes.filter((n) => n.id !== node.id && kindOf(n.type)?.hasInput !== false);
	return (
		<section className="grid gap-3" aria-labelledby={id}>
			<h3 id={id} className="text-sm font-semibold text-slate-900">
				Next step
			</h3>
			{ways.map((way) => (
				<Way
					key={way.id}
					title={way.label}
					edges={along(way.id)}
					empty={plain ? "Not connected: the run ends here." : "Not connected yet."}
					name={name}
					targets={targets}
					onAdd={(target) => onConnect({ source: node.id, sourceHandle: way.id || null, target })}
					onDisconnect={onDisconnect}
				/>
			))}
			{others.length ? <Way title="Other connections" edges={others} name={name} onDisconnect={onDisconnect} /> : null}
		</section>
	);
}

type WayProps = { title: string; edges: LinkEdge[]; empty?: string; name: (id: string) => string; targets?: StepNode[]; onAdd?: (target: string) => void; onDisconnect: (edgeId: string) => void };

function Way({ title, edges, empty, name, targets = [], onAdd, onDisconnect }: WayProps) {
	const id = useId();
	const [target, setTarget] = useState("");
	const offered = targets.filter((n) => !edges.some((edge) => edge.target === n.id));
	return (
		<fieldset className="grid gap-2 rounded-md border border-slate-200 p-3">
			<legend className="px-1 text-sm font-medium text-slate-800">{title}</legend>
			{edges.length ? (
				<ul className="grid gap-1">
					{edges.map((edge) => {
						const when = edge.type && edge.type !== "always" ? ` (${EDGE_WORDS[edge.type].title.toLowerCase()})` : "";
						return (
							<li key={edge.id} className="flex items-center gap-2 text-sm">
								<span className="flex-1">Goes to {name(edge.target)}{when}</span>
								<Button variant="ghost" size="sm" aria-label={`Remove the connection to ${name(edge.target)}`} onClick={() => onDisconnect(edge.id)}>
									<X className="h-4 w-4" aria-hidden /> Remove
								</Button>
							</li>
						);
					})}
				</ul>
			) : (
				<p className="text-sm text-slate-500">{empty}</p>
			)}
			{onAdd ? (
				<div className="flex gap-2">
					<label htmlFor={id} className="sr-only">
						Then go to…
					</label>
					<Select id={id} value={target} onChange={(e) => setTarget(e.target.value)}>
						<option value="">Then go to…</option>
						{offered.map((n) => (
							<option key={n.id} value={n.id}>
								{name(n.id)}
							</option>
						))}
					</Select>
					<Button
						variant="outline"
						disabled={!target}
						onClick={() => {
							onAdd(target);
							setTarget("");
						}}
					>
						Add
					</Button>
				</div>
			) : null}
		</fieldset>
	);
}
