import { Plus, Trash2 } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Field, Input, Select } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { useSources } from "../knowledge/api";
import type { KnowledgeBinding } from "./validation";

type Props = {
	rows: KnowledgeBinding[];
	maxTokens: number;
	error: string | undefined;
	maxError: string | undefined;
	onChange: (rows: KnowledgeBinding[]) => void;
	onMaxChange: (value: number) => void;
};

const MODES = {
	Mandatory: "Always included in what the agent reads, up to its budget",
	Optional: "The agent looks it up when a question needs it",
};

const asNumber = (value: string) => (value === "" ? Number.NaN : Number(value));

/** The agent's knowledge sources: each always included (within a budget) or searched on demand. */
export function KnowledgeSection({ rows, maxTokens, error, maxError, onChange, onMaxChange }: Props) {
	const sources = useSources();
	if (sources.isPending) return <Loading label="Loading knowledge sources…" />;
	if (sources.error) return <ErrorNote error={sources.error} />;
	const update = (index: number, change: Partial<KnowledgeBinding>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
	return (
		<div className="grid gap-3">
			{rows.map((row, index) => (
				<fieldset key={index} className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_7rem_auto]">
					<legend className="sr-only">Knowledge source {index + 1}</legend>
					<Field label="Source">
						{(props) => (
							<Select value={row.knowledge_source} onChange={(e) => update(index, { knowledge_source: e.target.value })} {...props}>
								<option value="">Choose a source…</option>
								{sources.data.map((s) => (
									<option key={s.name} value={s.name}>{s.source_name}</option>
								))}
							</Select>
						)}
					</Field>
					<Field label="Use" hint={MODES[row.mode]}>
						{(props) => (
							<Select value={row.mode} onChange={(e) => update(index, { mode: e.target.value as KnowledgeBinding["mode"] })} {...props}>
								<option value="Mandatory">Always included</option>
								<option value="Optional">Looked up when needed</option>
							</Select>
						)}
					</Field>
					{row.mode === "Mandatory" ? (
						<Field label="Budget (tokens)">
							{(props) => <Input type="number" value={Number.isNaN(row.token_budget) ? "" : String(row.token_budget)} onChange={(e) => update(index, { token_budget: asNumber(e.target.value) })} {...props} />}
						</Field>
					) : (
						<span />
					)}
					<Button variant="ghost" size="icon" className="self-end" aria-label={`Remove knowledge source ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
						<Trash2 className="h-4 w-4" aria-hidden />
					</Button>
				</fieldset>
			))}
			{error ? <p className="text-sm text-red-600" role="alert">{error}</p> : null}
			<Button variant="outline" size="sm" className="justify-self-start" disabled={!sources.data.length} onClick={() => onChange([...rows, { knowledge_source: "", mode: "Mandatory", priority: rows.length, token_budget: 1000 }])}>
				<Plus className="h-4 w-4" aria-hidden /> Add a source
			</Button>
			{!sources.data.length ? <p className="text-sm text-slate-600">There are no knowledge sources yet. Create one under Knowledge.</p> : null}
			{rows.length ? (
				<Field label="Most knowledge per turn (tokens)" error={maxError} hint="All always-included sources together stay within this; about 750 words per 1,000 tokens.">
					{(props) => <Input type="number" value={Number.isNaN(maxTokens) ? "" : String(maxTokens)} onChange={(e) => onMaxChange(asNumber(e.target.value))} {...props} />}
				</Field>
			) : null}
		</div>
	);
}
