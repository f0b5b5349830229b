import { useState } from "react";
import { Input } from "../../components/ui/field";

export type ToolRow = { name: string; description: string | null; types: string | null; provider_app?: string | null; sync_conflict?: string | null };

/** The fields of Agent Tool Function the picker shows. */
export const TOOL_FIELDS = ["name", "description", "types", "provider_app", "sync_conflict"];

type ToolPickerProps = { tools: ToolRow[]; selected: string[]; error?: string | undefined; onChange: (names: string[]) => void };

/** Every tool with its description and the app it comes from; ticking one gives it to the agent.
 * A tool whose name another app's tool also wants says so (the other tool is not available). */
export function ToolPicker({ tools, selected, error, onChange }: ToolPickerProps) {
	const [search, setSearch] = useState("");
	const needle = search.trim().toLowerCase();
	const shown = tools.filter((tool) => !needle || `${tool.name} ${tool.description ?? ""}`.toLowerCase().includes(needle));
	const toggle = (name: string, on: boolean) => onChange(on ? [...selected, name] : selected.filter((n) => n !== name));
	return (
		<fieldset className="grid gap-2" aria-describedby={error ? "tool-picker-error" : undefined}>
			<legend className="sr-only">Tools</legend>
			<p className="text-sm text-slate-600">{selected.length ? `${selected.length} of ${tools.length} tools chosen.` : "The agent can only talk until you give it tools."}</p>
			<Input aria-label="Search tools" placeholder="Search tools" value={search} onChange={(e) => setSearch(e.target.value)} />
			{error ? (
				<p id="tool-picker-error" className="text-sm text-red-600">
					{error}
				</p>
			) : null}
			<ul className="grid max-h-80 gap-1 overflow-y-auto">
				{shown.map((tool) => (
					<li key={tool.name}>
						<label className="flex cursor-pointer items-start gap-2 rounded-md p-2 hover:bg-slate-50">
							<input type="checkbox" className="mt-1 h-4 w-4 accent-blue-600" checked={selected.includes(tool.name)} onChange={(e) => toggle(tool.name, e.target.checked)} />
							<span>
								<span className="block text-sm font-medium">{tool.name}</span>
								<span className="block text-xs text-slate-600">{tool.description || tool.types}</span>
								{tool.provider_app && tool.provider_app !== "huf" ? <span className="block text-xs text-slate-500">From the app {tool.provider_app}</span> : null}
								{tool.sync_conflict ? <span className="block text-xs text-amber-700">Name conflict: {tool.sync_conflict}</span> : null}
							</span>
						</label>
					</li>
				))}
				{!shown.length ? <li className="p-2 text-sm text-slate-500">No tools match.</li> : null}
			</ul>
		</fieldset>
	);
}
