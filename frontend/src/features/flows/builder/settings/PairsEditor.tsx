// Name and value rows that make one record (a request's headers, a reshape's new values). The rows
// live here, in order, so a row whose name is still empty stays on screen; the record given out
// has the named rows only.
import { Plus, X } from "lucide-react";
import { Button } from "../../../../components/ui/button";
import { Input } from "../../../../components/ui/field";
import { Group, useLocalDraft } from "./kit";

type Row = { id: number; key: string; value: string };

let lastRow = 0;
const row = (key: string, value: string): Row => ({ id: ++lastRow, key, value });

const rowsOf = (record: unknown): Row[] =>
	typeof record === "object" && record !== null && !Array.isArray(record) ? Object.entries(record).map(([key, value]) => row(key, typeof value === "string" ? value : JSON.stringify(value))) : [];

const recordOf = (rows: Row[]): Record<string, string> => Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));

/** What the group and its rows are called, e.g. legend "Headers", key "Header name", add "Add a header". */
export type PairWords = { legend: string; key: string; value: string; keyExample: string; valueExample: string; add: string };

type PairsEditorProps = { words: PairWords; value: unknown; error?: string | undefined; hint?: string; onChange: (record: Record<string, string>) => void };

export function PairsEditor({ words, value, error, hint, onChange }: PairsEditorProps) {
	const [rows, setRows] = useLocalDraft(value, rowsOf);
	const update = (next: Row[]) => {
		const record = recordOf(next);
		setRows(next, record);
		onChange(record);
	};
	const change = (index: number, patch: Partial<Row>) => update(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
	return (
		<Group legend={words.legend} error={error} hint={hint}>
			{rows.map((r, index) => (
				<div key={r.id} className="flex gap-2">
					<Input aria-label={`${words.key} ${index + 1}`} placeholder={words.keyExample} value={r.key} onChange={(e) => change(index, { key: e.target.value })} />
					<Input aria-label={`${words.value} ${index + 1}`} placeholder={words.valueExample} value={r.value} onChange={(e) => change(index, { value: e.target.value })} />
					<Button variant="ghost" size="icon" aria-label={`Remove ${r.key || `row ${index + 1}`}`} onClick={() => update(rows.filter((_, i) => i !== index))}>
						<X className="h-4 w-4" aria-hidden />
					</Button>
				</div>
			))}
			<Button variant="outline" size="sm" className="justify-self-start" onClick={() => update([...rows, row("", "")])}>
				<Plus className="h-4 w-4" aria-hidden /> {words.add}
			</Button>
		</Group>
	);
}
