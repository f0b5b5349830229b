// The settings of the selected connection: when it is followed, its condition, its priority among
// the connections leaving the same step, and a name to show on it.
import { Trash2 } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Field, Input, Select } from "../../../components/ui/field";
import type { Problem } from "./checks";
import { EDGE_TYPES, EDGE_WORDS, kindOf, type EdgeType, type LinkData, type LinkEdge, type StepNode } from "./catalog";

type Props = {
	edge: LinkEdge;
	nodes: StepNode[];
	problems: Problem[];
	readOnly: boolean;
	onChange: (patch: { type?: EdgeType; data?: LinkData }) => void;
	onRemove: () => void;
};

export function LinkSettings({ edge, nodes, problems, readOnly, onChange, onRemove }: Props) {
	const source = nodes.find((node) => node.id === edge.source);
	const target = nodes.find((node) => node.id === edge.target);
	const outcome = kindOf(source?.type)?.outcomes.find((item) => item.id === edge.sourceHandle);
	const type = edge.type ?? "always";
	const conditionProblem = problems.find((problem) => problem.field === "condition")?.message;
	return (
		<form aria-label="Connection settings" className="grid gap-3" onSubmit={(event) => event.preventDefault()}>
			<div>
				<h2 className="text-base font-semibold">Connection</h2>
				<p className="text-sm text-slate-600">
					From <strong className="font-medium">{source?.data.label || edge.source}</strong>
					{outcome ? ` (${outcome.label})` : ""} to <strong className="font-medium">{target?.data.label || edge.target}</strong>
				</p>
			</div>
			{problems.filter((problem) => problem.field !== "condition").map(({ message: problem }) => (
				<p key={problem} role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-800">
					{problem}
				</p>
			))}
			<Field label="Follow it" hint={EDGE_WORDS[type].description}>
				{(props) => (
					<Select value={type} disabled={readOnly} onChange={(event) => onChange({ type: event.target.value as EdgeType })} {...props}>
						{EDGE_TYPES.map((option) => (
							<option key={option} value={option}>
								{EDGE_WORDS[option].title}
							</option>
						))}
					</Select>
				)}
			</Field>
			{type === "expression" || edge.data?.condition ? (
				<Field label="Condition" error={conditionProblem} hint="For example: nodes.score > 50 or trigger.lead.country == 'DE'">
					{(props) => <Input value={edge.data?.condition ?? ""} disabled={readOnly} onChange={(event) => onChange({ data: { condition: event.target.value } })} {...props} />}
				</Field>
			) : null}
			<Field label="Priority" hint="When several connections could be followed, the highest priority is tried first.">
				{(props) => (
					<Input
						type="number"
						step={1}
						value={edge.data?.priority ?? 0}
						disabled={readOnly}
						onChange={(event) => onChange({ data: { priority: Math.trunc(Number(event.target.value) || 0) } })}
						{...props}
					/>
				)}
			</Field>
			<Field label="Name (optional)">
				{(props) => <Input value={edge.data?.label ?? ""} disabled={readOnly} onChange={(event) => onChange({ data: { label: event.target.value } })} {...props} />}
			</Field>
			{readOnly ? null : (
				<Button type="button" variant="outline" onClick={onRemove}>
					<Trash2 className="h-4 w-4" aria-hidden />
					Remove this connection
				</Button>
			)}
		</form>
	);
}
