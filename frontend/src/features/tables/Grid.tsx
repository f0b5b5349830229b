// A table's rows: sort by a column, filter, page through, and (for those who may) add, change and
// delete rows one at a time.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, ArrowUpDown, Plus } from "lucide-react";
import { createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures, useTable, type SortingState } from "@tanstack/react-table";
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import { TableFrame } from "../../components/DataTable";
import { Button } from "../../components/ui/button";
import { Input, Select } from "../../components/ui/field";
import { Done, Empty, ErrorNote, Loading } from "../../components/ui/status";
import { deleteRow, saveRow, shown, useRows, type DataTable, type Row, type TableField } from "./api";

const PAGE = 20;
const TEXT_TYPES = new Set(["Data", "Text", "Select", "Link"]);

type Filter = { field: string; value: string } | null;

/** The filter as list_rows takes it: text columns match a part, the rest match the value. */
export function filtersOf(table: DataTable, filter: Filter): Record<string, unknown> {
	if (!filter || !filter.value.trim()) return {};
	const field = table.fields.find((f) => f.fieldname === filter.field);
	if (!field) return {};
	const value = filter.value.trim();
	if (TEXT_TYPES.has(field.fieldtype)) return { [field.fieldname]: ["like", `%${value}%`] };
	if (field.fieldtype === "Check") return { [field.fieldname]: /^(y|yes|1|true)$/i.test(value) ? 1 : 0 };
	return { [field.fieldname]: value };
}

/** A value typed in an input, as the row stores it. */
export function stored(field: TableField, input: string | boolean): unknown {
	if (field.fieldtype === "Check") return input ? 1 : 0;
	const text = String(input);
	if (text.trim() === "") return null;
	if (field.fieldtype === "Int") return Number.parseInt(text, 10);
	if (field.fieldtype === "Float" || field.fieldtype === "Currency") return Number(text);
	if (field.fieldtype === "Datetime") return `${text.replace("T", " ")}${text.length === 16 ? ":00" : ""}`;
	return text;
}

function editable(field: TableField, value: unknown): string | boolean {
	if (field.fieldtype === "Check") return Boolean(Number(value));
	if (value === null || value === undefined) return "";
	if (field.fieldtype === "Datetime") return String(value).slice(0, 19).replace(" ", "T");
	return String(value);
}

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
const column = createColumnHelper<typeof features, Row>();
const NO_ROWS: Row[] = [];

