import { describe, expect, it } from "vitest";
import type { Service, SettingsView } from "./api";
import { draftFrom, emptyDraft, hasErrors, newRecipient, payload, validate } from "./rules";

const webhook: Service = {
	name: "webhook", title: "Chat webhook", category: "Communication", description: null, documentation_url: null, recipient_label: "Channel",
	credentials: [{ key: "webhook_url", label: "Webhook URL", type: "password", required: 0 }],
};  // prettier-ignore
const email: Service = { ...webhook, name: "email", title: "Email", recipient_label: "Email address", credentials: [{ key: "email_account", label: "Email account", type: "text", required: 0 }] };
const keyed: Service = { ...webhook, name: "keyed", credentials: [{ key: "token", label: "Token", type: "password", required: 1 }] };
const stored: SettingsView = {
	name: "Team chat", service: "webhook", is_active: 1, is_default: 0,
	credentials: [{ key: "webhook_url", is_set: true }],
	recipients: [{ row: "r1", recipient_name: "Ops", recipient_id: "#ops", has_webhook_url: true }],
	allowed_agents: ["Release Bot"],
};  // prettier-ignore

describe("the integration form's rules", () => {
	it("keeps stored secrets out of a draft and sends only what was typed", () => {
		const draft = draftFrom(stored);
		expect(draft.credentials).toEqual({});
		expect(payload(draft, webhook, "Team chat")).toEqual({
			name: "Team chat", is_active: true, is_default: false, credentials: {}, clear_credentials: [],
			recipients: [{ row: "r1", recipient_name: "Ops", recipient_id: "#ops" }], allowed_agents: ["Release Bot"],
		});  // prettier-ignore
		const typed = { ...draft, credentials: { webhook_url: " https://hooks.example.com/new " }, clear: ["webhook_url"] };
		expect(payload(typed, webhook, "Team chat").credentials).toEqual({ webhook_url: "https://hooks.example.com/new" });
		expect(payload(typed, webhook, "Team chat").clear_credentials).toEqual([]);
		const cleared = { ...draft, recipients: draft.recipients.map((item) => ({ ...item, clear_webhook_url: true })) };
		expect(payload(cleared, webhook, "Team chat").recipients[0]).toEqual({ row: "r1", recipient_name: "Ops", recipient_id: "#ops", clear_webhook_url: true });
	});

	it("names new settings with their title and service", () => {
		const draft = { ...emptyDraft(), title: " Team mail ", recipients: [{ ...newRecipient(), recipient_name: "Sales", recipient_id: "sales@example.com" }] };
		const sent = payload(draft, email, null);
		expect(sent.title).toBe("Team mail");
		expect(sent.service).toBe("email");
		expect(sent.name).toBeUndefined();
		expect(sent.allowed_agents).toEqual([]);
		expect(hasErrors(validate(draft, email, true))).toBe(false);
	});

	it("says what is missing or wrong, recipient by recipient", () => {
		const first = { ...newRecipient(), recipient_name: "Sales", recipient_id: "sales" };
		const second = { ...newRecipient(), recipient_name: "sales", recipient_id: "b@example.com" };
		const third = { ...newRecipient(), recipient_name: "" };
		const errors = validate({ ...emptyDraft(), recipients: [first, second, third] }, email, true);
		expect(errors.title).toBe("Name these settings, e.g. Team chat.");
		expect(errors.recipients[first.key]).toBe("Enter an email address for Sales.");
		expect(errors.recipients[second.key]).toBe("Another recipient is already named sales.");
		expect(errors.recipients[third.key]).toBe("Give the recipient a name.");
		expect(validate({ ...emptyDraft(), title: "x", recipients: [] }, keyed, true).credentials).toEqual({ token: "Token is needed." });
		const kept = { ...emptyDraft(), stored: { token: true }, recipients: [] };
		expect(validate(kept, keyed, false).credentials).toEqual({});
		const badUrl = { ...emptyDraft(), title: "x", credentials: { webhook_url: "hooks.example.com" }, recipients: [] };
		expect(validate(badUrl, webhook, true).credentials.webhook_url).toBe("Enter the full address, starting with https://.");
	});
});
