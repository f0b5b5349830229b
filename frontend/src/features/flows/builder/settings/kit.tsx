// What every kind's settings share: the props they get, a number field, a labelled group of
// controls, and the local draft that lets a person type freely in a field whose saved value is not
// the text they see.
import { useId, useState, type ReactNode } from "react";
import { Field, Input } from "../../../../components/ui/field";
import type { Config, StepNode } from "../catalog";
import type { Variable } from "../variables";

/** What a kind's settings get from the panel. `set` merges into the whole config; undefined removes a key. */
export type KindProps = {
	node: StepNode;
	config: Config;
	variables: Variable[];
	errorOf: (key: string) => string | undefined;
	set: (patch: Config) => void;
};

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A draft (text, rows) made from `value`, kept while the value is the one it last gave out; when
 * the value changes from elsewhere, the draft is made again from it. */
export function useLocalDraft<D>(value: unknown, toDraft: (value: unknown) => D): [D, (draft: D, gave: unknown) => void] {
	const [state, setState] = useState(() => ({ draft: toDraft(value), seen: value }));
	let current = state;
	if (!same(state.seen, value)) {
		current = { draft: toDraft(value), seen: value };
		setState(current);
	}
	return [current.draft, (draft, gave) => setState({ draft, seen: gave })];
}

type NumberSettingProps = { label: string; hint?: ReactNode; error?: string | undefined; value: unknown; min?: number; max?: number; onChange: (value: number | undefined) => void };

/** A number that may be left empty (then the key goes away). */
export function NumberSetting({ label, hint, error, value, min, max, onChange }: NumberSettingProps) {
	const shown = typeof value === "number" || typeof value === "string" ? value : "";
	return (
		<Field label={label} hint={hint} error={error}>
			{(props) => <Input type="number" min={min} max={max} value={shown} onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} {...props} />}
		</Field>
	);
}

/** A field's problem, or else its hint, under it; `id` is what the field's aria-describedby names. */
export function Note({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
	if (error)
		return (
			<p id={id} className="text-sm text-red-600">
				{error}
			</p>
		);
	return hint ? (
		<p id={id} className="text-xs text-slate-500">
			{hint}
		</p>
	) : null;
}

type GroupProps = { legend: string; error?: string | undefined; hint?: ReactNode; children: ReactNode };

/** Several controls under one label (a fieldset), with the group's problem or hint tied to it. */
export function Group({ legend, error, hint, children }: GroupProps) {
	const id = useId();
	return (
		<fieldset className="grid min-w-0 gap-2" aria-describedby={error || hint ? id : undefined}>
			<legend className="mb-1.5 text-sm font-medium text-slate-800">{legend}</legend>
			{children}
			<Note id={id} error={error} hint={hint} />
		</fieldset>
	);
}
