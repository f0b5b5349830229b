// The values a setting can insert, steps by their names: each with what it held in the last test
// run (or, before any, the fields the step's result is known to have), and the fields inside it.
import { useContext, useMemo } from "react";
import { shown } from "../evaluate";
import { SampleContext } from "../sample";
import { picks, type Pick, type Variable } from "../variables";

const MAX_PREVIEW = 40;

/** A value in a few characters, for a preview beside its name. */
export function preview(value: unknown): string {
	const text = shown(value).replace(/\s+/g, " ");
	return text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW - 1)}…` : text;
}

export function InsertPicker({ variables, onPick }: { variables: Variable[]; onPick: (insert: string) => void }) {
	const sample = useContext(SampleContext);
	const entries = useMemo(() => picks(variables, sample?.context ?? null), [variables, sample]);
	return (
		<div className="grid gap-1" role="group" aria-label="Values from the flow">
			<span className="text-xs text-slate-500">Insert a value{sample ? " (previews from the last test run)" : ""}:</span>
			<ul className="flex flex-wrap gap-1">
				{entries.map((entry) => (
					<li key={entry.insert} className="flex flex-wrap items-center gap-1">
						<Chip entry={entry} onPick={onPick} />
						{entry.fields.map((field) => (
							<Chip key={field.insert} entry={field} parent={entry.title} onPick={onPick} />
						))}
					</li>
				))}
			</ul>
		</div>
	);
}

function Chip({ entry, parent, onPick }: { entry: Pick; parent?: string; onPick: (insert: string) => void }) {
	return (
		<button
			type="button"
			data-testid="insert-value"
			data-insert={entry.insert}
			title={entry.insert}
			// keeps the cursor in the field while clicking, so the value goes where it was
			onMouseDown={(e) => e.preventDefault()}
			onClick={() => onPick(entry.insert)}
			className="inline-flex max-w-full items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800 hover:bg-blue-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
		>
			<span className="sr-only">Insert</span>{" "}
			{parent ? <span className="text-slate-600">{parent} ›</span> : null}
			{parent ? " " : null}
			<span className="font-medium">{entry.title}</span>
			{entry.has ? " " : null}
			{/* capped: a text that does not wrap would otherwise widen the settings panel to its length */}
			{entry.has ? <span className="max-w-[9rem] truncate font-mono text-slate-600">{preview(entry.value)}</span> : null}
		</button>
	);
}
