// The one way a list page is drawn (Agents, Tools, Flows, Runs, Knowledge, Tables, Prompts,
// Integrations): its heading and actions, then what it lists once loaded: loading, the error, the
// empty state or the rows. Rows are links (LinkRows), cards (Cards) or a table (DataTable).
import { Plus, Search } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "../lib/cn";
import { Button } from "./ui/button";
import { Input } from "./ui/field";
import { ErrorNote, Loading } from "./ui/status";

const WIDTHS = { "4xl": "mx-auto max-w-4xl grid-cols-1", "5xl": "mx-auto max-w-5xl grid-cols-1", "6xl": "mx-auto max-w-6xl grid-cols-1", full: "" };

type ListPageProps = { title: string; description?: ReactNode; actions?: ReactNode; width?: keyof typeof WIDTHS; children: ReactNode };

/** The page: its heading (with a line under it), the actions on the right, then its content. */
export function ListPage({ title, description, actions, width = "full", children }: ListPageProps) {
	return (
		<div className={cn("grid gap-4 p-4 md:p-6", WIDTHS[width])}>
			<header className="flex flex-wrap items-center gap-3">
				<div>
					<h1 className="text-xl font-semibold">{title}</h1>
					{description ? <p className="text-sm text-slate-600">{description}</p> : null}
				</div>
				{actions ? <div className="ml-auto flex flex-wrap items-center gap-3">{actions}</div> : null}
			</header>
			{children}
		</div>
	);
}

/** The action that makes a new one: a link to its page (`to`) or a button that opens a dialog. */
export function NewButton({ to, onClick, children }: { to?: string; onClick?: () => void; children: string }) {
	const content = (
		<>
			<Plus className="h-4 w-4" aria-hidden />
			{children}
		</>
	);
	return to ? (
		<Button asChild>
			<Link to={to}>{content}</Link>
		</Button>
	) : (
		<Button onClick={onClick}>{content}</Button>
	);
}

/** What a list is loaded from: a query, or the part of one that is listed. */
export type Listed<T> = { isPending: boolean; error: unknown; data: readonly T[] | undefined };

/** Loading, the error, then `empty` when nothing is listed or the rows. An error after a refetch
 * keeps the rows shown last. */
export function DataList<T>({ query, empty, children }: { query: Listed<T>; empty: ReactNode; children: (rows: readonly T[]) => ReactNode }) {
	if (query.isPending) return <Loading />;
	return (
		<>
			{query.error ? <ErrorNote error={query.error} /> : null}
			{query.data ? (query.data.length ? children(query.data) : empty) : null}
		</>
	);
}

/** A search box with its magnifier; the label is also the placeholder. */
export function SearchBox({ label, value, onChange, className }: { label: string; value: string; onChange: (value: string) => void; className?: string }) {
	return (
		<div className={cn("relative", className)}>
			<Search className="absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" aria-hidden />
			<Input aria-label={label} placeholder={label} className="pl-8" value={value} onChange={(e) => onChange(e.target.value)} />
		</div>
	);
}

/** A link whose clickable area covers its row or card (the nearest `relative` box); links drawn
 * above it (`relative z-10`) stay clickable. */
export function CoverLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
	return (
		<Link to={to} className={cn("text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']", className)}>
			{children}
		</Link>
	);
}

type RowsProps<T> = { rows: readonly T[]; rowKey: (row: T) => string; label?: string; children: (row: T) => ReactNode };

/** Rows that each open something: the whole row is the link. `framed` draws the list's own border. */
export function LinkRows<T>({ rows, rowKey, label, to, framed = true, children }: RowsProps<T> & { to: (row: T) => string; framed?: boolean }) {
	return (
		<ul className={cn("divide-y divide-slate-200", framed && "rounded-lg border border-slate-200 bg-white")} aria-label={label}>
			{rows.map((row) => (
				<li key={rowKey(row)}>
					<Link to={to(row)} className="flex flex-wrap items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500">
						{children(row)}
					</Link>
				</li>
			))}
		</ul>
	);
}

/** A link row's name and the line under it (cut short); `children` go below. */
export function RowText({ title, line, children }: { title: string; line: ReactNode; children?: ReactNode }) {
	return (
		<div className="min-w-0 flex-1">
			<p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{title}</p>
			<p className="truncate text-sm text-slate-600">{line}</p>
			{children}
		</div>
	);
}

/** Cards, two a row on wider screens; each card holds a CoverLink. */
export function Cards<T>({ rows, rowKey, label, children }: RowsProps<T>) {
	return (
		<ul className="grid grid-cols-1 gap-3 md:grid-cols-2" aria-label={label}>
			{rows.map((row) => (
				<li key={rowKey(row)} className="relative grid gap-2 rounded-lg border border-slate-200 bg-white p-4 hover:bg-slate-50">
					{children(row)}
				</li>
			))}
		</ul>
	);
}

/** A card's name: the link that opens it. */
export function CardLink({ to, children }: { to: string; children: ReactNode }) {
	return (
		<CoverLink to={to} className="rounded-lg font-semibold [overflow-wrap:anywhere]">
			{children}
		</CoverLink>
	);
}
