// Importing rows from a CSV file: the file is checked first (nothing written) and every row's
// problems shown; then all rows are imported, or, when some are bad, only the good ones if the
// person chooses so. Nothing is half imported otherwise.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { importCsv, previewCsv, type DataTable, type ImportAnswer } from "./api";

const rows = (n: number) => (n === 1 ? "1 row" : `${n} rows`);

export function ImportDialog({ table, onClose, onImported }: { table: DataTable; onClose: () => void; onImported: (answer: ImportAnswer) => void }) {
	const queryClient = useQueryClient();
	const [content, setContent] = useState<string | null>(null);
	const preview = useMutation({ mutationFn: (text: string) => previewCsv(table.name, text) });
	const run = useMutation({
		mutationFn: (goodOnly: boolean) => importCsv(table.name, content ?? "", goodOnly),
		onSuccess: async (answer) => {
			await Promise.all([queryClient.invalidateQueries({ queryKey: ["data-table-rows", table.name] }), queryClient.invalidateQueries({ queryKey: ["data-table", table.name] }), queryClient.invalidateQueries({ queryKey: ["data-tables"] })]);
			if (answer.imported) onImported(answer);
		},
	});

	const pick = async (file: File | undefined) => {
		preview.reset();
		run.reset();
		if (!file) return setContent(null);
		const text = await file.text();
		setContent(text);
		preview.mutate(text);
	};

	const result = preview.data;
	const labelOf = (fieldname: string) => table.fields.find((f) => f.fieldname === fieldname)?.label ?? fieldname;
	const shownFields = table.fields.slice(0, 6);
	return (
		<Dialog open onOpenChange={(open) => !open && onClose()} title={`Import rows into ${table.table_name}`} description={`The first line names the columns: ${table.fields.map((f) => f.fieldname).join(", ")}. Each line after it is a row.`}>
			<div className="grid gap-4">
				<Field label="CSV file">{(props) => <input {...props} type="file" accept=".csv,text/csv" className="text-sm" onChange={(e) => void pick(e.target.files?.[0])} />}</Field>
				{preview.isPending ? <Loading label="Checking the file…" /> : null}
				{preview.error ? <ErrorNote error={preview.error} /> : null}
				{result ? (
					<section aria-label="Preview" className="grid gap-3 text-sm">
						{!result.header_ok ? (
							<div role="alert" className="grid gap-1 rounded-md border border-red-200 bg-red-50 p-3 text-red-900">
								<p className="font-semibold">The first line doesn't match the table's columns.</p>
								{result.unknown.length ? <p>Not columns of this table: {result.unknown.join(", ")}.</p> : null}
								{result.missing.length ? <p>Required columns missing: {result.missing.map(labelOf).join(", ")}.</p> : null}
								{result.duplicated.length ? <p>Columns named twice: {result.duplicated.map(labelOf).join(", ")}.</p> : null}
							</div>
						) : null}
						<p role="status">
							{rows(result.good)} ready to import{result.bad ? `, ${rows(result.bad)} with problems` : ""}.
						</p>
						{result.rows.length ? (
							<div className="max-h-72 overflow-auto rounded-md border border-slate-200">
								<table className="w-full text-left text-sm">
									<caption className="sr-only">Rows in the file</caption>
									<thead className="bg-slate-50">
										<tr>
											<th scope="col" className="px-2 py-1">Line</th>
											{shownFields.map((f) => (
												<th key={f.fieldname} scope="col" className="px-2 py-1">{f.label}</th>
											))}
											<th scope="col" className="px-2 py-1">Problems</th>
										</tr>
									</thead>
									<tbody>
										{result.rows.map((row) => (
											<tr key={row.row} className={row.errors.length ? "bg-red-50" : ""} aria-label={`Line ${row.row}`}>
												<td className="px-2 py-1">{row.row}</td>
												{shownFields.map((f) => (
													<td key={f.fieldname} className="px-2 py-1 [overflow-wrap:anywhere]">{row.values[f.fieldname] == null ? "" : String(row.values[f.fieldname])}</td>
												))}
												<td className="px-2 py-1 text-red-800">{row.errors.length ? row.errors.join("; ") : "OK"}</td>
											</tr>
										))}
									</tbody>
								</table>
							</div>
						) : (
							<p>The file has no rows.</p>
						)}
					</section>
				) : null}
				{run.error ? <ErrorNote error={run.error} /> : null}
				{run.data && !run.data.imported ? <ErrorNote error="Nothing was imported: fix the rows with problems, or import only the good rows." /> : null}
				<div className="flex flex-wrap justify-end gap-2">
					<Button variant="outline" onClick={onClose}>
						Cancel
					</Button>
					{result && result.header_ok && result.good ? (
						result.bad ? (
							<Button disabled={run.isPending} onClick={() => run.mutate(true)}>
								Import the {result.good} good {result.good === 1 ? "row" : "rows"}
							</Button>
						) : (
							<Button disabled={run.isPending} onClick={() => run.mutate(false)}>
								Import {rows(result.good)}
							</Button>
						)
					) : null}
				</div>
			</div>
		</Dialog>
	);
}
