import { cleanup, render, screen, within } from "@testing-library/react";
import axe from "axe-core";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { columnsOf, DataTable, hiddenHeader, type Columns } from "./DataTable";
import { CardLink, Cards, DataList, LinkRows, ListPage, NewButton, RowText, SearchBox } from "./ListPage";

afterEach(cleanup);

type Thing = { name: string; count: number };
const things: Thing[] = [
	{ name: "Apples", count: 1200 },
	{ name: "Pears", count: 3 },
];
const column = columnsOf<Thing>();
const columns: Columns<Thing> = [
	column.accessor("name", { header: "Thing" }),
	column.accessor("count", { header: "Count", meta: { align: "right" }, cell: ({ getValue }) => getValue().toLocaleString("en") }),
	column.display({ id: "actions", header: hiddenHeader("Actions"), cell: ({ row }) => <button type="button">Open {row.original.name}</button> }),
];

const loaded = (data: Thing[] | undefined, error: unknown = null) => ({ isPending: !data && !error, error, data });

async function serious(): Promise<string[]> {
	const result = await axe.run(document.body, { rules: { "color-contrast": { enabled: false }, region: { enabled: false } } });
	return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

describe("a list page", () => {
	it("has one level-1 heading, its line and actions, and draws the rows as links, cards or a table", async () => {
		render(
			<MemoryRouter>
				<main>
					<ListPage title="Things" description="What we keep." actions={<NewButton to="/things/new">New thing</NewButton>}>
						<SearchBox label="Search things" value="" onChange={() => undefined} />
						<DataList query={loaded(things)} empty={<p>None</p>}>
							{(rows) => (
								<>
									<LinkRows rows={rows} rowKey={(row) => row.name} label="Things as links" to={(row) => `/things/${row.name}`}>
										{(row) => <RowText title={row.name} line={`${row.count} of them`} />}
									</LinkRows>
									<Cards rows={rows} rowKey={(row) => row.name} label="Things as cards">
										{(row) => <CardLink to={`/things/${row.name}`}>{`Card ${row.name}`}</CardLink>}
									</Cards>
									<DataTable columns={columns} rows={rows} rowKey={(row) => row.name} caption="Things as a table" linkedRows />
								</>
							)}
						</DataList>
					</ListPage>
				</main>
			</MemoryRouter>,
		);
		expect(screen.getByRole("heading", { level: 1, name: "Things" })).toBeTruthy();
		expect(screen.getByText("What we keep.")).toBeTruthy();
		expect(screen.getByRole("link", { name: "New thing" }).getAttribute("href")).toBe("/things/new");
		expect(screen.getByPlaceholderText("Search things")).toBe(screen.getByRole("textbox", { name: "Search things" }));
		expect(within(screen.getByRole("list", { name: "Things as links" })).getAllByRole("link").map((link) => link.getAttribute("href"))).toEqual(["/things/Apples", "/things/Pears"]);
		expect(within(screen.getByRole("list", { name: "Things as cards" })).getByRole("link", { name: "Card Pears" })).toBeTruthy();
		const table = screen.getByRole("table", { name: "Things as a table" });
		expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["Thing", "Count", "Actions"]);
		const apples = within(table).getAllByRole("row")[1] as HTMLElement;
		expect(within(apples).getAllByRole("cell").map((td) => td.textContent)).toEqual(["Apples", "1,200", "Open Apples"]);
		expect(within(apples).getAllByRole("cell")[1]?.className).toContain("text-right");
		expect(await serious()).toEqual([]);
	});

	it("says it is loading, then the error, and the empty state when there is nothing", () => {
		const { rerender } = render(<DataList query={loaded(undefined)} empty={<p>Nothing yet</p>}>{() => <p>Rows</p>}</DataList>);
		expect(screen.getByRole("status").textContent).toBe("Loading…");
		rerender(<DataList query={loaded(undefined, new Error("The server is away."))} empty={<p>Nothing yet</p>}>{() => <p>Rows</p>}</DataList>);
		expect(screen.getByRole("alert").textContent).toBe("The server is away.");
		expect(screen.queryByText("Rows")).toBeNull();
		rerender(<DataList query={loaded([])} empty={<p>Nothing yet</p>}>{() => <p>Rows</p>}</DataList>);
		expect(screen.getByText("Nothing yet")).toBeTruthy();
		rerender(<DataList query={loaded(things, new Error("Could not refresh."))} empty={<p>Nothing yet</p>}>{(rows) => <p>{rows.length} rows</p>}</DataList>);
		expect(screen.getByRole("alert").textContent).toBe("Could not refresh.");
		expect(screen.getByText("2 rows")).toBeTruthy();
	});
});
