// MCP servers ("connected tool servers" to people): the form's rules, mirroring the MCP Server
// DocType, and the site's methods for testing, syncing and signing in.
import { call } from "../../lib/api";
import { fieldOfRefusal, isWebAddress, isWhole, NAME_CHARACTERS, NAME_PATTERN, type FieldErrors } from "../../lib/rules";
import type { SecretRow } from "./RowsEditors";
import { effectHint, effectOf, type ToolEffect } from "./rules";

/** One of the server's tools: the person's switches (on, ask first, if interrupted) and the server's
 * hints as of the last sync (read-only, idempotent), which "Decide for me" follows. */
export type ServerTool = { name?: string; tool_name: string; enabled: 0 | 1; requires_approval: 0 | 1; effect: ToolEffect; read_only_hint: 0 | 1; idempotent_hint: 0 | 1; namespaced_name: string; description: string; [field: string]: unknown };

/** The line under a server tool's "If Huf is interrupted" choice; "Decide for me" follows the
 * server's hints (huf/ai/engine/effects.py mcp_effect). */
export function serverToolEffectHint(tool: ServerTool): string {
	const safe = Boolean(tool.read_only_hint || tool.idempotent_hint);
	if (!safe) return effectHint(tool.effect, "The server doesn't say this tool is safe to repeat, so Huf asks you whether to retry, skip or stop.");
	const said = "The server says this tool is safe to repeat";
	return tool.effect === "Automatic" ? `${said}, so Huf runs it again.` : `${said}. ${effectHint(tool.effect, "")}`;
}

export type McpDraft = {
	server_name: string;
	description: string;
	enabled: 0 | 1;
	transport_type: "http" | "sse" | "stdio";
	server_url: string;
	command: string;
	command_args: string;
	environment: SecretRow[];
	auth_type: "none" | "api_key" | "bearer_token" | "custom_header" | "oauth";
	auth_header_name: string;
	auth_header_value: string;
	custom_headers: SecretRow[];
	oauth_scope: string;
	oauth_client_id: string;
	oauth_client_secret: string;
	oauth_authorization_endpoint: string;
	oauth_token_endpoint: string;
	oauth_extra_authorize_params: string;
	oauth_redirect_uri: string;
	oauth_token_response_path: string;
	timeout_seconds: number;
	enable_auto_sync: 0 | 1;
	auto_sync_interval: number;
	tools: ServerTool[];
	oauth_status: string;
	last_sync: string;
	modified?: string;
};

export const CONNECTIONS: { value: McpDraft["transport_type"]; label: string }[] = [
	{ value: "http", label: "Over the web (streaming HTTP)" },
	{ value: "sse", label: "Over the web (server-sent events)" },
	{ value: "stdio", label: "A program on this server" },
];

export const SIGN_INS: { value: McpDraft["auth_type"]; label: string }[] = [
	{ value: "none", label: "No sign-in" },
	{ value: "api_key", label: "An API key" },
	{ value: "bearer_token", label: "A bearer token" },
	{ value: "custom_header", label: "A key in a header I name" },
	{ value: "oauth", label: "Sign in with the service (OAuth)" },
];

/** The advanced sign-in settings: plain text fields, saved as typed (the client secret is apart). */
const OAUTH_TEXT = ["oauth_scope", "oauth_client_id", "oauth_authorization_endpoint", "oauth_token_endpoint", "oauth_extra_authorize_params", "oauth_redirect_uri", "oauth_token_response_path"] as const;
export type OAuthText = (typeof OAUTH_TEXT)[number];
const oauthText = (value: (field: OAuthText) => string) => Object.fromEntries(OAUTH_TEXT.map((field) => [field, value(field)])) as Record<OAuthText, string>;

