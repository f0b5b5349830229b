// Settings: who holds which Huf role, the roles themselves (huf/ai/people.py) and what installed apps
// brought along (huf/ai/seeding.py). Every call needs the "settings.write" permission.
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import type { Capability } from "../../lib/boot";

const PEOPLE = "huf.ai.people.";
const SEEDING = "huf.ai.seeding.";

export type HufRole = {
	name: string;
	role_description: string | null;
	is_system: 0 | 1;
	frappe_role: string;
	capabilities: Capability[];
	people: number;
};
export type CapabilityInfo = { name: Capability; description: string };
export type RolesOverview = { roles: HufRole[]; capabilities: CapabilityInfo[] };

export const useRoles = () => useQuery({ queryKey: ["huf-roles"], queryFn: () => call<RolesOverview>(`${PEOPLE}list_huf_roles`) });

export type RoleDraft = { role_name: string; role_description: string; capabilities: Capability[] };

/** Create a role (no `name`) or change one. The server refuses unknown permissions and the built-in roles. */
export const saveRole = (draft: RoleDraft, name?: string) =>
	call<{ name: string }>(`${PEOPLE}save_huf_role`, { ...draft, ...(name ? { name } : {}) }, true);

export const deleteRole = (name: string) => call<null>(`${PEOPLE}delete_huf_role`, { name }, true);

export type PersonRole = { huf_role: string; enabled: 0 | 1 };
export type Person = { name: string; full_name: string | null; roles: PersonRole[] };

export const usePeople = (search: string) =>
	useQuery({
		queryKey: ["huf-people", search],
		queryFn: () => call<Person[]>(`${PEOPLE}list_people`, { search }),
		placeholderData: (previous) => previous,
	});

/** Give a role; it replaces the person's other role (Huf Gateway User is held beside one). */
export const assignRole = (user: string, huf_role: string) => call<PersonRole[]>(`${PEOPLE}assign_huf_role`, { user, huf_role }, true);

/** Take a role away; it stays listed as turned off, and Huf never gives it back by itself. */
export const removeRole = (user: string, huf_role: string) => call<PersonRole[]>(`${PEOPLE}remove_huf_role`, { user, huf_role }, true);

export type SeededRecord = {
	seed_record: string;
	app: string;
	file: string;
	key: string;
	doctype: string;
	name: string;
	status: string;
	changed: boolean;
	app_has_newer_version: boolean;
	still_shipped: boolean;
};
export type WaitingSeed = { app: string; file: string; key: string; doctype: string };
export type SeededContent = { records: SeededRecord[]; not_seeded: WaitingSeed[]; problems: string[]; notes: string[] };
export type SeedReport = { created: string[]; updated: string[]; unchanged: number; kept: string[]; waiting: string[]; skipped: string[]; notes: string[] };

export const useSeededContent = () => useQuery({ queryKey: ["seeded-content"], queryFn: () => call<SeededContent>(`${SEEDING}get_seeded_content`) });

export const seedAllApps = () => call<SeedReport>(`${SEEDING}seed_all_apps`, {}, true);

export const restoreAppVersion = (seed_record: string) => call<{ doctype: string; name: string; status: string }>(`${SEEDING}restore_app_version`, { seed_record }, true);

// What each kind of record is called on the page, and where the web app shows it.
const KINDS: Record<string, { label: string; path?: string }> = {
	"Agent Prompt": { label: "Prompt", path: "/prompts/prompt/" },
	"Agent Tool Function": { label: "Tool", path: "/tools/" },
	"Knowledge Source": { label: "Knowledge source", path: "/knowledge/" },
	Agent: { label: "Agent", path: "/agents/" },
	"Agent Trigger": { label: "Trigger" },
	"Flow Definition": { label: "Flow", path: "/flows/" },
};

export function kindLabel(doctype: string): string {
	return KINDS[doctype]?.label ?? doctype;
}

/** The web app's page for a seeded record, when it has one. */
export function recordPath(doctype: string, name: string): string | null {
	const path = KINDS[doctype]?.path;
	return path ? path + encodeURIComponent(name) : null;
}

// Capabilities grouped by what they are about, in the order huf/capabilities.py lists them.
const AREAS: Record<string, string> = {
	agent: "Agents",
	run: "Conversations and runs",
	tool: "Tools",
	provider: "AI providers",
	knowledge: "Knowledge",
	flow: "Flows",
	trigger: "Triggers",
	prompt: "Prompts",
	table: "Data tables",
	integration: "Integrations",
	settings: "Settings",
};

export function areaOf(capability: string): string {
	const prefix = capability.split(".")[0] ?? capability;
	return AREAS[prefix] ?? prefix;
}

export function byArea(capabilities: CapabilityInfo[]): { area: string; capabilities: CapabilityInfo[] }[] {
	const groups = new Map<string, CapabilityInfo[]>();
	for (const capability of capabilities) {
		const area = areaOf(capability.name);
		groups.set(area, [...(groups.get(area) ?? []), capability]);
	}
	return [...groups].map(([area, items]) => ({ area, capabilities: items }));
}

/** The summary of "Seed all apps now", in words. */
export function seedSummary(report: SeedReport): string {
	const parts = [
		[report.created.length, "added"],
		[report.updated.length, "updated to the app's newer version"],
		[report.unchanged, "already up to date"],
		[report.kept.length, "left as changed here"],
		[report.waiting.length, "waiting for a model (add an AI provider first)"],
		[report.skipped.length, "skipped because of a problem"],
	] as const;
	const said = parts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
	return said.length ? `Done: ${said.join(", ")}.` : "Done: no app ships anything for Huf.";
}
