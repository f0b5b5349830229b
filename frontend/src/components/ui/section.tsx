import type { ReactNode } from "react";

/** A titled white card: one part of a form or a page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
	return (
		<section className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4">
			<h2 className="text-base font-semibold">{title}</h2>
			{children}
		</section>
	);
}
