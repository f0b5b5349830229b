// The tool form's rules, the same ones the server enforces (huf/huf/doctype/agent_tool_function/
// agent_tool_function.py), so a mistake shows next to its field before saving; the server still checks.
import { fieldOfRefusal, isWebAddress, type FieldErrors } from "../../lib/rules";

/** Every kind of tool a person can build, grouped the way the form offers them. */
export const TOOL_KINDS: { group: string; kinds: { value: string; label: string }[] }[] = [
	{
		group: "Read records",
		kinds: [
			{ value: "Get Document", label: "Read one record" },
			{ value: "Get Multiple Documents", label: "Read several records" },
			{ value: "Get List", label: "Search a list of records" },
			{ value: "Get Value", label: "Read a value" },
			{ value: "Get Amended Document", label: "Amend a cancelled record" },
		],
	},
	{
		group: "Change records",
		kinds: [
			{ value: "Create Document", label: "Create a record" },
			{ value: "Create Multiple Documents", label: "Create several records" },
			{ value: "Update Document", label: "Change a record" },
			{ value: "Update Multiple Documents", label: "Change several records" },
			{ value: "Set Value", label: "Set a value" },
			{ value: "Delete Document", label: "Delete a record" },
			{ value: "Delete Multiple Documents", label: "Delete several records" },
			{ value: "Submit Document", label: "Submit a record" },
			{ value: "Cancel Document", label: "Cancel a record" },
			{ value: "Attach File to Document", label: "Attach a file to a record" },
		],
	},
	{
		group: "Other",
		kinds: [
			{ value: "Get Report Result", label: "Run a report" },
			{ value: "GET", label: "Call a web address (GET)" },
			{ value: "POST", label: "Send to a web address (POST)" },
			{ value: "Run Agent", label: "Ask another agent" },
			{ value: "Speech to Text", label: "Transcribe a recording" },
			{ value: "Custom Function", label: "Run a function from an app" },
			{ value: "App Provided", label: "Provided by an app" },
		],
	},
];

const LABEL_OF = new Map(TOOL_KINDS.flatMap((group) => group.kinds.map((kind) => [kind.value, kind.label] as const)));
export const kindLabel = (types: string | null) => (types ? (LABEL_OF.get(types) ?? types) : "");

const RECORD_KINDS = new Set(TOOL_KINDS.slice(0, 2).flatMap((group) => group.kinds.map((kind) => kind.value)));
/** Kinds that act on one record type; attaching a file may name one but need not. */
export const needsRecordType = (types: string) => RECORD_KINDS.has(types) && types !== "Attach File to Document";
export const takesRecordType = (types: string) => RECORD_KINDS.has(types);
export const isFunctionKind = (types: string) => types === "Custom Function" || types === "App Provided";
export const isWebKind = (types: string) => types === "GET" || types === "POST";

/** "If Huf is interrupted during this tool" (the field "If a run stops during a call"): what Huf does
 * with a call whose worker stopped before its result was saved. People read the labels; the values
 * are the DocType's options (the same on tools and on a tool server's tools). */
export type ToolEffect = "Automatic" | "Safe to repeat" | "Ask before repeating";
export const EFFECTS: { value: ToolEffect; label: string }[] = [
	{ value: "Automatic", label: "Decide for me" },
	{ value: "Safe to repeat", label: "Run it again" },
	{ value: "Ask before repeating", label: "Ask me first" },
];
export const effectOf = (value: unknown): ToolEffect => EFFECTS.find((choice) => choice.value === value)?.value ?? "Automatic";
const ASKS_AGAIN = "Huf asks you whether to retry, skip or stop.";
const REPEATS = "Huf runs it again. Choose this only when doing it twice does no harm.";

/** What "Decide for me" does for each kind, as the server decides it (huf/ai/tools/effects.py). */
const READS = new Set(["Get Document", "Get Multiple Documents", "Get List", "Get Value", "Get Report Result", "GET", "Speech to Text"]);
function automaticEffect(types: string): string {
	if (READS.has(types)) return "It only reads, so Huf runs it again.";
	if (takesRecordType(types)) return "Changes to your records are undone and the tool runs again.";
	return ASKS_AGAIN;
}

