import { useQuery } from "@tanstack/react-query";
import { Plus, Search } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Input, Select } from "../../components/ui/field";
import { Empty, ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { getList } from "../../lib/api";
import { useCan } from "../../lib/me";

type AgentRow = { name: string; description: string | null; disabled: 0 | 1; model: string; allow_chat: 0 | 1; last_run: string | null; total_run: number | null };

export default function AgentsPage() {
	const can = useCan();
	const [search, setSearch] = useState("");
	const [status, setStatus] = useState("all");
	const filters: unknown[] = [];
	if (search.trim()) filters.push(["agent_name", "like", `%${search.trim()}%`]);
	if (status !== "all") filters.push(["disabled", "=", status === "disabled" ? 1 : 0]);
	const agents = useQuery({
		queryKey: ["agents", search.trim(), status],
		queryFn: () => getList<AgentRow>("Agent", { fields: ["name", "description", "disabled", "model", "allow_chat", "last_run", "total_run"], filters, order_by: "modified desc", limit: 200 }),
		placeholderData: (previous) => previous,
	});
	return (
		<div className="mx-auto grid max-w-5xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">Agents</h1>
				{can("agent.write") ? (
					<Button asChild className="ml-auto">
						<Link to="/agents/new">
							<Plus className="h-4 w-4" aria-hidden />
							New agent
						</Link>
					</Button>
				) : null}
			</header>
			<div className="flex flex-wrap gap-2">
				<div className="relative min-w-[14rem] flex-1">
					<Search className="absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" aria-hidden />
					<Input aria-label="Search agents" placeholder="Search agents" className="pl-8" value={search} onChange={(e) => setSearch(e.target.value)} />
				</div>
				<Select aria-label="Status" className="w-40" value={status} onChange={(e) => setStatus(e.target.value)}>
					<option value="all">All agents</option>
					<option value="active">Active</option>
					<option value="disabled">Disabled</option>
				</Select>
			</div>
			{agents.isPending ? <Loading /> : null}
			{agents.isError ? <ErrorNote error={agents.error} /> : null}
			{agents.data && !agents.data.length ? (
				<Empty title={search || status !== "all" ? "No agents match" : "No agents yet"}>
					{search || status !== "all" ? "Try another search." : "An agent answers questions and does work with the tools you give it."}
				</Empty>
			) : null}
			{agents.data?.length ? (
				<ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
					{agents.data.map((agent) => (
						<li key={agent.name}>
							<Link to={`/agents/${encodeURIComponent(agent.name)}`} className="flex flex-wrap items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500">
								<div className="min-w-0 flex-1">
									<p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{agent.name}</p>
									<p className="truncate text-sm text-slate-600">{agent.description || agent.model}</p>
								</div>
								<span className="text-xs text-slate-500">{agent.total_run ? `${agent.total_run} runs` : "Not run yet"}</span>
								<StatusBadge status={agent.disabled ? "Disabled" : "Active"} />
							</Link>
						</li>
					))}
				</ul>
			) : null}
		</div>
	);
}
