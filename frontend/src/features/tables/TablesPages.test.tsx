import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { api, resetApi } from "../../test/fakeApi";
import { renderPage } from "../../test/render";
import { filtersOf, stored } from "./Grid";
import TablePage from "./TablePage";
import TablesPage from "./TablesPage";
import type { DataTable, TableField } from "./api";

const calls = api.calls;
const saved: { doctype: string; doc: Record<string, unknown>; name?: string | undefined }[] = [];
const deleted: { doctype: string; name: string }[] = [];

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: (await import("../../test/fakeApi")).fakeCall,
	saveDoc: vi.fn(async (doctype: string, doc: Record<string, unknown>, name?: string) => {
		saved.push({ doctype, doc, name });
		return { name: name ?? 3, ...doc };
	}),
	deleteDoc: vi.fn(async (doctype: string, name: string) => {
		deleted.push({ doctype, name });
	}),
}));

afterEach(() => {
	cleanup();
	resetApi();
	saved.length = 0;
	deleted.length = 0;
});

const fields: TableField[] = [
	{ label: "Title", fieldname: "title", fieldtype: "Data", options: "", reqd: 1 },
	{ label: "Pages", fieldname: "pages", fieldtype: "Int", options: "", reqd: 0 },
	{ label: "Read", fieldname: "read", fieldtype: "Check", options: "", reqd: 0 },
	{ label: "Shelf", fieldname: "shelf", fieldtype: "Select", options: "Top\nBottom", reqd: 0 },
];
const books: DataTable = {
	name: "Books",
	table_name: "Books",
	doctype: "HF Books",
	description: "What we read.",
	field_count: 4,
	autoname_method: "Autoincrement",
	title_field_name: "title",
	owner_role: "Huf Manager",
	reader_role: "Huf User",
	modified: "2026-01-01 00:00:00",
	row_count: 2,
	fields,
	tools: [] as string[],
};
const page = {
	rows: [
		{ name: 1, title: "Dune", pages: 412, read: 1, shelf: "Top" },
		{ name: 2, title: "Emma", pages: 320, read: 0, shelf: null },
	],
	total: 2,
	start: 0,
	page_length: 20,
};

const writer = { user: "admin@example.com", full_name: "Admin", capabilities: { "table.read": true, "table.write": true } };
const reader = { user: "ann@example.com", full_name: "Ann", capabilities: { "table.read": true, "table.write": false } };

const show = (path: string, me: object = writer) => renderPage({ "/tables": <TablesPage />, "/tables/:name": <TablePage /> }, { path, me });

const called = (name: string) => calls.filter((call) => call.method.endsWith(`.${name}`));

describe("the list of tables", () => {
	it("lists tables with their columns and rows, and makes a new one named by number", async () => {
		const user = userEvent.setup();
		api.replies = { list_data_tables: [{ ...books, fields: undefined }], create_data_table: { name: "Films", doctype: "HF Films" }, get_data_table: { ...books, name: "Films", table_name: "Films" }, list_rows: { ...page, rows: [], total: 0 } };
		show("/tables");
		expect(await screen.findByRole("link", { name: "Books" })).toBeTruthy();
		expect(screen.getByText("4 columns · 2 rows")).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "New table" }));
		const form = screen.getByRole("form", { name: "New table" });
		await user.type(within(form).getByLabelText("Table name"), "Films");
		await user.type(within(form).getByLabelText("Name of column 1"), "Film title");
		await user.click(within(form).getByRole("button", { name: "Add a column" }));
		await user.type(within(form).getByLabelText("Name of column 2"), "Rating");
		await user.selectOptions(within(form).getByLabelText("Type of column 2"), "Choice from a list");
		await user.type(within(form).getByLabelText("Choices of Rating"), "Good{Enter}Bad");
		await user.selectOptions(within(form).getByLabelText("Title column"), "Film title");
		await user.clear(within(form).getByLabelText("Who may read rows"));
		await user.type(within(form).getByLabelText("Who may read rows"), "Huf Viewer");
		await user.click(within(form).getByRole("button", { name: "Create table" }));
		expect(await screen.findByRole("heading", { name: "Films" })).toBeTruthy();
		expect(called("create_data_table")[0]?.args).toEqual({
			table_name: "Films",
			description: "",
			autoname_method: "Autoincrement",
			title_field_name: "film_title",
			owner_role: "Huf Manager",
			reader_role: "Huf Viewer",
			fields: [
				{ label: "Film title", fieldtype: "Data", options: "", reqd: 0 },
				{ label: "Rating", fieldtype: "Select", options: "Good\nBad", reqd: 0 },
			],
		});
	});

	it("says what is missing before sending, and shows the server's refusal", async () => {
		const user = userEvent.setup();
		api.replies = { list_data_tables: [], create_data_table: new ApiError("A DocType named HF User already exists; choose another table name.", 417) };
		show("/tables");
		await user.click(await screen.findByRole("button", { name: "New table" }));
		const form = screen.getByRole("form", { name: "New table" });
		await user.click(within(form).getByRole("button", { name: "Create table" }));
		expect(within(form).getByRole("alert").textContent).toContain("Give the table a name.");
		await user.type(within(form).getByLabelText("Table name"), "User");
		await user.click(within(form).getByRole("button", { name: "Create table" }));
		expect(within(form).getByRole("alert").textContent).toContain("Column 1 needs a name.");
		await user.type(within(form).getByLabelText("Name of column 1"), "Name");
		await user.click(within(form).getByRole("button", { name: "Create table" }));
		expect((await within(form).findByRole("alert")).textContent).toContain("choose another table name");
	});

	it("offers no New table to someone who may only read", async () => {
		api.replies = { list_data_tables: [] };
		show("/tables", reader);
		expect(await screen.findByText("No tables yet")).toBeTruthy();
		expect(screen.queryByRole("button", { name: "New table" })).toBeNull();
	});
});

