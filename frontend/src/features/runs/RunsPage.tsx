import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { columnsOf, DataTable, type Columns } from "../../components/DataTable";
import { CoverLink, DataList, ListPage } from "../../components/ListPage";
import { Button } from "../../components/ui/button";
import { Input, Select } from "../../components/ui/field";
import { Empty, StatusBadge, statusLabel } from "../../components/ui/status";
import { getList } from "../../lib/api";
import { useMe } from "../../lib/me";
import { formatCost } from "../chat/state";
import { ACTIVE, formatDuration, useRunUpdates, type RunRow } from "./api";

const PAGE = 50;
const STATUSES = ["Queued", "Started", "Awaiting Approval", "Needs Attention", "Success", "Failed", "Cancelled"];

const column = columnsOf<RunRow>();
const COLUMNS: Columns<RunRow> = [
	column.accessor("creation", {
		header: "Started",
		cell: ({ row: { original: run } }) => (
			// the whole row opens the run (the link covers it)
			<CoverLink className="underline-offset-2" to={`/runs/${run.name}`}>
				{new Date(run.creation.replace(" ", "T")).toLocaleString()}
			</CoverLink>
		),
	}),
	column.accessor("agent", { header: "Agent" }),
	column.accessor("user", { header: "Person" }),
	column.accessor("status", { header: "Status", cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
	column.accessor("total_tokens", { header: "Tokens", meta: { align: "right" }, cell: ({ getValue }) => (getValue() ?? 0).toLocaleString() }),
	column.accessor("total_cost", { header: "Cost", meta: { align: "right" }, cell: ({ getValue }) => formatCost(getValue() ?? 0) }),
	column.accessor("duration_seconds", { header: "Time", meta: { align: "right" }, cell: ({ getValue }) => formatDuration(getValue()) }),
];

export default function RunsPage() {
	const me = useMe();
	const [filters, setFilters] = useState({ agent: "", status: "", user: "", from: "", to: "" });
	const set = (key: keyof typeof filters, value: string) => setFilters((f) => ({ ...f, [key]: value }));
	useRunUpdates();

	const agents = useQuery({ queryKey: ["agent-names"], queryFn: () => getList<{ name: string }>("Agent", { order_by: "name asc", limit: 500 }) });
	const where: unknown[] = [];
	if (filters.agent) where.push(["agent", "=", filters.agent]);
	if (filters.status) where.push(["status", "=", filters.status]);
	if (filters.user.trim()) where.push(["user", "like", `%${filters.user.trim()}%`]);
	if (filters.from) where.push(["creation", ">=", `${filters.from} 00:00:00`]);
	if (filters.to) where.push(["creation", "<=", `${filters.to} 23:59:59`]);

	const runs = useInfiniteQuery({
		queryKey: ["runs", filters],
		queryFn: ({ pageParam }) =>
			getList<RunRow>("Agent Run", {
				fields: ["name", "agent", "user", "status", "channel", "total_tokens", "total_cost", "duration_seconds", "creation"],
				filters: where,
				order_by: "creation desc",
				limit: PAGE,
				start: pageParam,
			}),
		initialPageParam: 0,
		getNextPageParam: (last, all) => (last.length === PAGE ? all.length * PAGE : undefined),
		refetchInterval: (query) => (query.state.data?.pages.some((page) => page.some((run) => ACTIVE.includes(run.status))) ? 3000 : false),
	});
	const filtered = Object.values(filters).some(Boolean);

	return (
		<ListPage title="Runs" width="6xl">
			<div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5" role="group" aria-label="Filter runs">
				<Select aria-label="Agent" value={filters.agent} onChange={(e) => set("agent", e.target.value)}>
					<option value="">All agents</option>
					{agents.data?.map((a) => (
						<option key={a.name} value={a.name}>{a.name}</option>
					))}
				</Select>
				<Select aria-label="Status" value={filters.status} onChange={(e) => set("status", e.target.value)}>
					<option value="">Any status</option>
					{STATUSES.map((s) => (
						<option key={s} value={s}>{statusLabel(s)}</option>
					))}
				</Select>
				{me.data?.capabilities["run.read.all"] ? <Input aria-label="Person" placeholder="Person (email)" value={filters.user} onChange={(e) => set("user", e.target.value)} /> : null}
				<Input aria-label="From date" type="date" value={filters.from} onChange={(e) => set("from", e.target.value)} />
				<Input aria-label="To date" type="date" value={filters.to} onChange={(e) => set("to", e.target.value)} />
			</div>
			<DataList query={{ isPending: runs.isPending, error: runs.error, data: runs.data?.pages.flat() }} empty={<Empty title={filtered ? "No runs match these filters" : "No runs yet"}>{filtered ? "Change or clear the filters." : "Every time an agent answers, the run shows up here."}</Empty>}>
				{(rows) => <DataTable columns={COLUMNS} rows={rows} rowKey={(run) => run.name} linkedRows />}
			</DataList>
			{runs.hasNextPage ? (
				<Button variant="outline" className="justify-self-center" disabled={runs.isFetchingNextPage} onClick={() => void runs.fetchNextPage()}>
					Show more runs
				</Button>
			) : null}
		</ListPage>
	);
}