/** The line under the choice: what happens with it, ``automatic`` being what "Decide for me" does. */
export function effectHint(effect: ToolEffect, automatic: string): string {
	if (effect === "Automatic") return automatic;
	return effect === "Ask before repeating" ? ASKS_AGAIN : REPEATS;
}

export function toolEffectHint(types: string, effect: ToolEffect): string {
	if (types === "POST" && effect === "Safe to repeat") return `${REPEATS} Huf sends the same Idempotency-Key header again, so a service that honours it acts only once.`;
	return effectHint(effect, automaticEffect(types));
}

/** A saved secret comes back from the server masked ("*****"); it is never shown, only kept or replaced. */
export const isMasked = (value: string | null | undefined) => Boolean(value) && /^\*+$/.test(value ?? "");

export type HeaderRow = { name?: string; key: string; value: string };
export type ParamRow = { name?: string; fieldname: string; label: string; type: string; required: 0 | 1; description: string };

export type ToolDraft = {
	tool_name: string;
	types: string;
	description: string;
	reference_doctype: string;
	function_path: string;
	pass_parameters_as_json: 0 | 1;
	requires_approval: 0 | 1;
	effect: ToolEffect;
	provider_app: string;
	agent: string;
	base_url: string;
	http_headers: HeaderRow[];
	parameters: ParamRow[];
	modified?: string;
};

export const PARAM_TYPES = ["string", "integer", "number", "boolean", "array", "object"];

