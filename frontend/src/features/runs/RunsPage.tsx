import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Input, Select } from "../../components/ui/field";
import { Empty, ErrorNote, Loading, StatusBadge, statusLabel } from "../../components/ui/status";
import { getList } from "../../lib/api";
import { useMe } from "../../lib/me";
import { formatCost } from "../chat/state";
import { ACTIVE, formatDuration, useRunUpdates, type RunRow } from "./api";

const PAGE = 50;
const STATUSES = ["Queued", "Started", "Awaiting Approval", "Needs Attention", "Success", "Failed", "Cancelled"];

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
	const rows = runs.data?.pages.flat() ?? [];
	const filtered = Object.values(filters).some(Boolean);

	return (
		<div className="mx-auto grid max-w-6xl grid-cols-1 gap-4 p-4 md:p-6">
			<h1 className="text-xl font-semibold">Runs</h1>
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
			{runs.isPending ? <Loading /> : null}
			{runs.isError ? <ErrorNote error={runs.error} /> : null}
			{runs.data && !rows.length ? <Empty title={filtered ? "No runs match these filters" : "No runs yet"}>{filtered ? "Change or clear the filters." : "Every time an agent answers, the run shows up here."}</Empty> : null}
			{rows.length ? (
				<div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
					<table className="w-full text-left text-sm">
						<thead className="bg-slate-50 text-xs uppercase text-slate-500">
							<tr>
								<th scope="col" className="px-3 py-2">Started</th>
								<th scope="col" className="px-3 py-2">Agent</th>
								<th scope="col" className="px-3 py-2">Person</th>
								<th scope="col" className="px-3 py-2">Status</th>
								<th scope="col" className="px-3 py-2 text-right">Tokens</th>
								<th scope="col" className="px-3 py-2 text-right">Cost</th>
								<th scope="col" className="px-3 py-2 text-right">Time</th>
							</tr>
						</thead>
						<tbody className="divide-y divide-slate-100">
							{rows.map((run) => (
								<tr key={run.name} className="relative hover:bg-slate-50">
									<td className="px-3 py-2">
										{/* the whole row opens the run (the link covers it) */}
										<Link className="text-blue-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']" to={`/runs/${run.name}`}>
											{new Date(run.creation.replace(" ", "T")).toLocaleString()}
										</Link>
									</td>
									<td className="px-3 py-2">{run.agent}</td>
									<td className="px-3 py-2">{run.user}</td>
									<td className="px-3 py-2"><StatusBadge status={run.status} /></td>
									<td className="px-3 py-2 text-right tabular-nums">{(run.total_tokens ?? 0).toLocaleString()}</td>
									<td className="px-3 py-2 text-right tabular-nums">{formatCost(run.total_cost ?? 0)}</td>
									<td className="px-3 py-2 text-right tabular-nums">{formatDuration(run.duration_seconds)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : null}
			{runs.hasNextPage ? (
				<Button variant="outline" className="justify-self-center" disabled={runs.isFetchingNextPage} onClick={() => void runs.fetchNextPage()}>
					Show more runs
				</Button>
			) : null}
		</div>
	);
}