describe("a table's grid", () => {
	it("shows rows, sorts by a column, filters and pages", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: books, list_rows: page };
		show("/tables/Books");
		const dune = await screen.findByRole("row", { name: "Row Dune" });
		expect(within(dune).getAllByRole("cell").map((c) => c.textContent)).toEqual(["Dune", "412", "Yes", "Top", "EditDelete"]);
		await user.click(screen.getByRole("button", { name: "Sort by Pages" }));
		await vi.waitFor(() => expect(called("list_rows").at(-1)?.args.order_by).toBe("pages asc"));
		expect(screen.getByRole("button", { name: "Sort by Pages" }).closest("th")?.getAttribute("aria-sort")).toBe("ascending");
		await user.click(screen.getByRole("button", { name: "Sort by Pages" }));
		await vi.waitFor(() => expect(called("list_rows").at(-1)?.args.order_by).toBe("pages desc"));
		await user.type(screen.getByLabelText("Value"), "dun");
		await user.click(screen.getByRole("button", { name: "Filter" }));
		await vi.waitFor(() => expect(called("list_rows").at(-1)?.args.filters).toBe(JSON.stringify({ title: ["like", "%dun%"] })));
		expect(screen.getByText("Rows 1–2 of 2")).toBeTruthy();
		expect((screen.getByRole("button", { name: "Next page" }) as HTMLButtonElement).disabled).toBe(true);
	});

	it("adds a row, edits one and deletes one through the table's records", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: books, list_rows: page };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Add a row" }));
		const fresh = screen.getByRole("row", { name: "New row" });
		await user.type(within(fresh).getByLabelText("Title"), "Persuasion");
		await user.type(within(fresh).getByLabelText("Pages"), "250");
		await user.click(within(fresh).getByLabelText("Read"));
		await user.selectOptions(within(fresh).getByLabelText("Shelf"), "Bottom");
		await user.click(within(fresh).getByRole("button", { name: "Save row" }));
		expect(await screen.findByText("The row was added.")).toBeTruthy();
		expect(saved[0]).toEqual({ doctype: "HF Books", doc: { title: "Persuasion", pages: 250, read: 1, shelf: "Bottom" }, name: undefined });

		await user.click(screen.getByRole("button", { name: "Edit row Emma" }));
		const emma = screen.getByRole("row", { name: "Row Emma" });
		const pages = within(emma).getByLabelText("Pages");
		await user.clear(pages);
		await user.type(pages, "321{Enter}");
		expect(await screen.findByText("The row was saved.")).toBeTruthy();
		expect(saved[1]).toEqual({ doctype: "HF Books", doc: { title: "Emma", pages: 321, read: 0, shelf: null }, name: "2" });

		await user.click(screen.getByRole("button", { name: "Delete row Dune" }));
		await user.click(within(screen.getByRole("group", { name: "Delete row Dune?" })).getByRole("button", { name: "Delete" }));
		expect(await screen.findByText("The row was deleted.")).toBeTruthy();
		expect(deleted).toEqual([{ doctype: "HF Books", name: "1" }]);
	});

	it("shows someone who may only read no editing controls, but lets them export", async () => {
		api.replies = { get_data_table: books, list_rows: page };
		show("/tables/Books", reader);
		await screen.findByRole("row", { name: "Row Dune" });
		for (const name of ["Add a row", "Edit row Dune", "Change columns", "Import CSV", "Delete table"]) expect(screen.queryByRole("button", { name })).toBeNull();
		expect(screen.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe("/api/method/huf.ai.data_tables.api.export_csv?name=Books");
	});
});

