// A list drawn as a table, on TanStack Table: columns are declared once (header, cell, alignment)
// and the markup, roles and styles stay ours. The data-table grid (features/tables/Grid.tsx) uses
// the same library with sorting and paging, in TableFrame.
import { createColumnHelper, tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { cn } from "../lib/cn";

/** How a column is drawn: numbers sit right; `className` is added to its cells. */
export type ColumnLook = { align?: "right"; className?: string };

const features = tableFeatures({ columnMeta: {} as ColumnLook });
type ListFeatures = typeof features;

/** The column helper for a list of `T`: `columnsOf<Flow>().accessor(...)`, `.display(...)`. */
export const columnsOf = <T extends RowData>() => createColumnHelper<ListFeatures, T>();

// A list's columns hold values of different types.
export type Columns<T extends RowData> = ColumnDef<ListFeatures, T, any>[];

/** A column's header that only screen readers read (e.g. over a row's buttons). */
export const hiddenHeader = (text: string) => () => <span className="sr-only">{text}</span>;

/** The frame around every table: it scrolls sideways on a narrow screen; `caption` names it for screen readers. */
export function TableFrame({ caption, children }: { caption?: string | undefined; children: ReactNode }) {
	return (
		<div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
			<table className="w-full text-left text-sm">
				{caption ? <caption className="sr-only">{caption}</caption> : null}
				{children}
			</table>
		</div>
	);
}

/** The classes of a header cell and of a body cell of a column. */
function cellClasses(look: ColumnLook | undefined): { th: string; td: string } {
	return { th: cn("px-3 py-2", look?.align === "right" && "text-right"), td: cn("px-3 py-2", look?.align === "right" && "text-right tabular-nums", look?.className) };
}

type DataTableProps<T extends RowData> = {
	columns: Columns<T>;
	rows: readonly T[];
	rowKey: (row: T) => string;
	caption?: string;
	/** Each row's first cell holds a CoverLink that opens the row. */
	linkedRows?: boolean;
};

export function DataTable<T extends RowData>({ columns, rows, rowKey, caption, linkedRows = false }: DataTableProps<T>) {
	const table = useTable({ features, columns, data: rows as T[], getRowId: rowKey });
	return (
		<TableFrame caption={caption}>
			<thead className="bg-slate-50 text-xs uppercase text-slate-500">
				{table.getHeaderGroups().map((group) => (
					<tr key={group.id}>
						{group.headers.map((header) => (
							<th key={header.id} scope="col" className={cellClasses(header.column.columnDef.meta).th}>
								<table.FlexRender header={header} />
							</th>
						))}
					</tr>
				))}
			</thead>
			<tbody className="divide-y divide-slate-100">
				{table.getRowModel().rows.map((row) => (
					<tr key={row.id} className={linkedRows ? "relative hover:bg-slate-50" : undefined}>
						{row.getAllCells().map((cell) => (
							<td key={cell.id} className={cellClasses(cell.column.columnDef.meta).td}>
								<table.FlexRender cell={cell} />
							</td>
						))}
					</tr>
				))}
			</tbody>
		</TableFrame>
	);
}
