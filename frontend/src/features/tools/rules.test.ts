import { describe, expect, it } from "vitest";
import { emptyTool, kindLabel, toolEffectHint, toolFieldOfServerError, toolFromDoc, toolToDoc, validateTool, type ToolDraft } from "./rules";

const tool = (changes: Partial<ToolDraft> = {}): ToolDraft => ({ ...emptyTool(), tool_name: "get_order", description: "Reads an order.", reference_doctype: "Sales Order", ...changes });

describe("tool rules", () => {
	it("asks each kind for what it needs, as the server does", () => {
		expect(validateTool(tool())).toEqual({});
		expect(validateTool(tool({ reference_doctype: "" })).reference_doctype).toMatch(/kind of record/);
		expect(validateTool(tool({ types: "Attach File to Document", reference_doctype: "" }))).toEqual({});
		expect(validateTool(tool({ types: "Custom Function" })).function_path).toMatch(/function to call/);
		expect(validateTool(tool({ types: "App Provided", function_path: "app.api.f" })).provider_app).toMatch(/app whose function/);
		expect(validateTool(tool({ types: "Run Agent" })).agent).toMatch(/agent this tool asks/);
		expect(validateTool(tool({ types: "GET" }))).toEqual({});
		expect(validateTool(tool({ tool_name: "get order" })).tool_name).toMatch(/letters, digits/);
		expect(validateTool(tool({ description: " " })).description).toBeDefined();
	});

	it("keeps headers to a base address, with valid and unique names", () => {
		const header = { key: "Authorization", value: "Bearer x" };
		expect(validateTool(tool({ types: "GET", http_headers: [header] })).http_headers).toMatch(/base address/);
		const web = (changes: Partial<ToolDraft>) => validateTool(tool({ types: "POST", base_url: "https://api.example.com", ...changes }));
		expect(web({ http_headers: [header] })).toEqual({});
		expect(web({ http_headers: [header, { key: "authorization", value: "y" }] }).http_headers).toMatch(/listed twice/);
		expect(web({ http_headers: [{ key: "Host", value: "x" }] }).http_headers).toMatch(/set by Huf/);
		expect(web({ http_headers: [{ key: "Bad Name", value: "x" }] }).http_headers).toMatch(/not a valid header name/);
		expect(web({ http_headers: [{ key: "X-Key", value: "" }] }).http_headers).toMatch(/enter the value/);
		expect(web({ base_url: "api.example.com" }).base_url).toMatch(/https:\/\//);
	});

	it("refuses input names a model can't use", () => {
		const param = { fieldname: "2nd", label: "", type: "string", required: 0 as const, description: "" };
		expect(validateTool(tool({ parameters: [param] })).parameters).toMatch(/can't be an input name/);
		expect(validateTool(tool({ parameters: [{ ...param, fieldname: "a" }, { ...param, fieldname: "a" }] })).parameters).toMatch(/twice/);
	});

	it("saves only the fields of the chosen kind and keeps a saved secret by sending its mask back", () => {
		const loaded = toolFromDoc({ tool_name: "api", types: "GET", description: "d", base_url: "https://api.example.com", reference_doctype: "Sales Order", http_headers: [{ name: "h1", key: "X-Key", value: "*****" }], modified: "m" });
		const doc = toolToDoc(loaded);
		expect(doc.reference_doctype).toBe("");
		expect(doc.http_headers).toEqual([{ name: "h1", key: "X-Key", value: "*****" }]);
		expect(toolToDoc({ ...loaded, types: "Get Document" }).http_headers).toEqual([]);
	});

	it("keeps the choice for interruptions with any kind, as one of the DocType's values", () => {
		expect(toolFromDoc({ tool_name: "t", types: "POST" }).effect).toBe("Automatic");
		expect(toolFromDoc({ tool_name: "t", types: "POST", effect: "Safe to repeat" }).effect).toBe("Safe to repeat");
		expect(toolFromDoc({ tool_name: "t", types: "POST", effect: "Run it again" }).effect).toBe("Automatic");
		expect(toolToDoc(tool({ types: "Run Agent", agent: "Sales", effect: "Ask before repeating" })).effect).toBe("Ask before repeating");
	});

	it("says what Decide for me does for each kind, as the server decides it", () => {
		expect(toolEffectHint("Get List", "Automatic")).toMatch(/only reads/);
		expect(toolEffectHint("Get Report Result", "Automatic")).toMatch(/only reads/);
		expect(toolEffectHint("Speech to Text", "Automatic")).toMatch(/only reads/); // REPEATABLE on the server (effects.py)
		expect(toolEffectHint("Delete Document", "Automatic")).toMatch(/undone and the tool runs again/);
		expect(toolEffectHint("Attach File to Document", "Automatic")).toMatch(/undone and the tool runs again/);
		for (const types of ["POST", "Custom Function", "App Provided", "Run Agent"]) expect(toolEffectHint(types, "Automatic")).toMatch(/asks you whether to retry, skip or stop/);
		expect(toolEffectHint("GET", "Ask before repeating")).toMatch(/asks you/);
		expect(toolEffectHint("Custom Function", "Safe to repeat")).toMatch(/runs it again/);
		expect(toolEffectHint("Custom Function", "Safe to repeat")).not.toMatch(/Idempotency-Key/);
	});

	it("puts the server's refusals next to their fields", () => {
		expect(toolFieldOfServerError("Invalid Tool Name", "ValidationError")).toBe("tool_name");
		expect(toolFieldOfServerError("Function Not Allowed", "FunctionNotAllowed")).toBe("function_path");
		expect(toolFieldOfServerError("Address Not Allowed", "ValidationError")).toBe("base_url");
		expect(toolFieldOfServerError("", "DuplicateEntryError")).toBe("tool_name");
		expect(toolFieldOfServerError("Something else", "")).toBeNull();
	});
});

describe("Speech to Text tools", () => {
	it("are offered as a kind of their own, saved without a record type", () => {
		expect(kindLabel("Speech to Text")).toBe("Transcribe a recording");
		const saved = toolToDoc({ ...emptyTool(), tool_name: "listen", types: "Speech to Text", description: "Transcribe a voice note", reference_doctype: "ToDo" });
		expect(saved.types).toBe("Speech to Text");
		expect(saved.reference_doctype).toBe("");
		expect(validateTool({ ...emptyTool(), tool_name: "listen", types: "Speech to Text", description: "Transcribe a voice note" })).toEqual({});
	});
});
