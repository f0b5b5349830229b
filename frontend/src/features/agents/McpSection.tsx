import { useQuery } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Checkbox, Field, Select } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { getList } from "../../lib/api";
import type { McpBinding } from "./validation";

type Props = { rows: McpBinding[]; error: string | undefined; onChange: (rows: McpBinding[]) => void };

/** The tool servers (MCP) whose switched-on tools this agent may use, with how many tools each brings. */
export function McpSection({ rows, error, onChange }: Props) {
	const servers = useQuery({
		queryKey: ["mcp-servers", "names"],
		queryFn: () => getList<{ name: string; enabled: 0 | 1 }>("MCP Server", { fields: ["name", "enabled"], order_by: "name asc", limit: 500 }),
	});
	if (servers.isPending) return <Loading label="Loading tool servers…" />;
	if (servers.error) return <ErrorNote error={servers.error} />;
	const update = (index: number, change: Partial<McpBinding>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
	const taken = new Set(rows.map((row) => row.mcp_server));
	return (
		<div className="grid gap-3">
			{rows.map((row, index) => (
				<fieldset key={index} className="grid items-end gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_auto_auto_auto]">
					<legend className="sr-only">Tool server {index + 1}</legend>
					<Field label="Server">
						{(props) => (
							<Select value={row.mcp_server} onChange={(e) => update(index, { mcp_server: e.target.value, tool_count: null })} {...props}>
								<option value="">Choose a server…</option>
								{servers.data.filter((s) => s.name === row.mcp_server || !taken.has(s.name)).map((s) => (
									<option key={s.name} value={s.name}>{s.enabled ? s.name : `${s.name} (switched off)`}</option>
								))}
							</Select>
						)}
					</Field>
					<span className="pb-2 text-sm text-slate-600">{row.tool_count === null ? "Tools counted on save" : `${row.tool_count} tool${row.tool_count === 1 ? "" : "s"}`}</span>
					<div className="pb-2"><Checkbox label="On" aria-label={`Use ${row.mcp_server || `server ${index + 1}`}`} checked={Boolean(row.enabled)} onChange={(e) => update(index, { enabled: e.target.checked ? 1 : 0 })} /></div>
					<Button variant="ghost" size="icon" aria-label={`Remove tool server ${row.mcp_server || index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
						<Trash2 className="h-4 w-4" aria-hidden />
					</Button>
				</fieldset>
			))}
			{error ? <p className="text-sm text-red-600" role="alert">{error}</p> : null}
			<Button variant="outline" size="sm" className="justify-self-start" disabled={servers.data.length <= rows.length} onClick={() => onChange([...rows, { mcp_server: "", enabled: 1, tool_count: null }])}>
				<Plus className="h-4 w-4" aria-hidden /> Add a tool server
			</Button>
			{!servers.data.length ? (
				<p className="text-sm text-slate-600">
					No tool servers are connected yet. <Link className="text-blue-700 underline" to="/tools/servers/new">Connect one</Link>.
				</p>
			) : null}
		</div>
	);
}