export function Grid({ table, canWrite }: { table: DataTable; canWrite: boolean }) {
	const queryClient = useQueryClient();
	const [sorting, setSorting] = useState<SortingState>([]);
	const [filter, setFilter] = useState<Filter>(null);
	const [filterField, setFilterField] = useState(table.fields[0]?.fieldname ?? "");
	const [filterValue, setFilterValue] = useState("");
	const [pageIndex, setPageIndex] = useState(0);
	const [editing, setEditing] = useState<string | "new" | null>(null);
	const [done, setDone] = useState<string | null>(null);
	const sort = sorting[0];
	const start = pageIndex * PAGE;
	const rows = useRows(table.name, { filters: filtersOf(table, filter), order_by: sort ? `${sort.id} ${sort.desc ? "desc" : "asc"}` : "", start, page_length: PAGE });
	const total = rows.data?.total ?? 0;
	// The server sorts and pages; the grid keeps which column, which way and which page, and a new
	// sort goes back to the first page. One column at a time: ascending, descending, then unsorted.
	const columns = useMemo(() => table.fields.map((f) => column.accessor((row) => row[f.fieldname], { id: f.fieldname, header: f.label, cell: ({ getValue }) => shown(f, getValue()) })), [table.fields]);
	const grid = useTable({
		features,
		columns,
		data: rows.data?.rows ?? NO_ROWS,
		getRowId: (row) => String(row.name),
		state: { sorting, pagination: { pageIndex, pageSize: PAGE } },
		onSortingChange: (change) => {
			setSorting(change);
			setPageIndex(0);
		},
		onPaginationChange: (change) => setPageIndex((now) => (typeof change === "function" ? change({ pageIndex: now, pageSize: PAGE }) : change).pageIndex),
		manualSorting: true,
		manualPagination: true,
		rowCount: total,
		sortDescFirst: false,
		enableMultiSort: false,
	});

	const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ["data-table-rows", table.name] }), queryClient.invalidateQueries({ queryKey: ["data-table", table.name] })]);

	const applyFilter = (event: FormEvent) => {
		event.preventDefault();
		setPageIndex(0);
		setFilter(filterValue.trim() ? { field: filterField, value: filterValue } : null);
	};

	return (
		<section aria-label="Rows" className="grid gap-3">
			<div className="flex flex-wrap items-end gap-2">
				<form role="search" aria-label="Filter rows" className="flex flex-wrap items-end gap-2" onSubmit={applyFilter}>
					<label className="grid gap-1 text-sm">
						<span className="font-medium text-slate-800">Filter by column</span>
						<Select value={filterField} onChange={(e) => setFilterField(e.target.value)} className="w-44">
							{table.fields.map((f) => (
								<option key={f.fieldname} value={f.fieldname}>
									{f.label}
								</option>
							))}
						</Select>
					</label>
					<label className="grid gap-1 text-sm">
						<span className="font-medium text-slate-800">Value</span>
						<Input value={filterValue} onChange={(e) => setFilterValue(e.target.value)} className="w-48" />
					</label>
					<Button type="submit" variant="outline">Filter</Button>
					{filter ? (
						<Button
							variant="ghost"
							onClick={() => {
								setFilter(null);
								setFilterValue("");
								setPageIndex(0);
							}}
						>
							Clear filter
						</Button>
					) : null}
				</form>
				{canWrite ? (
					<Button className="ml-auto" onClick={() => setEditing("new")} disabled={editing === "new"}>
						<Plus className="h-4 w-4" aria-hidden /> Add a row
					</Button>
				) : null}
			</div>
			<Done text={done} />
			{rows.isPending ? (
				<Loading />
			) : rows.error ? (
				<ErrorNote error={rows.error} />
			) : (
				<>
					<TableFrame caption={`Rows of ${table.table_name}`}>
						<thead className="bg-slate-50">
							{grid.getHeaderGroups().map((group) => (
								<tr key={group.id}>
									{group.headers.map((header) => {
										const dir = header.column.getIsSorted();
										return (
											<th key={header.id} scope="col" className="px-3 py-2" aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}>
												<button type="button" className="inline-flex items-center gap-1 rounded font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500" onClick={header.column.getToggleSortingHandler()} aria-label={`Sort by ${String(header.column.columnDef.header)}`}>
													<grid.FlexRender header={header} />
													{dir === "asc" ? <ArrowUp className="h-3.5 w-3.5" aria-hidden /> : dir === "desc" ? <ArrowDown className="h-3.5 w-3.5" aria-hidden /> : <ArrowUpDown className="h-3.5 w-3.5 text-slate-400" aria-hidden />}
												</button>
											</th>
										);
									})}
									{canWrite ? (
										<th scope="col" className="px-3 py-2">
											<span className="sr-only">Actions</span>
										</th>
									) : null}
								</tr>
							))}
						</thead>
						<tbody>
							{editing === "new" ? (
								<RowEditor
									table={table}
									label="New row"
									onCancel={() => setEditing(null)}
									onSave={async (values) => {
										await saveRow(table.doctype, values);
										setEditing(null);
										setDone("The row was added.");
										await refresh();
									}}
								/>
							) : null}
							{grid.getRowModel().rows.map((row) =>
								editing === row.id ? (
									<RowEditor
										key={row.id}
										table={table}
										row={row.original}
										label={`Row ${rowLabel(table, row.original)}`}
										onCancel={() => setEditing(null)}
										onSave={async (values) => {
											await saveRow(table.doctype, values, row.original.name);
											setEditing(null);
											setDone("The row was saved.");
											await refresh();
										}}
									/>
								) : (
									<RowView
										key={row.id}
										table={table}
										row={row.original}
										cells={row.getAllCells().map((cell) => (
											<td key={cell.id} className="px-3 py-2 align-top [overflow-wrap:anywhere]">
												<grid.FlexRender cell={cell} />
											</td>
										))}
										canWrite={canWrite}
										onEdit={() => {
											setDone(null);
											setEditing(row.id);
										}}
										onDeleted={async () => {
											setDone("The row was deleted.");
											await refresh();
										}}
									/>
								),
							)}
							{!rows.data.rows.length && editing !== "new" ? (
								<tr>
									<td colSpan={table.fields.length + (canWrite ? 1 : 0)} className="p-4">
										<Empty title={filter ? "No rows match the filter" : "No rows yet"}>{filter ? "Clear the filter to see every row." : canWrite ? "Add a row, or import them from a CSV file." : null}</Empty>
									</td>
								</tr>
							) : null}
						</tbody>
					</TableFrame>
					<nav aria-label="Pages" className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
						<span>{total ? `Rows ${start + 1}–${Math.min(start + PAGE, total)} of ${total}` : "No rows"}</span>
						<Button variant="outline" size="sm" className="ml-auto" disabled={!grid.getCanPreviousPage()} onClick={() => grid.previousPage()}>
							Previous page
						</Button>
						<Button variant="outline" size="sm" disabled={!grid.getCanNextPage()} onClick={() => grid.nextPage()}>
							Next page
						</Button>
					</nav>
				</>
			)}
		</section>
	);
}

