import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./button";

/** A titled white card: one part of a form or a page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
	return (
		<section className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4">
			<h2 className="text-base font-semibold">{title}</h2>
			{children}
		</section>
	);
}

/** The top of an editing form: its title, whether there are unsaved changes, and Save (when the
 * person may change it). The form around it submits. */
export function EditorHeader({ title, dirty, saving, canSave = true }: { title: string; dirty: boolean; saving: boolean; canSave?: boolean }) {
	return (
		<header className="flex flex-wrap items-center gap-3">
			<h1 className="text-xl font-semibold">{title}</h1>
			{dirty ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
			{canSave ? (
				<Button type="submit" className="ml-auto" disabled={saving}>
					{saving ? "Saving…" : "Save"}
				</Button>
			) : null}
		</header>
	);
}

/** One figure of a record (a term and its value) in a `<dl>`; `numeric` lines its digits up. */
export function Stat({ label, value, numeric = false }: { label: string; value: ReactNode; numeric?: boolean }) {
	return (
		<div className="rounded-md bg-slate-50 px-3 py-2">
			<dt className="text-xs text-slate-500">{label}</dt>
			<dd className={cn("text-sm font-medium", numeric && "tabular-nums")}>{value}</dd>
		</div>
	);
}
