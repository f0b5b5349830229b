// The new-source form's rules, the same ones the server enforces
// (huf/huf/doctype/knowledge_source/knowledge_source.py); the server still checks everything.
import { isWhole, NAME_CHARACTERS, NAME_PATTERN, type FieldErrors } from "../../lib/rules";
import type { SearchKind } from "./api";

export type SourceDraft = {
	source_name: string;
	description: string;
	knowledge_type: SearchKind;
	chunk_size: number;
	chunk_overlap: number;
	embedding_provider: string;
	embedding_model: string;
	vector_dimension: number;
	chroma_mode: "File" | "Server";
	chroma_host: string;
	chroma_port: number;
	chroma_ssl: 0 | 1;
};

export function emptySource(): SourceDraft {
	return {
		source_name: "", description: "", knowledge_type: "sqlite_fts", chunk_size: 512, chunk_overlap: 50, embedding_provider: "",
		embedding_model: "", vector_dimension: 0, chroma_mode: "File", chroma_host: "localhost", chroma_port: 8000, chroma_ssl: 0,
	};
}

export const byMeaning = (kind: SearchKind) => kind !== "sqlite_fts";

export function validateSource(draft: SourceDraft): FieldErrors<SourceDraft> {
	const errors: FieldErrors<SourceDraft> = {};
	if (!draft.source_name.trim()) errors.source_name = "Give the source a name.";
	else if (!NAME_PATTERN.test(draft.source_name)) errors.source_name = NAME_CHARACTERS;
	if (!isWhole(draft.chunk_size, 50)) errors.chunk_size = "Use a whole number of at least 50 characters.";
	if (!(isWhole(draft.chunk_overlap, 0) && draft.chunk_overlap < draft.chunk_size))
		errors.chunk_overlap = "Use a whole number from 0 to less than the passage size.";
	if (byMeaning(draft.knowledge_type)) {
		if (!draft.embedding_provider) errors.embedding_provider = "Searching by meaning needs a provider whose model turns text into numbers.";
		if (!draft.embedding_model.trim()) errors.embedding_model = "Name the model, e.g. text-embedding-3-small or nomic-embed-text.";
		if (!isWhole(draft.vector_dimension, 1))
			errors.vector_dimension = "Enter how many numbers the model returns per text, e.g. 1536 or 768.";
	}
	if (draft.knowledge_type === "chroma" && draft.chroma_mode === "Server") {
		if (!draft.chroma_host.trim()) errors.chroma_host = "Enter the Chroma server's host name.";
		if (!isWhole(draft.chroma_port, 1, 65535)) errors.chroma_port = "Use a port from 1 to 65535.";
	}
	return errors;
}

/** What is sent: only the fields the chosen kind of search uses. */
export function sourceDoc(draft: SourceDraft): Record<string, unknown> {
	const { embedding_provider, embedding_model, vector_dimension, chroma_mode, chroma_host, chroma_port, chroma_ssl, ...common } = draft;
	return {
		...common,
		source_name: draft.source_name.trim(),
		...(byMeaning(draft.knowledge_type) ? { embedding_provider, embedding_model: embedding_model.trim(), vector_dimension } : {}),
		...(draft.knowledge_type === "chroma" ? { chroma_mode, ...(chroma_mode === "Server" ? { chroma_host, chroma_port, chroma_ssl } : {}) } : {}),
	};
}
