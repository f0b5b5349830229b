import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage as render } from "../../test/render";
import McpServerPage from "./McpServerPage";

const calls: { method: string; args: Record<string, unknown> }[] = [];
const saved: Record<string, unknown>[] = [];
let doc: Record<string, unknown> = {};
const replies: Record<string, unknown> = {};

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	call: vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
		calls.push({ method, args });
		return replies[method];
	}),
	getDoc: vi.fn(async () => doc),
	saveDoc: vi.fn(async (_doctype: string, sent: Record<string, unknown>) => {
		saved.push(sent);
		return { ...sent, name: sent.server_name };
	}),
}));

afterEach(() => {
	cleanup();
	calls.length = 0;
	saved.length = 0;
});

const tool = (tool_name: string, enabled: 0 | 1, requires_approval: 0 | 1, more: Record<string, unknown> = {}) => ({ name: `row-${tool_name}`, tool_name, enabled, requires_approval, effect: "Automatic", namespaced_name: `docs__${tool_name}`, description: `${tool_name} things`, ...more });

const renderPage = (name: string) => render({ "/tools/servers/:name": <McpServerPage /> }, { path: `/tools/servers/${name}` });

describe("McpServerPage", () => {
	it("checks a new server's address and sign-in before saving, and never sends a key for a program", async () => {
		const user = userEvent.setup();
		renderPage("new");
		await user.type(screen.getByLabelText("Name"), "docs");
		await user.type(screen.getByLabelText("Address"), "mcp.example.com");
		await user.selectOptions(screen.getByLabelText("How Huf signs in"), "bearer_token");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(screen.getByText(/starting with https:\/\//)).toBeTruthy();
		expect(screen.getByText("Enter the key or token the server gave you.")).toBeTruthy();
		expect(saved).toHaveLength(0);
		await user.type(screen.getByLabelText("Key or token"), "tok");
		await user.selectOptions(screen.getByLabelText("How Huf reaches it"), "stdio");
		await user.type(screen.getByLabelText("Program"), "/usr/local/bin/docs-mcp");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]).toMatchObject({ server_name: "docs", transport_type: "stdio", command: "/usr/local/bin/docs-mcp", server_url: "", auth_type: "none", auth_header_value: "" });
	});

	it("tests the connection, syncs tools, and saves which tools are on and which ask first", async () => {
		const user = userEvent.setup();
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "http://127.0.0.1:9/mcp", auth_type: "bearer_token", auth_header_value: "*****", enabled: 1, timeout_seconds: 30, tools: [tool("search", 1, 0)], modified: "1" };
		replies["huf.ai.mcp.client.test_mcp_connection"] = { ok: true, server_name: "Docs server", server_version: "1.2", tool_count: 2, error: null };
		replies["huf.ai.mcp.client.sync_mcp_server_tools"] = { tool_count: 2, added: ["delete_page"], removed: [] };
		renderPage("docs");
		expect(((await screen.findByLabelText("Key or token")) as HTMLInputElement).value).toBe("");
		expect(screen.getByText(/Changing it removes the saved key, the headers' values and the sign-in/)).toBeTruthy();
		await user.click(screen.getByRole("button", { name: /Test connection/ }));
		expect(await screen.findByText("Connected to Docs server 1.2, which offers 2 tools.")).toBeTruthy();
		doc = { ...doc, tools: [tool("search", 1, 0), tool("delete_page", 1, 1)], last_sync: "2026-01-01 10:00:00", modified: "2" };
		await user.click(screen.getByRole("button", { name: /Sync tools/ }));
		expect(await screen.findByText("The server offers 2 tools. New: delete_page.")).toBeTruthy();
		expect(((await screen.findByLabelText("Ask before running delete_page")) as HTMLInputElement).checked).toBe(true);
		await user.click(screen.getByLabelText("Use search"));
		await user.click(screen.getByRole("button", { name: "Save" }));
		const sent = saved[0] as { tools: { tool_name: string; enabled: number; requires_approval: number }[]; auth_header_value: string };
		expect(sent.tools.map(({ tool_name, enabled, requires_approval }) => [tool_name, enabled, requires_approval])).toEqual([["search", 0, 0], ["delete_page", 1, 1]]);
		expect(sent.auth_header_value).toBe("*****");
	});

	it("chooses per tool what Huf does if interrupted, starting from what the server says", async () => {
		const user = userEvent.setup();
		const tools = [tool("search", 1, 0, { read_only_hint: 1 }), tool("upsert", 1, 0, { idempotent_hint: 1, effect: "Ask before repeating" }), tool("delete_page", 1, 1)];
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "https://mcp.example.com/mcp", auth_type: "none", enabled: 1, timeout_seconds: 30, tools, modified: "1" };
		renderPage("docs");
		const choice = (name: string) => screen.getByLabelText(`If Huf is interrupted during ${name}`) as HTMLSelectElement;
		const hint = (name: string) => document.getElementById(choice(name).getAttribute("aria-describedby") ?? "")?.textContent;
		expect((await screen.findByLabelText("If Huf is interrupted during search") as HTMLSelectElement).value).toBe("Automatic");
		expect(hint("search")).toBe("The server says this tool is safe to repeat, so Huf runs it again.");
		expect(choice("upsert").value).toBe("Ask before repeating");
		expect(hint("upsert")).toBe("The server says this tool is safe to repeat. Huf asks you whether to retry, skip or stop.");
		expect(hint("delete_page")).toBe("The server doesn't say this tool is safe to repeat, so Huf asks you whether to retry, skip or stop.");
		await user.selectOptions(choice("delete_page"), "Run it again");
		expect(hint("delete_page")).toMatch(/^Huf runs it again/);
		await user.click(screen.getByRole("button", { name: "Save" }));
		const sent = saved[0] as { tools: { tool_name: string; effect: string; requires_approval: number }[] };
		expect(sent.tools.map(({ tool_name, effect, requires_approval }) => [tool_name, effect, requires_approval])).toEqual([["search", "Automatic", 0], ["upsert", "Ask before repeating", 0], ["delete_page", "Safe to repeat", 1]]);
	});

	it("shows why a connection failed in words", async () => {
		const user = userEvent.setup();
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "https://nowhere.invalid/mcp", auth_type: "none", enabled: 1, timeout_seconds: 30, tools: [], modified: "1" };
		replies["huf.ai.mcp.client.test_mcp_connection"] = { ok: false, server_name: null, server_version: null, tool_count: null, error: "The server's name nowhere.invalid could not be found (DNS)." };
		renderPage("docs");
		await user.click(await screen.findByRole("button", { name: /Test connection/ }));
		expect((await screen.findByRole("alert")).textContent).toMatch(/could not be found \(DNS\)/);
	});

	it("opens the service's sign-in page for an OAuth server", async () => {
		const user = userEvent.setup();
		const open = vi.spyOn(window, "open").mockImplementation(() => null);
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "https://mcp.example.com/mcp", auth_type: "oauth", oauth_status: "Not Connected", enabled: 1, timeout_seconds: 30, tools: [], modified: "1" };
		replies["huf.ai.mcp.oauth.begin_mcp_sign_in"] = { authorization_url: "https://auth.example.com/authorize?x=1" };
		renderPage("docs");
		await user.click(await screen.findByRole("button", { name: "Sign in" }));
		expect(calls.at(-1)).toEqual({ method: "huf.ai.mcp.oauth.begin_mcp_sign_in", args: { server_name: "docs" } });
		expect(open).toHaveBeenCalledWith("https://auth.example.com/authorize?x=1", "_blank", "noopener");
	});

	it("shows a program's environment variables, keeps a saved value hidden, and saves new and changed rows", async () => {
		const user = userEvent.setup();
		doc = { name: "files", server_name: "files", transport_type: "stdio", command: "/usr/local/bin/files-mcp", auth_type: "none", enabled: 1, timeout_seconds: 30, environment: [{ name: "env-1", variable_name: "API_TOKEN", variable_value: "*****" }], tools: [], modified: "1" };
		renderPage("files");
		expect(((await screen.findByLabelText("Variable name 1")) as HTMLInputElement).value).toBe("API_TOKEN");
		const kept = screen.getByLabelText("Value 1") as HTMLInputElement;
		expect(kept.value).toBe("");
		expect(kept.placeholder).toMatch(/Saved \(hidden\)/);
		await user.click(screen.getByRole("button", { name: "Add a variable" }));
		await user.type(screen.getByLabelText("Variable name 2"), "1BAD");
		await user.type(screen.getByLabelText("Value 2"), "secret-2");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(screen.getByText(/1BAD can't be a variable name/)).toBeTruthy();
		expect(saved).toHaveLength(0);
		await user.clear(screen.getByLabelText("Variable name 2"));
		await user.type(screen.getByLabelText("Variable name 2"), "REGION");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]?.environment).toEqual([
			{ name: "env-1", variable_name: "API_TOKEN", variable_value: "*****" },
			{ variable_name: "REGION", variable_value: "secret-2" },
		]);
	});

	it("asks for a whole number of hours of at least 1 before refreshing the tool list automatically", async () => {
		const user = userEvent.setup();
		renderPage("new");
		await user.type(screen.getByLabelText("Name"), "docs");
		await user.type(screen.getByLabelText("Address"), "https://mcp.example.com/mcp");
		expect(screen.queryByLabelText("Fetch the tool list every (hours)")).toBeNull();
		await user.click(screen.getByLabelText("Fetch the server's tool list again now and then"));
		const hours = screen.getByLabelText("Fetch the tool list every (hours)");
		await user.clear(hours);
		await user.type(hours, "0");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(screen.getByText("Use a whole number of hours, at least 1, e.g. 24.")).toBeTruthy();
		expect(saved).toHaveLength(0);
		await user.clear(hours);
		await user.type(hours, "6");
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]).toMatchObject({ enable_auto_sync: 1, auto_sync_interval: 6 });
	});

	it("saves the advanced sign-in settings, checking the extra settings are JSON with text values", async () => {
		const user = userEvent.setup();
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "https://mcp.example.com/mcp", auth_type: "oauth", oauth_status: "Not Connected", oauth_client_secret: "*****", enabled: 1, timeout_seconds: 30, tools: [], modified: "1" };
		renderPage("docs");
		const toggle = await screen.findByRole("button", { name: /Advanced sign-in settings/ });
		expect(toggle.getAttribute("aria-expanded")).toBe("false");
		expect(screen.queryByLabelText("Client ID")).toBeNull();
		await user.click(toggle);
		expect(toggle.getAttribute("aria-expanded")).toBe("true");
		expect((screen.getByLabelText("Client secret") as HTMLInputElement).placeholder).toMatch(/Saved \(hidden\)/);
		await user.type(screen.getByLabelText("Permissions to ask for"), "read write");
		await user.type(screen.getByLabelText("Client ID"), "huf-app");
		await user.type(screen.getByLabelText("Sign-in page address"), "https://auth.example.com/authorize");
		await user.type(screen.getByLabelText("Token address"), "https://auth.example.com/token");
		await user.type(screen.getByLabelText("Return address after sign-in"), "https://huf.example.com/back");
		await user.type(screen.getByLabelText("Where the token is in the service's reply"), "authed_user.access_token");
		const extra = screen.getByLabelText("Extra settings for the sign-in page");
		await user.click(extra);
		await user.paste('{"prompt": 1}');
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(screen.getByText(/needs a name and a text value in quotes/)).toBeTruthy();
		expect(saved).toHaveLength(0);
		await user.clear(extra);
		await user.click(extra);
		await user.paste('{"access_type": "offline"}');
		await user.click(screen.getByRole("button", { name: "Save" }));
		expect(saved[0]).toMatchObject({
			oauth_scope: "read write",
			oauth_client_id: "huf-app",
			oauth_client_secret: "*****",
			oauth_authorization_endpoint: "https://auth.example.com/authorize",
			oauth_token_endpoint: "https://auth.example.com/token",
			oauth_extra_authorize_params: '{"access_type": "offline"}',
			oauth_redirect_uri: "https://huf.example.com/back",
			oauth_token_response_path: "authed_user.access_token",
		});
	});

	it("disconnects a signed-in server only after the person confirms, then shows it signed out", async () => {
		const user = userEvent.setup();
		doc = { name: "docs", server_name: "docs", transport_type: "http", server_url: "https://mcp.example.com/mcp", auth_type: "oauth", oauth_status: "Connected", oauth_client_id: "registered-1", enabled: 1, timeout_seconds: 30, tools: [], modified: "1" };
		replies["huf.ai.mcp.oauth.disconnect_mcp_server"] = { oauth_status: "Not Connected" };
		renderPage("docs");
		await user.click(await screen.findByRole("button", { name: "Disconnect" }));
		const confirm = screen.getByRole("alertdialog");
		await user.click(screen.getByRole("button", { name: "Stay signed in" }));
		expect(confirm.isConnected).toBe(false);
		expect(calls).toHaveLength(0);
		await user.click(screen.getByRole("button", { name: "Disconnect" }));
		doc = { ...doc, oauth_status: "Not Connected", oauth_client_id: null };
		await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Disconnect" }));
		expect(calls).toEqual([{ method: "huf.ai.mcp.oauth.disconnect_mcp_server", args: { server_name: "docs" } }]);
		expect(await screen.findByText("Not signed in")).toBeTruthy();
		expect(screen.queryByRole("button", { name: "Disconnect" })).toBeNull();
		expect(screen.queryByText("Unsaved changes")).toBeNull();
	});
});
