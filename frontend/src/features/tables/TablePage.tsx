import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Columns3, Download, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Done, ErrorNote, Loading } from "../../components/ui/status";
import { useMe } from "../../lib/me";
import { deleteTable, exportUrl, useTable, type DataTable } from "./api";
import { FieldsDialog } from "./FieldsDialog";
import { Grid } from "./Grid";
import { ImportDialog } from "./ImportDialog";

/** One table: its rows in a grid, and (for those who may) changing its columns, importing, deleting. */
export default function TablePage() {
	const { name = "" } = useParams();
	const table = useTable(name);
	const me = useMe();
	const canWrite = Boolean(me.data?.capabilities["table.write"]);
	if (table.isPending) return <Loading />;
	if (table.error) return <div className="p-4 md:p-6"><ErrorNote error={table.error} action={<Link to="/tables" className="underline">Back to tables</Link>} /></div>;
	return <Table key={table.data.name} table={table.data} canWrite={canWrite} />;
}

function Table({ table, canWrite }: { table: DataTable; canWrite: boolean }) {
	const queryClient = useQueryClient();
	const navigate = useNavigate();
	const [open, setOpen] = useState<"fields" | "import" | "delete" | null>(null);
	const [done, setDone] = useState<string | null>(null);
	const remove = useMutation({
		mutationFn: () => deleteTable(table.name),
		onSuccess: async () => {
			queryClient.removeQueries({ queryKey: ["data-table", table.name] });
			await queryClient.invalidateQueries({ queryKey: ["data-tables"] });
			navigate("/tables");
		},
	});
	return (
		<div className="grid gap-4 p-4 md:p-6">
			<nav aria-label="Breadcrumb" className="text-sm">
				<Link to="/tables" className="text-blue-700 hover:underline">
					Tables
				</Link>
			</nav>
			<header className="flex flex-wrap items-start gap-3">
				<div className="min-w-0 flex-1">
					<h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{table.table_name}</h1>
					{table.description ? <p className="text-sm text-slate-600">{table.description}</p> : null}
					<p className="text-xs text-slate-500">
						{table.row_count === 1 ? "1 row" : `${table.row_count} rows`} · rows are named {table.autoname_method === "Field" ? `by ${table.fields.find((f) => f.fieldname === table.title_field_name)?.label ?? table.title_field_name}` : "by number"}
					</p>
				</div>
				<div className="flex flex-wrap gap-2">
					{canWrite ? (
						<>
							<Button variant="outline" onClick={() => setOpen("fields")}>
								<Columns3 className="h-4 w-4" aria-hidden /> Change columns
							</Button>
							<Button variant="outline" onClick={() => setOpen("import")}>
								<Upload className="h-4 w-4" aria-hidden /> Import CSV
							</Button>
						</>
					) : null}
					<Button variant="outline" asChild>
						<a href={exportUrl(table.name)} download={`${table.table_name}.csv`}>
							<Download className="h-4 w-4" aria-hidden /> Export CSV
						</a>
					</Button>
					{canWrite ? (
						<Button variant="outline" onClick={() => setOpen("delete")}>
							<Trash2 className="h-4 w-4" aria-hidden /> Delete table
						</Button>
					) : null}
				</div>
			</header>
			{open === "delete" ? (
				<div role="group" aria-label={`Delete ${table.table_name}?`} className="grid gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
					<p>
						Delete the table {table.table_name} and {table.row_count === 1 ? "its 1 row" : `all its ${table.row_count} rows`}? This can't be undone
						{table.tools.length ? `, and these agent tools stop working: ${table.tools.join(", ")}.` : "; agent tools that use it stop working."}
					</p>
					<div className="flex gap-2">
						<Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
							Delete the table
						</Button>
						<Button variant="outline" autoFocus onClick={() => setOpen(null)}>
							Keep it
						</Button>
					</div>
					{remove.error ? <ErrorNote error={remove.error} /> : null}
				</div>
			) : null}
			<Done text={done} />
			<Grid table={table} canWrite={canWrite} />
			{open === "fields" ? <FieldsDialog table={table} onClose={() => setOpen(null)} /> : null}
			{open === "import" ? (
				<ImportDialog
					table={table}
					onClose={() => setOpen(null)}
					onImported={(answer) => {
						setOpen(null);
						setDone(`${answer.imported === 1 ? "1 row was" : `${answer.imported} rows were`} imported${answer.bad ? `; ${answer.bad === 1 ? "1 row with problems was" : `${answer.bad} rows with problems were`} left out` : ""}.`);
					}}
				/>
			) : null}
		</div>
	);
}
