import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import SettingsPage from "./SettingsPage";
import { api, resetApi } from "../../test/fakeApi";
import { renderPage } from "../../test/render";

vi.mock("../../lib/api", async (original) => ({ ...(await original<typeof import("../../lib/api")>()), call: (await import("../../test/fakeApi")).fakeCall }));
const calls = api.calls;

afterEach(() => {
	cleanup();
	resetApi();
});

const capabilities = [
	{ name: "agent.read", description: "See agents and how they are set up." },
	{ name: "agent.write", description: "Create, change and delete agents." },
	{ name: "run.read", description: "See one's own conversations and runs." },
	{ name: "settings.write", description: "Decide who has which Huf role." },
];
const roles = {
	capabilities,
	roles: [
		{ name: "Huf Viewer", role_description: "Looks at agents.", is_system: 1, frappe_role: "Huf Viewer", capabilities: ["agent.read", "run.read"], people: 2 },
		{ name: "Agent builders", role_description: "Builds agents.", is_system: 0, frappe_role: "Agent builders", capabilities: ["agent.read", "agent.write"], people: 1 },
	],
};
const me = { user: "admin@example.com", full_name: "Admin", capabilities: { "settings.write": true, "prompt.read": true } };

const show = (path: string) => renderPage({ "/settings/:part?": <SettingsPage /> }, { path, me });

const called = (name: string) => calls.filter((call) => call.method.endsWith(`.${name}`));

describe("People and roles", () => {
	const people = [
		{ name: "ann@example.com", full_name: "Ann", roles: [{ huf_role: "Huf User", enabled: 0 }, { huf_role: "Huf Viewer", enabled: 1 }] },
		{ name: "bob@example.com", full_name: "Bob", roles: [] },
	];

	it("lists who has which role, turned-off roles as such, and links to every part of Settings", async () => {
		api.replies = { list_people: people, list_huf_roles: roles };
		show("/settings");
		const ann = await screen.findByRole("list", { name: "Roles of Ann" });
		expect(within(ann).getByText(/turned off/)).toBeTruthy();
		expect(within(ann).getByRole("button", { name: "Remove Huf Viewer from Ann" })).toBeTruthy();
		expect(within(ann).queryByRole("button", { name: "Remove Huf User from Ann" })).toBeNull();
		expect(screen.getByText("No Huf role: this person can't use Huf.")).toBeTruthy();
		const parts = within(screen.getByRole("navigation", { name: "Settings" }));
		expect(parts.getAllByRole("link").map((link) => link.textContent)).toEqual(["People and roles", "Roles", "Prompt library", "Content from apps"]);
		expect(parts.getByRole("link", { name: "Prompt library" }).getAttribute("href")).toBe("/prompts");
	});

	it("gives a role and takes one away, then reads the list again", async () => {
		const user = userEvent.setup();
		api.replies = { list_people: people, list_huf_roles: roles, assign_huf_role: [], remove_huf_role: [] };
		show("/settings");
		await user.selectOptions(await screen.findByLabelText("Role to give Bob"), "Agent builders");
		await user.click(within(screen.getByRole("form", { name: "Give Bob a role" })).getByRole("button", { name: "Give role" }));
		expect(await screen.findByText("Bob now has Agent builders.")).toBeTruthy();
		expect(called("assign_huf_role")[0]?.args).toEqual({ user: "bob@example.com", huf_role: "Agent builders" });
		await user.click(screen.getByRole("button", { name: "Remove Huf Viewer from Ann" }));
		expect(await screen.findByText("Huf Viewer was taken from Ann.")).toBeTruthy();
		expect(called("remove_huf_role")[0]?.args).toEqual({ user: "ann@example.com", huf_role: "Huf Viewer" });
		expect(called("list_people").length).toBeGreaterThan(1);
	});

	it("shows the server's refusal in its own words next to the person", async () => {
		const user = userEvent.setup();
		api.replies = { list_people: people, list_huf_roles: roles, remove_huf_role: new ApiError("Ann is the last Huf Admin.", 417) };
		show("/settings");
		await user.click(await screen.findByRole("button", { name: "Remove Huf Viewer from Ann" }));
		expect((await screen.findByRole("alert")).textContent).toContain("Ann is the last Huf Admin.");
	});

	it("searches by name or email", async () => {
		const user = userEvent.setup();
		api.replies = { list_people: (args: Record<string, unknown>) => people.filter((p) => p.name.includes(String(args.search))), list_huf_roles: roles };
		show("/settings");
		await screen.findByText("Bob");
		await user.type(screen.getByLabelText("Search people"), "ann");
		await vi.waitFor(() => expect(screen.queryByText("Bob")).toBeNull());
		expect(called("list_people").at(-1)?.args).toEqual({ search: "ann" });
	});
});

