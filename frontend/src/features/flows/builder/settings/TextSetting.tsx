// A text setting (one line or several) with, when it reads the flow's data, the names it can use as
// small buttons that put `{{ name }}` (in texts) or `name` (in conditions) where the cursor was, or
// at the end. A "value" setting keeps what is typed as a number, list or record when it reads as one.
import { useRef, type ReactNode, type Ref } from "react";
import { Field, Input, Textarea } from "../../../../components/ui/field";
import type { Variable } from "../variables";
import { useLocalDraft } from "./kit";

type Control = HTMLInputElement | HTMLTextAreaElement;
/** How an inserted name is written: inside a text as a placeholder, or bare in a condition. */
export type InsertForm = "placeholder" | "expression";

type TextSettingProps = {
	label: string;
	hint?: ReactNode;
	error?: string | undefined;
	value: unknown;
	onChange: (value: unknown) => void;
	multiline?: boolean;
	/** "value": what reads as JSON is kept as the number, list or record it says; empty is no value. */
	kind?: "text" | "value";
	placeholder?: string;
	insert?: { variables: Variable[]; form: InsertForm };
};

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

function readValue(text: string): unknown {
	if (!text.trim()) return undefined;
	const json = parsed(text);
	return json.ok ? json.value : text;
}

function showValue(value: unknown): string {
	if (value === undefined) return "";
	// A text that would read as something else ("42", "true") is shown quoted so it stays a text.
	if (typeof value === "string") return parsed(value).ok ? JSON.stringify(value) : value;
	return JSON.stringify(value, null, 2);
}

const showText = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

export function TextSetting({ label, hint, error, value, onChange, multiline, kind = "text", placeholder, insert }: TextSettingProps) {
	const [text, setText] = useLocalDraft(value, kind === "value" ? showValue : showText);
	const ref = useRef<Control>(null);
	const focused = useRef(false);
	const change = (next: string) => {
		const saved = kind === "value" ? readValue(next) : next;
		setText(next, saved);
		onChange(saved);
	};
	const put = (name: string) => {
		const piece = insert?.form === "placeholder" ? `{{ ${name} }}` : name;
		const control = ref.current;
		const start = control && focused.current ? (control.selectionStart ?? text.length) : text.length;
		const end = control && focused.current ? (control.selectionEnd ?? start) : text.length;
		change(text.slice(0, start) + piece + text.slice(end));
		requestAnimationFrame(() => {
			control?.focus();
			control?.setSelectionRange(start + piece.length, start + piece.length);
		});
	};
	return (
		<Field label={label} hint={hint} error={error}>
			{(props) => (
				<>
					{multiline ? (
						<Textarea ref={ref as Ref<HTMLTextAreaElement>} rows={4} value={text} placeholder={placeholder} onFocus={() => (focused.current = true)} onChange={(e) => change(e.target.value)} {...props} />
					) : (
						<Input ref={ref as Ref<HTMLInputElement>} value={text} placeholder={placeholder} onFocus={() => (focused.current = true)} onChange={(e) => change(e.target.value)} {...props} />
					)}
					{insert?.variables.length ? <VariableChips variables={insert.variables} onPick={put} /> : null}
				</>
			)}
		</Field>
	);
}

function VariableChips({ variables, onPick }: { variables: Variable[]; onPick: (name: string) => void }) {
	return (
		<div className="flex flex-wrap items-center gap-1" role="group" aria-label="Values from the flow">
			<span className="text-xs text-slate-500">Insert:</span>
			{variables.map((variable) => (
				<button
					key={variable.name}
					type="button"
					title={variable.description}
					aria-label={`Insert ${variable.name}: ${variable.description}`}
					// keeps the cursor in the field while clicking, so the name goes where it was
					onMouseDown={(e) => e.preventDefault()}
					onClick={() => onPick(variable.name)}
					className="rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700 hover:bg-blue-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 disabled:opacity-50"
				>
					{variable.name}
				</button>
			))}
		</div>
	);
}
