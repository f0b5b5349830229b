import { useState } from "react";
import { CardLink, Cards, DataList, ListPage, NewButton } from "../../components/ListPage";
import { Empty } from "../../components/ui/status";
import { useCan } from "../../lib/me";
import { useTables } from "./api";
import { FieldsDialog } from "./FieldsDialog";

/** Every data table, and (for those who may) a way to make a new one. */
export default function TablesPage() {
	const tables = useTables();
	const [creating, setCreating] = useState(false);
	const canWrite = useCan()("table.write");
	return (
		<ListPage
			title="Tables"
			description="Rows of data your agents and people keep: each table has its own columns."
			actions={canWrite ? <NewButton onClick={() => setCreating(true)}>New table</NewButton> : null}
		>
			<DataList query={tables} empty={<Empty title="No tables yet">{canWrite ? "Make a table, then add rows to it or import them from a CSV file." : "Ask an administrator to make one."}</Empty>}>
				{(rows) => (
					<Cards rows={rows} rowKey={(table) => table.name} label="Tables">
						{(table) => (
							<>
								<CardLink to={`/tables/${encodeURIComponent(table.name)}`}>{table.table_name}</CardLink>
								{table.description ? <p className="text-sm text-slate-600">{table.description}</p> : null}
								<p className="text-xs text-slate-500">
									{table.field_count === 1 ? "1 column" : `${table.field_count} columns`} · {table.row_count === 1 ? "1 row" : `${table.row_count} rows`}
								</p>
							</>
						)}
					</Cards>
				)}
			</DataList>
			{creating ? <FieldsDialog onClose={() => setCreating(false)} /> : null}
		</ListPage>
	);
}
