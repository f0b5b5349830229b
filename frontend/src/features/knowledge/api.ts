import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call, deleteDoc, saveDoc } from "../../lib/api";
import { subscribeDoc } from "../../lib/realtime";

const API = "huf.ai.knowledge.api.";

export type SearchKind = "sqlite_fts" | "sqlite_vec" | "chroma";
export type SourceRow = {
	name: string;
	source_name: string;
	description: string | null;
	knowledge_type: SearchKind;
	status: string;
	total_inputs: number;
	indexed_inputs: number;
	failed_inputs: number;
	chunk_count: number;
	last_indexed: string | null;
	last_error: string | null;
};
export type InputRow = {
	name: string;
	input_type: "File" | "Text" | "URL";
	title: string;
	status: "Pending" | "Indexing" | "Indexed" | "Error";
	error: string | null;
	chunk_count: number;
	duplicate_of: string | null;
	url: string | null;
	creation: string;
};
export type SourceDetail = SourceRow & { inputs: InputRow[]; can_write: boolean };
export type Progress = {
	source: string;
	status: string;
	total_inputs: number;
	indexed_inputs: number;
	failed_inputs: number;
	chunk_count: number;
	last_error: string | null;
	rebuilt_inputs?: number;
};
export type SearchResult = { source: string; input: string; title: string; where: string; text: string; score: number };
export type AddedInput = InputRow & { already_there?: boolean };

export const BUSY = ["Pending", "Indexing", "Rebuilding"];

export const KIND_LABELS: Record<SearchKind, string> = {
	sqlite_fts: "Keyword search",
	sqlite_vec: "Meaning search (built in)",
	chroma: "Meaning search (Chroma)",
};

export const useSources = () =>
	useQuery({
		queryKey: ["knowledge"],
		queryFn: () => call<SourceRow[]>(`${API}get_sources`),
		refetchInterval: (query) => (query.state.data?.some((row) => BUSY.includes(row.status)) ? 2000 : false),
	});

export const useSource = (source: string) =>
	useQuery({ queryKey: ["knowledge", source], queryFn: () => call<SourceDetail>(`${API}get_source`, { source }) });

/** The source's indexing progress: pushed by the server as it indexes, polled every 2 s while busy
 * in case live updates can't reach this browser. When indexing ends, the source is read again. */
export function useProgress(source: string) {
	const queryClient = useQueryClient();
	const progress = useQuery({
		queryKey: ["knowledge-progress", source],
		queryFn: () => call<Progress>(`${API}get_index_status`, { source }),
		refetchInterval: (query) => (BUSY.includes(query.state.data?.status ?? "") ? 2000 : false),
	});
	useEffect(
		() =>
			subscribeDoc("Knowledge Source", source, "knowledge_index_progress", (data) => {
				if (data.source === source) queryClient.setQueryData(["knowledge-progress", source], data as Progress);
			}),
		[queryClient, source],
	);
	const status = progress.data?.status;
	useEffect(() => {
		if (status && !BUSY.includes(status)) void queryClient.invalidateQueries({ queryKey: ["knowledge"] });
	}, [queryClient, status]);
	return progress;
}

export const addInput = (source: string, values: { input_type: InputRow["input_type"]; text?: string; url?: string; file_url?: string; title?: string }) =>
	call<AddedInput>(`${API}add_input`, { source, ...values }, true);

export const rebuildIndex = (source: string) => call<{ status: string }>(`${API}rebuild_index`, { source }, true);

export const testSearch = (source: string, query: string) => call<{ results: SearchResult[] }>(`${API}test_search`, { source, query, limit: 5 });

export const deleteInput = (name: string) => deleteDoc("Knowledge Input", name);

export const createSource = (doc: Record<string, unknown>) => saveDoc<{ name: string }>("Knowledge Source", doc);
