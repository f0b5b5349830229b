// Labelled form controls, and the form around them. The error shows next to the field and is tied
// to it for screen readers.
import { useId, type ComponentProps, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import { cn } from "../../lib/cn";

const control = "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 disabled:bg-slate-100 aria-[invalid=true]:border-red-500";

type FieldProps = { label: string; hint?: ReactNode; error?: string | undefined; children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode };

export function Field({ label, hint, error, children }: FieldProps) {
	const id = useId();
	const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
	return (
		<div className="grid gap-1.5">
			<label htmlFor={id} className="text-sm font-medium text-slate-800">
				{label}
			</label>
			{children({ id, "aria-invalid": Boolean(error), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
			{error ? (
				<p id={`${id}-error`} className="text-sm text-red-600">
					{error}
				</p>
			) : hint ? (
				<p id={`${id}-hint`} className="text-xs text-slate-500">
					{hint}
				</p>
			) : null}
		</div>
	);
}

export function Input({ className, ...props }: ComponentProps<"input">) {
	return <input className={cn(control, "h-9", className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
	return <textarea className={cn(control, className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
	return <select className={cn(control, "h-9", className)} {...props} />;
}

export function Checkbox({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
	return (
		<label className="flex items-center gap-2 text-sm text-slate-800">
			<input type="checkbox" className="h-4 w-4 rounded border-slate-300 accent-blue-600" {...props} />
			{label}
		</label>
	);
}

/** A number input; empty is NaN, which a form's rules turn into an error. */
export function NumberInput({ value, onValue, ...props }: Omit<ComponentProps<"input">, "value" | "onChange" | "type"> & { value: number; onValue: (value: number) => void }) {
	return <Input type="number" value={Number.isNaN(value) ? "" : String(value)} onChange={(e) => onValue(e.target.value === "" ? Number.NaN : Number(e.target.value))} {...props} />;
}

type SelectFieldProps<V extends string> = { label: string; hint?: ReactNode; error?: string | undefined; value: V; choices: readonly { value: V; label: string }[]; onChange: (value: V) => void };

/** A labelled choice of a fixed few, each with the words people read. */
export function SelectField<V extends string>({ label, hint, error, value, choices, onChange }: SelectFieldProps<V>) {
	return (
		<Field label={label} hint={hint} error={error}>
			{(props) => (
				<Select value={value} onChange={(e) => onChange(e.target.value as V)} {...props}>
					{choices.map((choice) => (
						<option key={choice.value} value={choice.value}>
							{choice.label}
						</option>
					))}
				</Select>
			)}
		</Field>
	);
}

type FormProps = { label?: string; className?: string; onSubmit: () => void; children: ReactNode };

/** A form that checks its fields itself (no browser bubbles) and never reloads the page. */
export function Form({ label, className = "grid gap-4", onSubmit, children }: FormProps) {
	return (
		<form
			noValidate
			aria-label={label}
			className={className}
			onSubmit={(event) => {
				event.preventDefault();
				onSubmit();
			}}
		>
			{children}
		</form>
	);
}
