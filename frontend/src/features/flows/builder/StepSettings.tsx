// The settings panel of the step chosen on the canvas: what kind of step it is, its name, the
// settings of its kind, "Advanced", and where it leads next. Every field shows the values saved in
// the step and gives the whole new settings back on each change; read-only (an old version, a run)
// everything is shown and nothing can be changed.
import { AlertCircle } from "lucide-react";
import { useMemo } from "react";
import { Field, Input } from "../../../components/ui/field";
import { kindOf, type Config, type LinkEdge, type StepNode } from "./catalog";
import { Advanced } from "./settings/Advanced";
import { COMMON_KEYS, isShown, KIND_FIELDS } from "./settings/KindFields";
import type { KindProps } from "./settings/kit";
import { NextSteps } from "./settings/NextSteps";
import { variablesAt } from "./variables";

export type StepSettingsProps = {
	node: StepNode;
	nodes: StepNode[];
	edges: LinkEdge[];
	problems: { fields: Record<string, string[]>; general: string[] };
	readOnly?: boolean;
	onChange: (patch: { label?: string; config?: Config }) => void;
	onConnect: (link: { source: string; sourceHandle: string | null; target: string }) => void;
	onDisconnect: (edgeId: string) => void;
};

export function StepSettings({ node, nodes, edges, problems, readOnly = false, onChange, onConnect, onDisconnect }: StepSettingsProps) {
	const kind = kindOf(node.type);
	const variables = useMemo(() => variablesAt(node.id, nodes, edges), [node.id, nodes, edges]);
	const config = node.data.config;
	const shared: KindProps = {
		node,
		config,
		variables,
		errorOf: (key) => problems.fields[key]?.join(" ") || undefined,
		set: (patch) => {
			const next = { ...config, ...patch };
			for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
			onChange({ config: next });
		},
	};
	const fields = kind ? KIND_FIELDS[kind.type] : null;
	const shownKeys = [...COMMON_KEYS, ...(fields?.keys ?? [])];
	// Problems no field of this kind shows go to the top with the step's own.
	const general = [...problems.general, ...Object.entries(problems.fields).flatMap(([key, list]) => (isShown(shownKeys, key) ? [] : list))];
	return (
		// A disabled fieldset disables every control inside it. Keyed by step: what is being typed belongs to one step.
		<fieldset key={node.id} disabled={readOnly} className="grid min-w-0 gap-5" aria-label={`Settings of ${node.data.label || node.id}`}>
			<header className="grid gap-1">
				<h2 className="text-base font-semibold text-slate-900">{kind?.title ?? "Unknown kind of step"}</h2>
				<p className="text-sm text-slate-600">{kind?.description ?? `Huf does not know the kind “${node.type ?? ""}”. Remove this step and add one of the kinds offered instead.`}</p>
			</header>
			{general.length ? (
				<div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
					<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
					<ul className="grid list-none gap-1">
						{general.map((problem, index) => (
							<li key={index}>{problem}</li>
						))}
					</ul>
				</div>
			) : null}
			<Field label="Name" error={shared.errorOf("label")} hint="How this step is shown on the canvas and in runs.">
				{(props) => <Input value={node.data.label} onChange={(e) => onChange({ label: e.target.value })} {...props} />}
			</Field>
			{fields ? <fields.Fields {...shared} /> : null}
			<Advanced {...shared} />
			<NextSteps node={node} nodes={nodes} edges={edges} onConnect={onConnect} onDisconnect={onDisconnect} />
		</fieldset>
	);
}