const rowLabel = (table: DataTable, row: Row) => String((table.title_field_name && row[table.title_field_name]) || row.name);

function RowView({ table, row, cells, canWrite, onEdit, onDeleted }: { table: DataTable; row: Row; cells: ReactNode; canWrite: boolean; onEdit: () => void; onDeleted: () => Promise<unknown> }) {
	const [confirming, setConfirming] = useState(false);
	const remove = useMutation({ mutationFn: () => deleteRow(table.doctype, row.name), onSuccess: onDeleted });
	const label = rowLabel(table, row);
	return (
		<tr className="border-t border-slate-100" aria-label={`Row ${label}`}>
			{cells}
			{canWrite ? (
				<td className="whitespace-nowrap px-3 py-2 align-top">
					{confirming ? (
						<span role="group" aria-label={`Delete row ${label}?`} className="inline-flex items-center gap-2">
							Delete this row?
							<Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
								Delete
							</Button>
							<Button size="sm" variant="outline" autoFocus onClick={() => setConfirming(false)}>
								Keep
							</Button>
						</span>
					) : (
						<span className="inline-flex gap-2">
							<Button size="sm" variant="outline" aria-label={`Edit row ${label}`} onClick={onEdit}>
								Edit
							</Button>
							<Button size="sm" variant="outline" aria-label={`Delete row ${label}`} onClick={() => setConfirming(true)}>
								Delete
							</Button>
						</span>
					)}
					{remove.error ? <ErrorNote error={remove.error} /> : null}
				</td>
			) : null}
		</tr>
	);
}

function RowEditor({ table, row, label, onSave, onCancel }: { table: DataTable; row?: Row; label: string; onSave: (values: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
	const [values, setValues] = useState<Record<string, string | boolean>>(() => Object.fromEntries(table.fields.map((f) => [f.fieldname, editable(f, row?.[f.fieldname])])));
	const save = useMutation({ mutationFn: () => onSave(Object.fromEntries(table.fields.map((f) => [f.fieldname, stored(f, values[f.fieldname] ?? "")]))) });
	const set = (fieldname: string, value: string | boolean) => setValues((all) => ({ ...all, [fieldname]: value }));
	return (
		<tr className="border-t border-slate-100 bg-blue-50/40" aria-label={label}>
			{table.fields.map((f, index) => {
				const value = values[f.fieldname];
				const common = { "aria-label": f.label, required: Boolean(f.reqd), autoFocus: index === 0 };
				return (
					<td key={f.fieldname} className="px-2 py-1 align-top">
						{f.fieldtype === "Check" ? (
							<input type="checkbox" className="h-4 w-4 accent-blue-600" {...common} checked={Boolean(value)} onChange={(e) => set(f.fieldname, e.target.checked)} />
						) : f.fieldtype === "Select" ? (
							<Select {...common} value={String(value)} onChange={(e) => set(f.fieldname, e.target.value)}>
								<option value="" />
								{f.options.split("\n").map((choice) => (
									<option key={choice} value={choice}>
										{choice}
									</option>
								))}
							</Select>
						) : (
							<Input
								{...common}
								className="min-w-28"
								type={f.fieldtype === "Int" || f.fieldtype === "Float" || f.fieldtype === "Currency" ? "number" : f.fieldtype === "Date" ? "date" : f.fieldtype === "Datetime" ? "datetime-local" : "text"}
								step={f.fieldtype === "Int" ? 1 : f.fieldtype === "Datetime" ? 1 : "any"}
								maxLength={f.fieldtype === "Data" ? 140 : undefined}
								value={String(value)}
								onChange={(e) => set(f.fieldname, e.target.value)}
								onKeyDown={(e) => {
									if (e.key === "Escape") onCancel();
									if (e.key === "Enter") save.mutate();
								}}
							/>
						)}
					</td>
				);
			})}
			<td className="whitespace-nowrap px-2 py-1 align-top">
				<span className="inline-flex gap-2">
					<Button size="sm" disabled={save.isPending} onClick={() => save.mutate()}>
						{save.isPending ? "Saving…" : "Save row"}
					</Button>
					<Button size="sm" variant="outline" onClick={onCancel}>
						Cancel
					</Button>
				</span>
				{save.error ? <ErrorNote error={save.error} /> : null}
			</td>
		</tr>
	);
}
