// What the server put on the page (huf/www/huf.py): the signed-in user's capabilities and the CSRF
// token. The dev server has no boot data; the app then asks the server for the user (see useMe).

export type Capabilities = {
	"agent.run": boolean;
	"agent.manage": boolean;
	"provider.manage": boolean;
	"run.view_all": boolean;
	"knowledge.view": boolean;
	"knowledge.manage": boolean;
};

export type Me = { user: string; full_name: string; is_manager: boolean; capabilities: Capabilities };

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
