// What the Tools area reads and calls on the site.
import { useQuery } from "@tanstack/react-query";
import { call, getDoc, getList } from "../../lib/api";

export type ToolListRow = { name: string; description: string | null; types: string | null; provider_app: string | null; is_builtin: 0 | 1; sync_conflict: string | null; modified: string };

export function useToolList() {
	return useQuery({
		queryKey: ["tool-list"],
		queryFn: () => getList<ToolListRow>("Agent Tool Function", { fields: ["name", "description", "types", "provider_app", "is_builtin", "sync_conflict", "modified"], order_by: "name asc", limit: 1000 }),
	});
}

export function useToolDoc(name: string, enabled: boolean) {
	return useQuery({ queryKey: ["tool", name], queryFn: () => getDoc<Record<string, unknown>>("Agent Tool Function", name), enabled });
}

/** Names for a picker (record types, agents, people, roles), searched as the person types. */
export function useSuggestions(doctype: "DocType" | "Agent" | "User" | "Role", text: string) {
	return useQuery({
		queryKey: ["search", doctype, text],
		queryFn: () => call<{ value: string; description?: string }[]>("frappe.desk.search.search_link", { doctype, txt: text, page_length: 10, ...(doctype === "DocType" ? { filters: { istable: 0 } } : {}) }),
		staleTime: 60_000,
	});
}

/** The answer of "Try this request": what the agent would read. */
export type TryAnswer = { success: boolean; status_code: number | null; headers: Record<string, string>; data: unknown; final_url: string | null; error?: string };

export type TryRequest = { url: string; params: string; body: string; body_format: "json" | "form" };

export function tryRequest(tool: string, request: TryRequest, post: boolean): Promise<TryAnswer> {
	return call<TryAnswer>(
		"huf.ai.http_handler.handle_http_request",
		{ tool, url: request.url, params: request.params, body: post ? request.body : "", body_format: post ? request.body_format : "" },
		true,
	);
}
