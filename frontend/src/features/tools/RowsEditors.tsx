import { Plus, X } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Checkbox, Input, Select } from "../../components/ui/field";
import { PARAM_TYPES, type ParamRow } from "./rules";
import { SecretInput } from "./SecretInput";

/** Name/value rows whose values are secrets (a tool's or a server's extra headers, a program's environment). */
export type SecretRow = { name?: string; key: string; value: string };

/** What one kind of row is called: headers unless told otherwise. */
type RowWords = { keyLabel: string; example: string; add: string };
const HEADER_WORDS: RowWords = { keyLabel: "Header name", example: "e.g. Authorization", add: "Add a header" };

type SecretRowsProps = { label: string; rows: SecretRow[]; saved: Map<string, string>; error?: string | undefined; disabled: boolean; words?: RowWords; onChange: (rows: SecretRow[]) => void };

export function SecretRows({ label, rows, saved, error, disabled, words = HEADER_WORDS, onChange }: SecretRowsProps) {
	const change = (index: number, patch: Partial<SecretRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
	return (
		<fieldset className="grid gap-2" disabled={disabled}>
			<legend className="text-sm font-medium text-slate-800">{label}</legend>
			{rows.map((row, index) => (
				<div key={row.name ?? `new-${index}`} className="flex gap-2">
					<Input aria-label={`${words.keyLabel} ${index + 1}`} placeholder={words.example} value={row.key} onChange={(e) => change(index, { key: e.target.value })} />
					<SecretInput aria-label={`Value ${index + 1}`} value={row.value} saved={(row.name && saved.get(row.name)) || ""} onChange={(value) => change(index, { value })} />
					<Button variant="ghost" size="icon" aria-label={`Remove ${row.key || `row ${index + 1}`}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
						<X className="h-4 w-4" aria-hidden />
					</Button>
				</div>
			))}
			{error ? <p className="text-sm text-red-600">{error}</p> : null}
			<p className="text-xs text-slate-500">Values are stored encrypted and never shown again after saving.</p>
			<Button variant="outline" size="sm" className="justify-self-start" onClick={() => onChange([...rows, { key: "", value: "" }])}>
				<Plus className="h-4 w-4" aria-hidden /> {words.add}
			</Button>
		</fieldset>
	);
}

type ParamRowsProps = { rows: ParamRow[]; error?: string | undefined; disabled: boolean; onChange: (rows: ParamRow[]) => void };

/** What the agent fills in when it uses the tool. */
export function ParamRows({ rows, error, disabled, onChange }: ParamRowsProps) {
	const change = (index: number, patch: Partial<ParamRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
	return (
		<fieldset className="grid gap-2" disabled={disabled}>
			<legend className="text-sm font-medium text-slate-800">Inputs the agent fills in</legend>
			{rows.map((row, index) => (
				<div key={row.name ?? `new-${index}`} className="grid gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_9rem_auto_auto]">
					<Input aria-label={`Input ${index + 1} name`} placeholder="e.g. customer" value={row.fieldname} onChange={(e) => change(index, { fieldname: e.target.value })} />
					<Select aria-label={`Input ${index + 1} kind`} value={row.type} onChange={(e) => change(index, { type: e.target.value })}>
						{PARAM_TYPES.map((type) => (
							<option key={type} value={type}>{type}</option>
						))}
					</Select>
					<Checkbox label="Required" checked={Boolean(row.required)} onChange={(e) => change(index, { required: e.target.checked ? 1 : 0 })} />
					<Button variant="ghost" size="icon" aria-label={`Remove input ${row.fieldname || index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
						<X className="h-4 w-4" aria-hidden />
					</Button>
					<Input aria-label={`Input ${index + 1} description`} placeholder="What the agent should put here" className="sm:col-span-4" value={row.description} onChange={(e) => change(index, { description: e.target.value })} />
				</div>
			))}
			{error ? <p className="text-sm text-red-600">{error}</p> : null}
			<Button variant="outline" size="sm" className="justify-self-start" onClick={() => onChange([...rows, { fieldname: "", label: "", type: "string", required: 0, description: "" }])}>
				<Plus className="h-4 w-4" aria-hidden /> Add an input
			</Button>
		</fieldset>
	);
}
