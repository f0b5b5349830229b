// The site's agents and tools, for the pickers of the step settings. The list of tools and the
// people and roles searches are the Tools area's (tools/api.ts); a tool's inputs are rows of its
// record that lists can't return, so the chosen tool is read whole.
import { useQuery } from "@tanstack/react-query";
import { getList } from "../../../lib/api";
import { useToolDoc } from "../../tools/api";
import { toolFromDoc } from "../../tools/rules";

export type AgentChoice = { name: string; disabled: 0 | 1 };

/** Every agent, those that are on first (then by name). Under "agents", so saving an agent refreshes it. */
export function useAgents() {
	return useQuery({
		queryKey: ["agents", "choices"],
		queryFn: () => getList<AgentChoice>("Agent", { fields: ["name", "disabled"], order_by: "disabled asc, name asc", limit: 1000 }),
	});
}

/** The chosen tool: whether it asks a person first, and the inputs it takes. */
export function useTool(name: string) {
	const doc = useToolDoc(name, Boolean(name));
	return { tool: doc.data ? toolFromDoc(doc.data) : undefined, loading: doc.isLoading, error: doc.error };
}
