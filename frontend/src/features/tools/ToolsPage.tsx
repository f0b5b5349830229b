import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { DataList, LinkRows, ListPage, NewButton, RowText, SearchBox } from "../../components/ListPage";
import { Button } from "../../components/ui/button";
import { Empty, StatusBadge } from "../../components/ui/status";
import { getList } from "../../lib/api";
import { useCan } from "../../lib/me";
import { useToolList } from "./api";
import { kindLabel } from "./rules";

export default function ToolsPage() {
	const can = useCan();
	const tools = useToolList();
	const [search, setSearch] = useState("");
	const needle = search.trim().toLowerCase();
	const shown = tools.data?.filter((tool) => !needle || `${tool.name} ${tool.description ?? ""} ${kindLabel(tool.types)}`.toLowerCase().includes(needle));
	return (
		<ListPage
			title="Tools"
			width="5xl"
			actions={can("tool.write") ? <NewButton to="/tools/new">New tool</NewButton> : null}
		>
			<p className="text-sm text-slate-600">Tools are what agents can do besides talking: read and change records, call web addresses, ask other agents.</p>
			{can("tool.mcp.write") ? <ServerList /> : null}
			<SearchBox label="Search tools" value={search} onChange={setSearch} />
			<DataList query={{ isPending: tools.isPending, error: tools.error, data: shown }} empty={<Empty title={needle ? "No tools match" : "No tools yet"}>{needle ? "Try another search." : "Create a tool, then give it to an agent in the agent's settings."}</Empty>}>
				{(rows) => (
					<LinkRows rows={rows} rowKey={(tool) => tool.name} label="Tools" to={(tool) => `/tools/${encodeURIComponent(tool.name)}`}>
						{(tool) => (
							<>
								<RowText title={tool.name} line={tool.description}>
									{tool.sync_conflict ? <p className="text-xs text-amber-700">Name conflict: {tool.sync_conflict}</p> : null}
								</RowText>
								<span className="text-xs text-slate-500">{kindLabel(tool.types)}</span>
								{tool.provider_app && tool.provider_app !== "huf" ? <span className="text-xs text-slate-500">From the app {tool.provider_app}</span> : null}
								{tool.is_builtin ? <StatusBadge status="Built in" /> : null}
							</>
						)}
					</LinkRows>
				)}
			</DataList>
		</ListPage>
	);
}

type ServerRow = { name: string; description: string | null; enabled: 0 | 1; transport_type: string; server_url: string | null; last_sync: string | null };

/** Tool servers (MCP), for those who may connect them: each one brings its own set of tools. */
function ServerList() {
	const servers = useQuery({
		queryKey: ["mcp-servers"],
		queryFn: () => getList<ServerRow>("MCP Server", { fields: ["name", "description", "enabled", "transport_type", "server_url", "last_sync"], order_by: "name asc", limit: 200 }),
	});
	return (
		<section aria-labelledby="servers-title" className="grid grid-cols-1 gap-2 rounded-lg border border-slate-200 bg-white p-4">
			<div className="flex flex-wrap items-center gap-3">
				<h2 id="servers-title" className="text-base font-semibold">Tool servers</h2>
				<Button asChild variant="outline" size="sm" className="ml-auto">
					<Link to="/tools/servers/new">
						<Plus className="h-4 w-4" aria-hidden />
						Connect a tool server
					</Link>
				</Button>
			</div>
			<p className="text-sm text-slate-600">Services that offer ready-made tools over the Model Context Protocol (MCP), e.g. GitHub or a mailbox.</p>
			<DataList query={servers} empty={<p className="text-sm text-slate-500">No tool servers connected yet.</p>}>
				{(rows) => (
					<LinkRows rows={rows} rowKey={(server) => server.name} label="Tool servers" framed={false} to={(server) => `/tools/servers/${encodeURIComponent(server.name)}`}>
						{(server) => (
							<>
								<RowText title={server.name} line={server.description || server.server_url || "A program on this server"} />
								<span className="text-xs text-slate-500">{server.last_sync ? "Tools fetched" : "Tools not fetched yet"}</span>
								<StatusBadge status={server.enabled ? "Active" : "Disabled"} />
							</>
						)}
					</LinkRows>
				)}
			</DataList>
		</section>
	);
}
