// A text setting (one line or several) with, when it reads the flow's data, the names it can use as
// small buttons that put `{{ name }}` (in texts) or `name` (in conditions) where the cursor was, or
// at the end. A "value" setting keeps what is typed as a number, list or record when it reads as one.
import { useContext, useRef, type ReactNode, type Ref } from "react";
import { Field, Input, Textarea } from "../../../../components/ui/field";
import { evaluate, fill, shown } from "../evaluate";
import { SampleContext } from "../sample";
import type { Variable } from "../variables";
import { InsertPicker } from "./InsertPicker";
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
					{insert ? <Computed text={text} form={insert.form} /> : null}
					{insert?.variables.length ? <InsertPicker variables={insert.variables} onPick={put} /> : null}
				</>
			)}
		</Field>
	);
}

/** What the setting gives with the last test run's values, worked out as you type. */
function Computed({ text, form }: { text: string; form: InsertForm }) {
	const sample = useContext(SampleContext);
	if (!sample || !text.trim() || (form === "placeholder" && !text.includes("{{"))) return null;
	const found = form === "expression" ? evaluate(text, sample.context) : fill(text, sample.context);
	return (
		<p data-testid="computed-value" className="text-xs text-slate-600" aria-live="polite">
			{found.ok ? (
				<>
					With the last test run's values: <span className="whitespace-pre-wrap break-all font-mono text-slate-900">{form === "expression" || typeof found.value !== "string" ? shown(found.value) : found.value}</span>
				</>
			) : (
				<>With the last test run's values this cannot be worked out: {found.error}</>
			)}
		</p>
	);
}