export function emptyServer(): McpDraft {
	return { server_name: "", description: "", enabled: 1, transport_type: "http", server_url: "", command: "", command_args: "", environment: [], auth_type: "none", auth_header_name: "", auth_header_value: "", custom_headers: [], ...oauthText(() => ""), oauth_client_secret: "", timeout_seconds: 30, enable_auto_sync: 0, auto_sync_interval: 24, tools: [], oauth_status: "Not Connected", last_sync: "" };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function serverFromDoc(doc: Record<string, unknown>): McpDraft {
	const empty = emptyServer();
	const rows = (key: string) => ((doc[key] as Record<string, unknown>[] | undefined) ?? []);
	return {
		server_name: text(doc.server_name),
		description: text(doc.description),
		enabled: doc.enabled ? 1 : 0,
		transport_type: (text(doc.transport_type) || empty.transport_type) as McpDraft["transport_type"],
		server_url: text(doc.server_url),
		command: text(doc.command),
		command_args: text(doc.command_args),
		environment: rows("environment").map((row) => ({ name: text(row.name), key: text(row.variable_name), value: text(row.variable_value) })),
		auth_type: (text(doc.auth_type) || empty.auth_type) as McpDraft["auth_type"],
		auth_header_name: text(doc.auth_header_name),
		auth_header_value: text(doc.auth_header_value),
		custom_headers: rows("custom_headers").map((row) => ({ name: text(row.name), key: text(row.header_name), value: text(row.header_value) })),
		...oauthText((field) => text(doc[field])),
		oauth_client_secret: text(doc.oauth_client_secret),
		timeout_seconds: typeof doc.timeout_seconds === "number" ? doc.timeout_seconds : empty.timeout_seconds,
		enable_auto_sync: doc.enable_auto_sync ? 1 : 0,
		auto_sync_interval: typeof doc.auto_sync_interval === "number" ? doc.auto_sync_interval : empty.auto_sync_interval,
		tools: rows("tools").map((row) => ({ ...row, tool_name: text(row.tool_name), enabled: row.enabled ? 1 : 0, requires_approval: row.requires_approval ? 1 : 0, effect: effectOf(row.effect), read_only_hint: row.read_only_hint ? 1 : 0, idempotent_hint: row.idempotent_hint ? 1 : 0, namespaced_name: text(row.namespaced_name), description: text(row.description) })),
		oauth_status: text(doc.oauth_status) || empty.oauth_status,
		last_sync: text(doc.last_sync),
		modified: text(doc.modified),
	};
}

/** What is saved. Tool rows go back whole (only their on/ask/if-interrupted switches change here). A secret left
 * untouched goes back masked, which keeps the stored value; an emptied one is removed. */
export function serverToDoc(draft: McpDraft): Record<string, unknown> {
	const web = draft.transport_type !== "stdio";
	const keyed = ["api_key", "bearer_token", "custom_header"].includes(draft.auth_type);
	const { oauth_status: _status, last_sync: _sync, modified, ...fields } = draft;
	return {
		...fields,
		server_name: draft.server_name.trim(),
		server_url: web ? draft.server_url.trim() : "",
		command: web ? "" : draft.command.trim(),
		command_args: web ? "" : draft.command_args,
		auth_type: web ? draft.auth_type : "none",
		auth_header_name: ["api_key", "custom_header"].includes(draft.auth_type) ? draft.auth_header_name.trim() : "",
		auth_header_value: web && keyed ? draft.auth_header_value : "",
		custom_headers: draft.custom_headers.map((row) => ({ ...(row.name ? { name: row.name } : {}), header_name: row.key.trim(), header_value: row.value })),
		environment: web ? [] : draft.environment.map((row) => ({ ...(row.name ? { name: row.name } : {}), variable_name: row.key.trim(), variable_value: row.value })),
		...oauthText((field) => draft[field].trim()),
		oauth_client_secret: web && draft.auth_type === "oauth" ? draft.oauth_client_secret : "",
		auto_sync_interval: validInterval(draft.auto_sync_interval) ? draft.auto_sync_interval : emptyServer().auto_sync_interval, // hidden while off
		...(modified ? { modified } : {}),
	};
}

const VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const validInterval = (hours: number) => isWhole(hours, 1);

/** Extra sign-in address settings: empty, or a JSON object whose values are all text. */
function extraParamsError(text: string): string | undefined {
	const example = 'Write them as JSON with text values, e.g. {"access_type": "offline"}, or leave this empty.';
	if (!text.trim()) return undefined;
	try {
		const value: unknown = JSON.parse(text);
		if (value && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string")) return undefined;
	} catch {
		return `This isn't valid JSON. ${example}`;
	}
	return `Each setting needs a name and a text value in quotes. ${example}`;
}

/** Rows' names: none empty, each one `valid` if that is given, none twice. */
function namesError(names: string[], what: string, valid?: (name: string) => string | undefined): string | undefined {
	if (names.some((name) => !name)) return `Name every ${what}, or remove the empty row.`;
	const bad = valid && names.map(valid).find(Boolean);
	if (bad) return bad;
	if (new Set(names).size !== names.length) return `A ${what} is listed twice.`;
	return undefined;
}

function variableError(name: string): string | undefined {
	if (name === "PATH") return "PATH is set by Huf; remove that row.";
	if (!VARIABLE_PATTERN.test(name)) return `${name} can't be a variable name: use only letters, digits and _, and don't start with a digit.`;
	return undefined;
}

export function validateServer(draft: McpDraft): FieldErrors<McpDraft> {
	const errors: FieldErrors<McpDraft> = {};
	const name = draft.server_name.trim();
	if (!name) errors.server_name = "Give the server a name, e.g. github.";
	else if (!NAME_PATTERN.test(name)) errors.server_name = NAME_CHARACTERS;
	if (draft.transport_type === "stdio") {
		if (!draft.command.trim().startsWith("/")) errors.command = "Enter the program's full path, starting with /, e.g. /usr/local/bin/mcp-server.";
	} else if (!isWebAddress(draft.server_url.trim())) errors.server_url = "Enter the server's address, starting with https://, e.g. https://mcp.example.com/mcp.";
	if (draft.auth_type === "custom_header" && !draft.auth_header_name.trim()) errors.auth_header_name = "Name the header the key goes in, e.g. X-Api-Key.";
	if (["api_key", "bearer_token", "custom_header"].includes(draft.auth_type) && !draft.auth_header_value) errors.auth_header_value = "Enter the key or token the server gave you.";
	if (!isWhole(draft.timeout_seconds, 1)) errors.timeout_seconds = "Use a whole number of seconds above 0.";
	if (draft.enable_auto_sync && !validInterval(draft.auto_sync_interval)) errors.auto_sync_interval = "Use a whole number of hours, at least 1, e.g. 24.";
	const headers = namesError(draft.custom_headers.map((row) => row.key.trim().toLowerCase()), "header");
	if (headers) errors.custom_headers = headers;
	const environment = draft.transport_type === "stdio" ? namesError(draft.environment.map((row) => row.key.trim()), "variable", variableError) : undefined;
	if (environment) errors.environment = environment;
	const extra = draft.auth_type === "oauth" ? extraParamsError(draft.oauth_extra_authorize_params) : undefined;
	if (extra) errors.oauth_extra_authorize_params = extra;
	return errors;
}

// The server's refusals: a save-time check names the field in its message ("Check the MCP Server").
const fieldOfTitle = fieldOfRefusal<keyof McpDraft>(
	{ "Server Not Found": "server_url", "Address Not Allowed": "server_url", "Invalid URL": "server_url", "Not Allowed": "transport_type", "Invalid Sync Interval": "auto_sync_interval" },
	"server_name",
);

export function serverFieldOfServerError(title: string, excType: string, message: string): keyof McpDraft | null {
	const field = fieldOfTitle(title, excType);
	if (field || title !== "Check the MCP Server") return field;
	const said = message.toLowerCase();
	if (said.includes("environment variable name")) return "environment";
	if (said.includes("server url")) return "server_url";
	if (said.includes("command")) return "command";
	if (said.includes("timeout")) return "timeout_seconds";
	if (said.includes("custom header") || said.includes("needs a value")) return said.includes("custom header needs") ? "auth_header_name" : "auth_header_value";
	if (said.includes("header name")) return "custom_headers";
	return null;
}

const MCP = "huf.ai.mcp.client";

/** Test connection: the server's own name and version and how many tools it offers, or the error in words. */
export type ConnectionReport = { ok: boolean; server_name: string | null; server_version: string | null; tool_count: number | null; error: string | null };
/** Sync tools: how many the server offers, and which tools are new or gone since the last sync. */
export type SyncReport = { tool_count: number; added: string[]; removed: string[] };

export const testConnection = (server: string) => call<ConnectionReport>(`${MCP}.test_mcp_connection`, { server_name: server }, true);
export const syncTools = (server: string) => call<SyncReport>(`${MCP}.sync_mcp_server_tools`, { server_name: server }, true);
export const startSignIn = (server: string) => call<{ authorization_url: string }>("huf.ai.mcp.oauth.begin_mcp_sign_in", { server_name: server }, true);
export const signOut = (server: string) => call<{ oauth_status: string }>("huf.ai.mcp.oauth.disconnect_mcp_server", { server_name: server }, true);

export function syncSummary({ tool_count, added, removed }: SyncReport): string {
	const parts = [`The server offers ${tool_count} tool${tool_count === 1 ? "" : "s"}.`];
	if (added.length) parts.push(`New: ${added.join(", ")}.`);
	if (removed.length) parts.push(`No longer offered, so switched off: ${removed.join(", ")}.`);
	return parts.join(" ");
}
