// The site's agents and tools, for the pickers of the step settings. The list of tools and the
// people and roles searches are the Tools area's (tools/api.ts); a tool's inputs are rows of its
// record that lists can't return, so the chosen tool is read whole.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { getList } from "../../../lib/api";
import { useToolDoc } from "../../tools/api";
import { toolFromDoc } from "../../tools/rules";
import type { Known } from "./checks";

const LIMIT = 1000;

export type AgentChoice = { name: string; disabled: 0 | 1 };

/** Every agent, those that are on first (then by name). Under "agents", so saving an agent refreshes it. */
export function useAgents(enabled = true) {
	return useQuery({
		enabled,
		queryKey: ["agents", "choices"],
		queryFn: () => getList<AgentChoice>("Agent", { fields: ["name", "disabled"], order_by: "disabled asc, name asc", limit: LIMIT }),
	});
}

/** The chosen tool: whether it asks a person first, and the inputs it takes (its rows, and the
 * definition the server derived from them or from its record type: settings/toolInputs.ts). */
export function useTool(name: string) {
	const doc = useToolDoc(name, Boolean(name));
	return { tool: doc.data ? toolFromDoc(doc.data) : undefined, definition: doc.data?.function_definition, loading: doc.isLoading, error: doc.error };
}

/** What the live check may name: the agents and tools on this site (null until they are loaded, or
 * when this person may not list them; the server checks again when the flow is saved). Asked for
 * once `enabled`: the builder asks after the canvas is first drawn. */
export function useKnown(enabled: boolean): Known {
	const agents = useAgents(enabled);
	const tools = useQuery({
		enabled,
		queryKey: ["tool-list", "asks-first"],
		queryFn: () => getList<{ name: string; requires_approval: 0 | 1 }>("Agent Tool Function", { fields: ["name", "requires_approval"], limit: LIMIT }),
	});
	const agentNames = agents.data;
	const toolRows = tools.data;
	return useMemo(
		() => ({
			// a list cut at its limit may leave out the one named: then only the server judges
			agents: agentNames && agentNames.length < LIMIT ? new Set(agentNames.map((row) => row.name)) : null,
			tools: toolRows && toolRows.length < LIMIT ? new Map(toolRows.map((row) => [row.name, { asksFirst: Boolean(row.requires_approval) }])) : null,
		}),
		[agentNames, toolRows],
	);
}
