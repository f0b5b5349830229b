// What the server put on the page (huf/www/huf.py): the signed-in user's capabilities and the CSRF
// token. The dev server has no boot data; the app then asks the server for the user (see useMe).

/** Every capability there is (huf/capabilities.py CAPABILITIES): what a person may do in Huf. */
export type Capability =
	| "agent.read"
	| "agent.run"
	| "agent.write"
	| "run.read"
	| "run.read.all"
	| "tool.read"
	| "tool.write"
	| "tool.mcp.write"
	| "provider.write"
	| "knowledge.read"
	| "knowledge.write"
	| "flow.read"
	| "flow.run"
	| "flow.write"
	| "trigger.write"
	| "prompt.read"
	| "prompt.write"
	| "table.read"
	| "table.write"
	| "integration.write"
	| "settings.write";
export type Capabilities = Record<Capability, boolean>;

export type Me = { user: string; full_name: string; capabilities: Capabilities };

type Boot = { me?: Me; site_name?: string; csrf_token?: string; socketio_port?: number | null };

declare global {
	interface Window {
		HUF_BOOT?: Boot;
	}
}

export const boot: Boot = (typeof window !== "undefined" && window.HUF_BOOT) || {};

export function csrfToken(): string {
	return boot.csrf_token ?? "";
}
