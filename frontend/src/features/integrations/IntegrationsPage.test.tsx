import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import type { Overview, SettingsView } from "./api";
import IntegrationsPage from "./IntegrationsPage";
import { api, resetApi } from "../../test/fakeApi";
import { renderPage } from "../../test/render";

vi.mock("../../lib/api", async (original) => ({ ...(await original<typeof import("../../lib/api")>()), call: (await import("../../test/fakeApi")).fakeCall }));
const calls = api.calls;

afterEach(() => {
	cleanup();
	resetApi();
});

const overview: Overview = {
	services: [
		{
			name: "webhook", title: "Chat webhook", category: "Communication", description: "Posts to an incoming webhook.", documentation_url: null,
			recipient_label: "Channel", credentials: [{ key: "webhook_url", label: "Webhook URL", type: "password", required: 0, help: "The incoming webhook's address." }],
		},
		{ name: "email", title: "Email", category: "Communication", description: "Sends email.", documentation_url: null, recipient_label: "Email address", credentials: [] },
	],
	settings: [{ name: "Team chat", service: "webhook", is_active: 1, is_default: 1, recipients: 1 }],
	agents: ["Release Bot", "Support"],
};  // prettier-ignore
const teamChat: SettingsView = {
	name: "Team chat", service: "webhook", is_active: 1, is_default: 1,
	credentials: [{ key: "webhook_url", is_set: true }],
	recipients: [{ row: "r1", recipient_name: "General", recipient_id: "#general", has_webhook_url: false }],
	allowed_agents: ["Release Bot"],
};  // prettier-ignore

const show = () => renderPage(<IntegrationsPage />);

const called = (name: string) => calls.filter((call) => call.method.endsWith(`.${name}`));

describe("the Integrations page", () => {
	it("lists what is set up and adds webhook settings from the service's fields", async () => {
		const user = userEvent.setup();
		api.replies = { list_integrations: overview, save_integration_settings: { ...teamChat, name: "Alerts" } };
		show();
		const table = await screen.findByRole("table", { name: "Integrations set up on this site" });
		expect(within(table).getByText("Team chat")).toBeTruthy();
		expect(within(table).getByText("Chat webhook")).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Add chat webhook" }));
		const dialog = await screen.findByRole("dialog", { name: "Add chat webhook" });
		const url = within(dialog).getByLabelText("Webhook URL");
		expect(url.getAttribute("type")).toBe("password");
		await user.click(within(dialog).getByRole("button", { name: "Save" }));
		expect(within(dialog).getByText("Name these settings, e.g. Team chat.")).toBeTruthy();
		expect(within(dialog).getByText("Give the recipient a name.")).toBeTruthy();
		expect(called("save_integration_settings")).toEqual([]);
		await user.type(within(dialog).getByLabelText("Name"), "Alerts");
		await user.type(url, "https://hooks.example.com/T1/secret");
		const first = within(within(dialog).getByRole("group", { name: "Recipient 1" }));
		await user.type(first.getByLabelText("Recipient name"), "Ops");
		await user.type(first.getByLabelText("Channel (optional)"), "#ops");
		await user.click(within(dialog).getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Alerts is saved.")).toBeTruthy();
		expect(called("save_integration_settings")[0]?.args).toEqual({
			settings: {
				title: "Alerts", service: "webhook", is_active: true, is_default: true, credentials: { webhook_url: "https://hooks.example.com/T1/secret" },
				clear_credentials: [], recipients: [{ recipient_name: "Ops", recipient_id: "#ops" }], allowed_agents: [],
			},
		});  // prettier-ignore
	});

	it("never shows a stored webhook URL and keeps it when the field is left empty", async () => {
		const user = userEvent.setup();
		api.replies = { list_integrations: overview, get_integration_settings: teamChat, save_integration_settings: teamChat };
		show();
		await user.click(await screen.findByRole("button", { name: "Edit Team chat" }));
		const dialog = await screen.findByRole("dialog", { name: "Edit Team chat" });
		const url = await within(dialog).findByLabelText("Webhook URL");
		expect((url as HTMLInputElement).value).toBe("");
		expect(url.getAttribute("placeholder")).toBe("•••••••• (set)");
		expect(within(dialog).getByText("Set. Leave empty to keep it, or type a new one to replace it.")).toBeTruthy();
		await user.click(within(dialog).getByRole("checkbox", { name: "Use these settings when a message names only the service" }));
		await user.click(within(dialog).getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Team chat is saved.")).toBeTruthy();
		const sent = called("save_integration_settings")[0]?.args.settings as Record<string, unknown>;
		expect(sent.credentials).toEqual({});
		expect(sent.is_default).toBe(false);
		expect(sent.recipients).toEqual([{ row: "r1", recipient_name: "General", recipient_id: "#general" }]);
		expect(sent.allowed_agents).toEqual(["Release Bot"]);
	});

	it("keeps settings for the agents ticked, and says what none ticked means", async () => {
		const user = userEvent.setup();
		api.replies = { list_integrations: overview, get_integration_settings: teamChat, save_integration_settings: teamChat };
		show();
		await user.click(await screen.findByRole("button", { name: "Edit Team chat" }));
		const dialog = await screen.findByRole("dialog", { name: "Edit Team chat" });
		const agents = within(await within(dialog).findByRole("group", { name: "Agents that may send" }));
		expect(agents.getByText(/With none ticked, every agent with the send_message tool can send through them/)).toBeTruthy();
		const bot = agents.getByRole("checkbox", { name: "Release Bot" }) as HTMLInputElement;
		const support = agents.getByRole("checkbox", { name: "Support" }) as HTMLInputElement;
		expect([bot.checked, support.checked]).toEqual([true, false]);
		await user.click(support);
		await user.click(bot);
		await user.click(within(dialog).getByRole("button", { name: "Save" }));
		expect(await screen.findByText("Team chat is saved.")).toBeTruthy();
		expect((called("save_integration_settings")[0]?.args.settings as Record<string, unknown>).allowed_agents).toEqual(["Support"]);
	});

	it("sends a test message and shows the server's words when it fails", async () => {
		const user = userEvent.setup();
		api.replies = {
			list_integrations: overview,
			get_integration_settings: teamChat,
			send_test_message: new ApiError("The webhook of Team chat answered 500; the message was not posted.", 417),
		};
		show();
		await user.click(await screen.findByRole("button", { name: "Send a test message through Team chat" }));
		const dialog = await screen.findByRole("dialog", { name: "Send a test message through Team chat" });
		await user.click(await within(dialog).findByRole("button", { name: "Send test message" }));
		expect(await within(dialog).findByText(/answered 500/)).toBeTruthy();
		api.replies.send_test_message = { sent: true, recipient: "General", integration: "Team chat", message_id: "huf-msg-1" };
		await user.click(within(dialog).getByRole("button", { name: "Send test message" }));
		expect(await within(dialog).findByText("Sent to General.")).toBeTruthy();
		expect(called("send_test_message")[1]?.args).toEqual({ settings: "Team chat", recipient: "General", text: "A test message from Huf: this integration works." });
	});

	it("deletes settings after asking", async () => {
		const user = userEvent.setup();
		api.replies = { list_integrations: overview, delete_integration_settings: null };
		show();
		await user.click(await screen.findByRole("button", { name: "Delete Team chat" }));
		const dialog = await screen.findByRole("dialog", { name: "Delete Team chat?" });
		await user.click(within(dialog).getByRole("button", { name: "Delete" }));
		expect(await screen.findByText("Team chat is deleted.")).toBeTruthy();
		expect(called("delete_integration_settings")[0]?.args).toEqual({ name: "Team chat" });
	});
});
