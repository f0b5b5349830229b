import { useQuery } from "@tanstack/react-query";
import { Plus, Search } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/field";
import { Empty, ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { getList } from "../../lib/api";
import { useCan } from "../../lib/me";
import { useToolList } from "./api";
import { kindLabel } from "./rules";

const rowLink = "flex flex-wrap items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500";

export default function ToolsPage() {
	const can = useCan();
	const tools = useToolList();
	const [search, setSearch] = useState("");
	const needle = search.trim().toLowerCase();
	const shown = (tools.data ?? []).filter((tool) => !needle || `${tool.name} ${tool.description ?? ""} ${kindLabel(tool.types)}`.toLowerCase().includes(needle));
	return (
		<div className="mx-auto grid max-w-5xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">Tools</h1>
				{can("tool.write") ? (
					<Button asChild className="ml-auto">
						<Link to="/tools/new">
							<Plus className="h-4 w-4" aria-hidden />
							New tool
						</Link>
					</Button>
				) : null}
			</header>
			<p className="text-sm text-slate-600">Tools are what agents can do besides talking: read and change records, call web addresses, ask other agents.</p>
			{can("tool.mcp.write") ? <ServerList /> : null}
			<div className="relative">
				<Search className="absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" aria-hidden />
				<Input aria-label="Search tools" placeholder="Search tools" className="pl-8" value={search} onChange={(e) => setSearch(e.target.value)} />
			</div>
			{tools.isPending ? <Loading /> : null}
			{tools.isError ? <ErrorNote error={tools.error} /> : null}
			{tools.data && !shown.length ? <Empty title={needle ? "No tools match" : "No tools yet"}>{needle ? "Try another search." : "Create a tool, then give it to an agent in the agent's settings."}</Empty> : null}
			{shown.length ? (
				<ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Tools">
					{shown.map((tool) => (
						<li key={tool.name}>
							<Link to={`/tools/${encodeURIComponent(tool.name)}`} className={rowLink}>
								<div className="min-w-0 flex-1">
									<p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{tool.name}</p>
									<p className="truncate text-sm text-slate-600">{tool.description}</p>
									{tool.sync_conflict ? <p className="text-xs text-amber-700">Name conflict: {tool.sync_conflict}</p> : null}
								</div>
								<span className="text-xs text-slate-500">{kindLabel(tool.types)}</span>
								{tool.provider_app && tool.provider_app !== "huf" ? <span className="text-xs text-slate-500">From the app {tool.provider_app}</span> : null}
								{tool.is_builtin ? <StatusBadge status="Built in" /> : null}
							</Link>
						</li>
					))}
				</ul>
			) : null}
		</div>
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
			{servers.isPending ? <Loading /> : null}
			{servers.isError ? <ErrorNote error={servers.error} /> : null}
			{servers.data?.length ? (
				<ul className="divide-y divide-slate-200" aria-label="Tool servers">
					{servers.data.map((server) => (
						<li key={server.name}>
							<Link to={`/tools/servers/${encodeURIComponent(server.name)}`} className={rowLink}>
								<div className="min-w-0 flex-1">
									<p className="font-medium [overflow-wrap:anywhere]">{server.name}</p>
									<p className="truncate text-sm text-slate-600">{server.description || server.server_url || "A program on this server"}</p>
								</div>
								<span className="text-xs text-slate-500">{server.last_sync ? "Tools fetched" : "Tools not fetched yet"}</span>
								<StatusBadge status={server.enabled ? "Active" : "Disabled"} />
							</Link>
						</li>
					))}
				</ul>
			) : null}
			{servers.data && !servers.data.length ? <p className="text-sm text-slate-500">No tool servers connected yet.</p> : null}
		</section>
	);
}
