import { Plus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { useMe } from "../../lib/me";
import { useTables } from "./api";
import { FieldsDialog } from "./FieldsDialog";

/** Every data table, and (for those who may) a way to make a new one. */
export default function TablesPage() {
	const tables = useTables();
	const me = useMe();
	const [creating, setCreating] = useState(false);
	const canWrite = Boolean(me.data?.capabilities["table.write"]);
	return (
		<div className="grid gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<div>
					<h1 className="text-xl font-semibold">Tables</h1>
					<p className="text-sm text-slate-600">Rows of data your agents and people keep: each table has its own columns.</p>
				</div>
				{canWrite ? (
					<Button className="ml-auto" onClick={() => setCreating(true)}>
						<Plus className="h-4 w-4" aria-hidden /> New table
					</Button>
				) : null}
			</header>
			{tables.isPending ? (
				<Loading />
			) : tables.error ? (
				<ErrorNote error={tables.error} />
			) : !tables.data.length ? (
				<Empty title="No tables yet">{canWrite ? "Make a table, then add rows to it or import them from a CSV file." : "Ask an administrator to make one."}</Empty>
			) : (
				<ul className="grid gap-3 md:grid-cols-2" aria-label="Tables">
					{tables.data.map((table) => (
						<li key={table.name} className="relative grid gap-1 rounded-lg border border-slate-200 bg-white p-4 hover:bg-slate-50">
							<Link to={`/tables/${encodeURIComponent(table.name)}`} className="rounded-lg font-semibold text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']">
								{table.table_name}
							</Link>
							{table.description ? <p className="text-sm text-slate-600">{table.description}</p> : null}
							<p className="text-xs text-slate-500">
								{table.field_count === 1 ? "1 column" : `${table.field_count} columns`} · {table.row_count === 1 ? "1 row" : `${table.row_count} rows`}
							</p>
						</li>
					))}
				</ul>
			)}
			{creating ? <FieldsDialog onClose={() => setCreating(false)} /> : null}
		</div>
	);
}
