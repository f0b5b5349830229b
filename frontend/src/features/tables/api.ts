// Data tables (huf/ai/data_tables/api.py): tables people make themselves, each with its own columns
// and rows. Looking needs "table.read"; making, changing, deleting tables and importing rows need
// "table.write". Rows are read through list_rows and saved one by one through the site's own record
// endpoints, so each table's own rules on who may read or change its rows apply.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call, deleteDoc, saveDoc } from "../../lib/api";

const API = "huf.ai.data_tables.api.";

export const FIELD_TYPES = ["Data", "Text", "Int", "Float", "Currency", "Date", "Datetime", "Check", "Select", "Link"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What each column type is called on the page. */
export const TYPE_LABELS: Record<FieldType, string> = {
	Data: "Short text",
	Text: "Long text",
	Int: "Whole number",
	Float: "Number",
	Currency: "Amount of money",
	Date: "Date",
	Datetime: "Date and time",
	Check: "Yes/no",
	Select: "Choice from a list",
	Link: "Link to a record",
};

export type TableField = { label: string; fieldname: string; fieldtype: FieldType; options: string; reqd: 0 | 1 };
export type FieldDraft = { label: string; fieldname?: string; fieldtype: FieldType; options: string; reqd: 0 | 1 };

export type TableSummary = {
	name: string;
	table_name: string;
	doctype: string;
	description: string;
	field_count: number;
	autoname_method: "Autoincrement" | "Field";
	title_field_name: string;
	owner_role: string;
	reader_role: string;
	modified: string;
	row_count: number;
};
/** `tools`: the agent tools that act on the table (empty for who may not see tools). */
export type DataTable = TableSummary & { fields: TableField[]; tools: string[] };

export const useTables = () => useQuery({ queryKey: ["data-tables"], queryFn: () => call<TableSummary[]>(`${API}list_data_tables`) });
export const useTable = (name: string) => useQuery({ queryKey: ["data-table", name], queryFn: () => call<DataTable>(`${API}get_data_table`, { name }) });

export type NewTable = {
	table_name: string;
	fields: FieldDraft[];
	description: string;
	autoname_method: "Autoincrement" | "Field";
	title_field_name: string | null;
	owner_role: string;
	reader_role: string;
};
export const createTable = (table: NewTable) => call<{ name: string; doctype: string }>(`${API}create_data_table`, table, true);

export type Loss = { field: string; what: string; rows: number; examples: unknown[] };
export type UpdateAnswer = { needs_confirmation: true; losses: Loss[] } | { name: string; doctype: string; losses: Loss[]; applied: true };

/** Changes the columns (the whole new list; a column keeps its data by keeping its fieldname). When
 * the change would lose data and `confirm` is false, nothing changes and the answer lists the losses. */
export const updateTable = (
	name: string,
	change: { fields: FieldDraft[]; description: string; title_field_name: string | null; owner_role: string; reader_role: string },
	confirm = false,
) =>
	call<UpdateAnswer>(`${API}update_data_table`, { name, ...change, title_field_name: change.title_field_name ?? "", confirm: confirm ? 1 : 0 }, true);

export const deleteTable = (name: string) => call<{ deleted: true }>(`${API}delete_data_table`, { name }, true);

export type Row = { name: string | number; owner?: string; creation?: string; modified?: string; [field: string]: unknown };
export type RowPage = { rows: Row[]; total: number; start: number; page_length: number };
export type RowQuery = { filters: Record<string, unknown>; order_by: string; start: number; page_length: number };

export const useRows = (name: string, query: RowQuery) =>
	useQuery({
		queryKey: ["data-table-rows", name, query],
		queryFn: () => call<RowPage>(`${API}list_rows`, { name, filters: JSON.stringify(query.filters), order_by: query.order_by, start: query.start, page_length: query.page_length }),
		placeholderData: keepPreviousData,
	});

export const saveRow = (doctype: string, values: Record<string, unknown>, row?: string | number) => saveDoc<Row>(doctype, values, row === undefined ? undefined : String(row));
export const deleteRow = (doctype: string, row: string | number) => deleteDoc(doctype, String(row));

export const exportUrl = (name: string) => `/api/method/${API}export_csv?${new URLSearchParams({ name })}`;

export type PreviewRow = { row: number; values: Record<string, unknown>; errors: string[] };
export type Preview = { header_ok: boolean; missing: string[]; unknown: string[]; duplicated: string[]; rows: PreviewRow[]; good: number; bad: number };
export type ImportAnswer = Omit<Preview, "rows"> & { errors: { row: number; errors: string[] }[]; imported: number };

export const previewCsv = (name: string, content: string) => call<Preview>(`${API}preview_csv`, { name, content }, true);
export const importCsv = (name: string, content: string, goodRowsOnly: boolean) => call<ImportAnswer>(`${API}import_csv`, { name, content, good_rows_only: goodRowsOnly ? 1 : 0 }, true);

/** The fieldname the server gives a column from its label (frappe.scrub). */
export const fieldnameOf = (field: FieldDraft) => field.fieldname || field.label.trim().replaceAll(" ", "_").replaceAll("-", "_").toLowerCase();

/** How a stored value reads in a cell. */
export function shown(field: TableField, value: unknown): string {
	if (value === null || value === undefined || value === "") return "";
	if (field.fieldtype === "Check") return Number(value) ? "Yes" : "No";
	return String(value);
}