describe("Roles", () => {
	it("shows built-in roles read-only, with what they allow in words", async () => {
		api.replies = { list_huf_roles: roles };
		show("/settings/roles");
		const viewer = await screen.findByRole("listitem", { name: "Huf Viewer" });
		expect(within(viewer).getByText(/See agents and how they are set up/)).toBeTruthy();
		expect(within(viewer).getByText("2 people have it")).toBeTruthy();
		expect(within(viewer).queryByRole("button")).toBeNull();
		const custom = screen.getByRole("listitem", { name: "Agent builders" });
		expect(within(custom).getByRole("button", { name: "Change Agent builders" })).toBeTruthy();
	});

	it("makes a custom role from ticked permissions, after asking for a name and a tick", async () => {
		const user = userEvent.setup();
		api.replies = { list_huf_roles: roles, save_huf_role: { name: "Chat only" } };
		show("/settings/roles");
		await user.click(await screen.findByRole("button", { name: "New role" }));
		const dialog = screen.getByRole("dialog", { name: "New role" });
		await user.click(within(dialog).getByRole("button", { name: "Make role" }));
		expect(within(dialog).getByText("Give the role a name.")).toBeTruthy();
		expect(within(dialog).getByText("Tick at least one permission.")).toBeTruthy();
		await user.type(within(dialog).getByLabelText("Name"), "Chat only");
		await user.click(within(dialog).getByRole("checkbox", { name: /\(run\.read\)/ }));
		await user.click(within(dialog).getByRole("checkbox", { name: /\(agent\.read\)/ }));
		await user.click(within(dialog).getByRole("button", { name: "Make role" }));
		expect(await screen.findByText(/The role Chat only was made/)).toBeTruthy();
		expect(called("save_huf_role")[0]?.args).toEqual({ role_name: "Chat only", role_description: "", capabilities: ["agent.read", "run.read"] });
	});

	it("changes a custom role under its fixed name and shows a refusal from the server", async () => {
		const user = userEvent.setup();
		api.replies = { list_huf_roles: roles, save_huf_role: new ApiError("You can only grant what you have yourself; you lack settings.write.", 403) };
		show("/settings/roles");
		await user.click(await screen.findByRole("button", { name: "Change Agent builders" }));
		const dialog = screen.getByRole("dialog", { name: "Change Agent builders" });
		expect((within(dialog).getByLabelText("Name") as HTMLInputElement).disabled).toBe(true);
		expect((within(dialog).getByRole("checkbox", { name: /\(agent\.write\)/ }) as HTMLInputElement).checked).toBe(true);
		await user.click(within(dialog).getByRole("checkbox", { name: /\(settings\.write\)/ }));
		await user.click(within(dialog).getByRole("button", { name: "Save role" }));
		expect((await within(dialog).findByRole("alert")).textContent).toContain("you lack settings.write");
		expect(called("save_huf_role")[0]?.args).toMatchObject({ name: "Agent builders", capabilities: ["agent.read", "agent.write", "settings.write"] });
	});

	it("deletes a custom role only after a confirmation", async () => {
		const user = userEvent.setup();
		api.replies = { list_huf_roles: roles, delete_huf_role: null };
		show("/settings/roles");
		await user.click(await screen.findByRole("button", { name: "Delete Agent builders" }));
		const confirm = screen.getByRole("group", { name: "Delete Agent builders?" });
		expect(called("delete_huf_role")).toHaveLength(0);
		await user.click(within(confirm).getByRole("button", { name: "Delete" }));
		expect(await screen.findByText("The role Agent builders was deleted.")).toBeTruthy();
		expect(called("delete_huf_role")[0]?.args).toEqual({ name: "Agent builders" });
	});
});

describe("Content from apps", () => {
	const record = (key: string, status: string, changed: boolean) => ({
		seed_record: `seed-${key}`, app: "acme", file: `agents/${key}.json`, key, doctype: "Agent", name: key, status, changed, app_has_newer_version: false, still_shipped: true,
	});  // prettier-ignore
	const content = {
		records: [record("Helper", "As the app ships it", false), record("Desk", "Changed from the app's version", true)],
		not_seeded: [],
		problems: ["acme/huf/tools/bad.json: not valid JSON (line 1)"],
		notes: [],
	};

	it("lists what came from which app and file, marks changed records, and lists problems", async () => {
		api.replies = { get_seeded_content: content };
		show("/settings/content");
		const table = await screen.findByRole("table", { name: "Records that came from apps" });
		expect(within(table).getByText("agents/Desk.json", { exact: false })).toBeTruthy();
		expect(within(table).getByText("Changed from the app's version")).toBeTruthy();
		expect(within(table).getAllByRole("button")).toHaveLength(1);
		expect(within(table).getByRole("link", { name: "Helper" }).getAttribute("href")).toBe("/agents/Helper");
		expect(within(screen.getByRole("list", { name: "Problems in the apps' files" })).getByText(/not valid JSON/)).toBeTruthy();
	});

	it("takes the app's version back only after a confirmation", async () => {
		const user = userEvent.setup();
		api.replies = { get_seeded_content: content, restore_app_version: { doctype: "Agent", name: "Desk", status: "As the app ships it" } };
		show("/settings/content");
		await user.click(await screen.findByRole("button", { name: "Take the app's version back for Desk" }));
		const dialog = screen.getByRole("dialog", { name: "Take the app's version back?" });
		expect(within(dialog).getByText(/changes made on this site to the agent Desk/)).toBeTruthy();
		expect(called("restore_app_version")).toHaveLength(0);
		await user.click(within(dialog).getByRole("button", { name: "Take the app's version" }));
		expect(await screen.findByText("Desk is back to the version the app acme ships.")).toBeTruthy();
		expect(called("restore_app_version")[0]?.args).toEqual({ seed_record: "seed-Desk" });
	});

	it("seeds all apps on request and says what happened", async () => {
		const user = userEvent.setup();
		api.replies = { get_seeded_content: content, seed_all_apps: { created: ["Tool: x"], updated: [], unchanged: 2, kept: [], waiting: [], skipped: [], notes: [] } };
		show("/settings/content");
		await user.click(await screen.findByRole("button", { name: "Seed all apps now" }));
		expect(await screen.findByText("Done: 1 added, 2 already up to date.")).toBeTruthy();
		expect(called("get_seeded_content").length).toBeGreaterThan(1);
	});
});