describe("changing columns", () => {
	it("shows what a change would lose, per column, and only makes it once confirmed", async () => {
		const user = userEvent.setup();
		const losses = [{ field: "pages", what: "the field would be removed with its values", rows: 2, examples: [412, 320] }];
		api.replies = { get_data_table: books, list_rows: page, update_data_table: (args: Record<string, unknown>) => (args.confirm ? { name: "Books", doctype: "HF Books", losses, applied: true } : { needs_confirmation: true, losses }) };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Change columns" }));
		const form = screen.getByRole("form", { name: "Table columns" });
		await user.click(within(form).getByRole("button", { name: "Remove Pages" }));
		await user.click(within(form).getByRole("button", { name: "Save columns" }));
		const warning = await within(form).findByRole("alert", { name: "Data that would be lost" });
		expect(warning.textContent).toContain("Pages: the field would be removed with its values in 2 rows (for example “412”, “320”).");
		expect(called("update_data_table")[0]?.args).toMatchObject({ name: "Books", confirm: 0, title_field_name: "title", owner_role: books.owner_role, reader_role: books.reader_role });
		expect((called("update_data_table")[0]?.args.fields as { fieldname: string }[]).map((f) => f.fieldname)).toEqual(["title", "read", "shelf"]);
		await user.click(within(warning).getByRole("button", { name: "Change anyway and lose this data" }));
		await vi.waitFor(() => expect(screen.queryByRole("form", { name: "Table columns" })).toBeNull());
		expect(called("update_data_table")[1]?.args).toMatchObject({ confirm: 1 });
	});
});

describe("importing a CSV file", () => {
	const preview = {
		header_ok: true,
		missing: [],
		unknown: [],
		duplicated: [],
		rows: [
			{ row: 2, values: { title: "Ulysses", pages: 730 }, errors: [] },
			{ row: 3, values: { title: "Odyssey" }, errors: ["Pages: many is not a number"] },
		],
		good: 1,
		bad: 1,
	};

	it("previews every row with its problems and imports the good rows when asked", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: books, list_rows: page, preview_csv: preview, import_csv: { ...preview, rows: undefined, errors: [{ row: 3, errors: ["Pages: many is not a number"] }], imported: 1 } };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Import CSV" }));
		const text = "title,pages\nUlysses,730\nOdyssey,many\n";
		await user.upload(screen.getByLabelText("CSV file"), new File([text], "books.csv", { type: "text/csv" }));
		const bad = await screen.findByRole("row", { name: "Line 3" });
		expect(bad.textContent).toContain("Pages: many is not a number");
		expect(screen.getByText("1 row ready to import, 1 row with problems.")).toBeTruthy();
		expect(called("preview_csv")[0]?.args).toEqual({ name: "Books", content: text });
		await user.click(screen.getByRole("button", { name: "Import the 1 good row" }));
		expect(await screen.findByText("1 row was imported; 1 row with problems was left out.")).toBeTruthy();
		expect(called("import_csv")[0]?.args).toEqual({ name: "Books", content: text, good_rows_only: 1 });
	});

	it("says when the first line does not match the columns and offers no import", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: books, list_rows: page, preview_csv: { ...preview, header_ok: false, unknown: ["colour"], missing: ["title"], rows: [], good: 0, bad: 0 } };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Import CSV" }));
		await user.upload(screen.getByLabelText("CSV file"), new File(["colour\nred\n"], "x.csv", { type: "text/csv" }));
		const alert = await screen.findByText("The first line doesn't match the table's columns.");
		expect(alert.parentElement?.textContent).toContain("Not columns of this table: colour.");
		expect(alert.parentElement?.textContent).toContain("Required columns missing: Title.");
		expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
	});
});

describe("deleting a table", () => {
	it("asks first, then deletes and goes back to the list", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: books, list_rows: page, delete_data_table: { deleted: true }, list_data_tables: [] };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Delete table" }));
		const ask = screen.getByRole("group", { name: "Delete Books?" });
		expect(ask.textContent).toContain("all its 2 rows");
		expect(ask.textContent).toContain("agent tools that use it stop working.");
		await user.click(within(ask).getByRole("button", { name: "Delete the table" }));
		expect(await screen.findByText("No tables yet")).toBeTruthy();
		expect(called("delete_data_table")[0]?.args).toEqual({ name: "Books" });
	});
});

describe("deleting a table that agent tools use", () => {
	it("names the tools that stop working", async () => {
		const user = userEvent.setup();
		api.replies = { get_data_table: { ...books, tools: ["add_book", "list_books"] }, list_rows: page };
		show("/tables/Books");
		await user.click(await screen.findByRole("button", { name: "Delete table" }));
		expect(screen.getByRole("group", { name: "Delete Books?" }).textContent).toContain("This can't be undone, and these agent tools stop working: add_book, list_books.");
	});
});

describe("values and filters", () => {
	const f = (fieldtype: TableField["fieldtype"]): TableField => ({ label: "X", fieldname: "x", fieldtype, options: "", reqd: 0 });
	it("turns what was typed into what the row stores", () => {
		expect(stored(f("Int"), "42")).toBe(42);
		expect(stored(f("Currency"), "4.5")).toBe(4.5);
		expect(stored(f("Data"), "")).toBeNull();
		expect(stored(f("Check"), true)).toBe(1);
		expect(stored(f("Datetime"), "2026-01-02T03:04")).toBe("2026-01-02 03:04:00");
	});
	it("matches part of a text and the whole of anything else", () => {
		expect(filtersOf(books, { field: "title", value: "du" })).toEqual({ title: ["like", "%du%"] });
		expect(filtersOf(books, { field: "pages", value: "412" })).toEqual({ pages: "412" });
		expect(filtersOf(books, { field: "read", value: "yes" })).toEqual({ read: 1 });
		expect(filtersOf(books, { field: "read", value: "  " })).toEqual({});
	});
});