export function emptyTool(): ToolDraft {
	return { tool_name: "", types: "Get Document", description: "", reference_doctype: "", function_path: "", pass_parameters_as_json: 0, requires_approval: 0, effect: "Automatic", provider_app: "", agent: "", base_url: "", http_headers: [], parameters: [] };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function toolFromDoc(doc: Record<string, unknown>): ToolDraft {
	const rows = (key: string) => ((doc[key] as Record<string, unknown>[] | undefined) ?? []);
	return {
		tool_name: text(doc.tool_name),
		types: text(doc.types),
		description: text(doc.description),
		reference_doctype: text(doc.reference_doctype),
		function_path: text(doc.function_path),
		pass_parameters_as_json: doc.pass_parameters_as_json ? 1 : 0,
		requires_approval: doc.requires_approval ? 1 : 0,
		effect: effectOf(doc.effect),
		provider_app: text(doc.provider_app),
		agent: text(doc.agent),
		base_url: text(doc.base_url),
		http_headers: rows("http_headers").map((row) => ({ name: text(row.name), key: text(row.key), value: text(row.value) })),
		parameters: rows("parameters").map((row) => ({ name: text(row.name), fieldname: text(row.fieldname), label: text(row.label), type: text(row.type) || "string", required: row.required ? 1 : 0, description: text(row.description) })),
		modified: text(doc.modified),
	};
}

/** What is saved: the fields the tool's kind uses, and the rest emptied so nothing stale stays behind. */
export function toolToDoc(draft: ToolDraft): Record<string, unknown> {
	const { types } = draft;
	return {
		tool_name: draft.tool_name.trim(),
		types,
		description: draft.description,
		reference_doctype: takesRecordType(types) ? draft.reference_doctype : "",
		function_path: isFunctionKind(types) ? draft.function_path.trim() : "",
		pass_parameters_as_json: types === "Custom Function" ? draft.pass_parameters_as_json : 0,
		requires_approval: draft.requires_approval,
		effect: draft.effect,
		provider_app: types === "App Provided" ? draft.provider_app.trim() : "",
		agent: types === "Run Agent" ? draft.agent : "",
		base_url: isWebKind(types) ? draft.base_url.trim() : "",
		http_headers: isWebKind(types) ? draft.http_headers.map((row) => ({ ...(row.name ? { name: row.name } : {}), key: row.key.trim(), value: row.value })) : [],
		parameters: draft.parameters.map((row) => ({ ...row, fieldname: row.fieldname.trim() })),
		...(draft.modified ? { modified: draft.modified } : {}),
	};
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const PARAMETER_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADERS_SET_BY_HUF = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export function validateTool(draft: ToolDraft): FieldErrors<ToolDraft> {
	const errors: FieldErrors<ToolDraft> = {};
	if (!TOOL_NAME.test(draft.tool_name.trim())) errors.tool_name = "Use letters, digits, _ and - only, at most 64 characters, e.g. get_sales_order.";
	if (!draft.description.trim()) errors.description = "Say what the tool does and when to use it: the agent reads this to decide.";
	if (needsRecordType(draft.types) && !draft.reference_doctype.trim()) errors.reference_doctype = "Choose the kind of record this tool works on.";
	if (isFunctionKind(draft.types) && !draft.function_path.trim()) errors.function_path = "Enter the function to call, e.g. my_app.api.get_stock_level.";
	if (draft.types === "App Provided" && !draft.provider_app.trim()) errors.provider_app = "Enter the app whose function this tool calls.";
	if (draft.types === "Run Agent" && !draft.agent) errors.agent = "Choose the agent this tool asks.";
	if (isWebKind(draft.types)) {
		const base = draft.base_url.trim();
		if (base && !isWebAddress(base)) errors.base_url = "Start the address with https:// (or http://), e.g. https://api.example.com/v1.";
		const headers = headerProblem(draft.http_headers, Boolean(base));
		if (headers) errors.http_headers = headers;
	}
	const parameters = parameterProblem(draft.parameters);
	if (parameters) errors.parameters = parameters;
	return errors;
}

function headerProblem(rows: HeaderRow[], hasBase: boolean): string | null {
	if (rows.length && !hasBase) return "Headers are sent only to the base address, so that the agent can't send them anywhere else. Enter a base address, or remove the headers.";
	const seen = new Set<string>();
	for (const [index, row] of rows.entries()) {
		const key = row.key.trim();
		const where = `Header ${index + 1}`;
		if (!HEADER_NAME.test(key)) return `${where}: "${key}" is not a valid header name.`;
		if (seen.has(key.toLowerCase())) return `${where}: ${key} is listed twice.`;
		if (HEADERS_SET_BY_HUF.has(key.toLowerCase())) return `${where}: ${key} is set by Huf itself; remove it.`;
		if (!row.value) return `${where}: enter the value of ${key}.`;
		seen.add(key.toLowerCase());
	}
	return null;
}

function parameterProblem(rows: ParamRow[]): string | null {
	const seen = new Set<string>();
	for (const [index, row] of rows.entries()) {
		const name = row.fieldname.trim();
		const where = `Input ${index + 1}`;
		if (!PARAMETER_NAME.test(name)) return `${where}: "${name}" can't be an input name. Use letters, digits and _ only, not starting with a digit.`;
		if (seen.has(name)) return `${where}: ${name} is listed twice.`;
		seen.add(name);
	}
	return null;
}

// The server's refusals, by their title, belong next to these fields.
export const toolFieldOfServerError = fieldOfRefusal<keyof ToolDraft>(
	{
		"Invalid Tool Name": "tool_name",
		"Missing Reference DocType": "reference_doctype",
		"Missing Function Path": "function_path",
		"Missing Provider App": "provider_app",
		"Function Not Allowed": "function_path",
		"Missing Agent": "agent",
		"Invalid URL": "base_url",
		"Server Not Found": "base_url",
		"Address Not Allowed": "base_url",
		"Base URL Needed": "http_headers",
		"Invalid Header": "http_headers",
		"Duplicate Header": "http_headers",
		"Missing Value": "http_headers",
		"Invalid Parameter": "parameters",
		"Duplicate Parameter": "parameters",
	},
	"tool_name",
);
