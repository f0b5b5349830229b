import { describe, expect, it } from "vitest";
import { emptySource, sourceDoc, validateSource, type SourceDraft } from "./validation";

const draft = (changes: Partial<SourceDraft> = {}): SourceDraft => ({ ...emptySource(), source_name: "Handbook", ...changes });

describe("validateSource", () => {
	it("accepts a keyword source with nothing else set", () => {
		expect(validateSource(draft())).toEqual({});
	});

	it("asks meaning search for a provider, a model and the numbers per text", () => {
		const errors = validateSource(draft({ knowledge_type: "sqlite_vec" }));
		expect(Object.keys(errors).sort()).toEqual(["embedding_model", "embedding_provider", "vector_dimension"]);
		expect(validateSource(draft({ knowledge_type: "chroma", embedding_provider: "Ollama", embedding_model: "nomic-embed-text", vector_dimension: 768 }))).toEqual({});
	});

	it("checks passage sizes and a Chroma server's address", () => {
		expect(validateSource(draft({ chunk_size: 20 })).chunk_size).toMatch(/at least 50/);
		expect(validateSource(draft({ chunk_overlap: 512 })).chunk_overlap).toMatch(/less than the passage size/);
		const server = draft({ knowledge_type: "chroma", embedding_provider: "P", embedding_model: "m", vector_dimension: 8, chroma_mode: "Server", chroma_host: " ", chroma_port: 70000 });
		expect(Object.keys(validateSource(server)).sort()).toEqual(["chroma_host", "chroma_port"]);
		expect(validateSource(draft({ source_name: "a/b" })).source_name).toMatch(/can't contain/);
	});
});

describe("sourceDoc", () => {
	it("sends only the fields the chosen search uses", () => {
		expect(sourceDoc(draft({ embedding_model: "ignored" }))).not.toHaveProperty("embedding_model");
		const vec = sourceDoc(draft({ knowledge_type: "sqlite_vec", embedding_provider: "Ollama", embedding_model: " nomic-embed-text ", vector_dimension: 768 }));
		expect(vec).toMatchObject({ knowledge_type: "sqlite_vec", embedding_model: "nomic-embed-text", vector_dimension: 768 });
		expect(vec).not.toHaveProperty("chroma_mode");
		expect(sourceDoc(draft({ knowledge_type: "chroma", chroma_mode: "Server", chroma_host: "chroma.internal" }))).toMatchObject({ chroma_host: "chroma.internal", chroma_port: 8000 });
	});
});
