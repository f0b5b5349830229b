import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataList, LinkRows, ListPage, NewButton, RowText, SearchBox } from "../../components/ListPage";
import { Select } from "../../components/ui/field";
import { Empty, StatusBadge } from "../../components/ui/status";
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
	const filtered = Boolean(search) || status !== "all";
	return (
		<ListPage
			title="Agents"
			width="5xl"
			actions={can("agent.write") ? <NewButton to="/agents/new">New agent</NewButton> : null}
		>
			<div className="flex flex-wrap gap-2">
				<SearchBox label="Search agents" className="min-w-[14rem] flex-1" value={search} onChange={setSearch} />
				<Select aria-label="Status" className="w-40" value={status} onChange={(e) => setStatus(e.target.value)}>
					<option value="all">All agents</option>
					<option value="active">Active</option>
					<option value="disabled">Disabled</option>
				</Select>
			</div>
			<DataList query={agents} empty={<Empty title={filtered ? "No agents match" : "No agents yet"}>{filtered ? "Try another search." : "An agent answers questions and does work with the tools you give it."}</Empty>}>
				{(rows) => (
					<LinkRows rows={rows} rowKey={(agent) => agent.name} to={(agent) => `/agents/${encodeURIComponent(agent.name)}`}>
						{(agent) => (
							<>
								<RowText title={agent.name} line={agent.description || agent.model} />
								<span className="text-xs text-slate-500">{agent.total_run ? `${agent.total_run} runs` : "Not run yet"}</span>
								<StatusBadge status={agent.disabled ? "Disabled" : "Active"} />
							</>
						)}
					</LinkRows>
				)}
			</DataList>
		</ListPage>
	);
}
