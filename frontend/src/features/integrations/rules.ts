// The integration form's rules (pure): a draft from stored settings, the checks the server makes
// (integration_settings.py), and what is sent to save. Stored secrets are never in a draft: an empty
// secret field keeps the stored value.
import { hasErrors as hasAny } from "../../lib/rules";
import type { CredentialSpec, SavePayload, Service, SettingsView } from "./api";

export type RecipientDraft = { key: string; row?: string; recipient_name: string; recipient_id: string; webhook_url: string; has_webhook_url: boolean; clear_webhook_url: boolean };
export type Draft = {
	title: string;
	is_active: boolean;
	is_default: boolean;
	credentials: Record<string, string>;
	stored: Record<string, boolean>;
	clear: string[];
	recipients: RecipientDraft[];
	agents: string[];
};
export type DraftErrors = { title?: string; credentials: Record<string, string>; recipients: Record<string, string> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
let counter = 0;
const localKey = () => `new-${(counter += 1)}`;

export function serviceLabel(service: Pick<Service, "name" | "title"> | undefined, fallback = ""): string {
	return service?.title || service?.name || fallback;
}

export function credentialLabel(spec: CredentialSpec): string {
	return spec.label || spec.key;
}

export function newRecipient(): RecipientDraft {
	return { key: localKey(), recipient_name: "", recipient_id: "", webhook_url: "", has_webhook_url: false, clear_webhook_url: false };
}

export function emptyDraft(): Draft {
	return { title: "", is_active: true, is_default: true, credentials: {}, stored: {}, clear: [], recipients: [newRecipient()], agents: [] };
}

export function draftFrom(view: SettingsView): Draft {
	return {
		title: view.name,
		is_active: Boolean(view.is_active),
		is_default: Boolean(view.is_default),
		credentials: {},
		stored: Object.fromEntries(view.credentials.map((item) => [item.key, item.is_set])),
		clear: [],
		recipients: view.recipients.map((item) => ({ ...item, key: item.row, webhook_url: "", clear_webhook_url: false })),
		agents: view.allowed_agents,
	};
}

/** Whether a credential will have a value after saving. */
export function willBeSet(draft: Draft, key: string): boolean {
	return Boolean(draft.credentials[key]?.trim()) || (Boolean(draft.stored[key]) && !draft.clear.includes(key));
}

export function validate(draft: Draft, service: Service, isNew: boolean): DraftErrors {
	const errors: DraftErrors = { credentials: {}, recipients: {} };
	if (isNew && !draft.title.trim()) errors.title = "Name these settings, e.g. Team chat.";
	for (const spec of service.credentials) {
		const typed = draft.credentials[spec.key]?.trim() ?? "";
		if (spec.required && !willBeSet(draft, spec.key)) errors.credentials[spec.key] = `${credentialLabel(spec)} is needed.`;
		else if (spec.key === "webhook_url" && typed && !/^https?:\/\/\S+$/.test(typed)) errors.credentials[spec.key] = "Enter the full address, starting with https://.";
	}
	const seen = new Set<string>();
	for (const recipient of draft.recipients) {
		const name = recipient.recipient_name.trim();
		const id = recipient.recipient_id.trim();
		if (!name) errors.recipients[recipient.key] = "Give the recipient a name.";
		else if (seen.has(name.toLowerCase())) errors.recipients[recipient.key] = `Another recipient is already named ${name}.`;
		else if (service.name === "email" && !EMAIL.test(id)) errors.recipients[recipient.key] = `Enter an email address for ${name}.`;
		else if (service.name === "frappe_notification" && !id) errors.recipients[recipient.key] = `Enter the user ${name} stands for.`;
		else if (recipient.webhook_url.trim() && !/^https?:\/\/\S+$/.test(recipient.webhook_url.trim())) errors.recipients[recipient.key] = "Enter the full webhook address, starting with https://.";
		seen.add(name.toLowerCase());
	}
	return errors;
}

export function hasErrors(errors: DraftErrors): boolean {
	return Boolean(errors.title) || hasAny(errors.credentials) || hasAny(errors.recipients);
}

/** What is sent to save: only typed secrets (an empty field keeps the stored one), and the removals asked for. */
export function payload(draft: Draft, service: Service, name: string | null): SavePayload {
	const credentials = Object.fromEntries(Object.entries(draft.credentials).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value));
	return {
		...(name ? { name } : { title: draft.title.trim(), service: service.name }),
		is_active: draft.is_active,
		is_default: draft.is_default,
		credentials,
		clear_credentials: draft.clear.filter((key) => !credentials[key]),
		recipients: draft.recipients.map((item) => ({
			...(item.row ? { row: item.row } : {}),
			recipient_name: item.recipient_name.trim(),
			recipient_id: item.recipient_id.trim(),
			...(item.webhook_url.trim() ? { webhook_url: item.webhook_url.trim() } : item.clear_webhook_url ? { clear_webhook_url: true } : {}),
		})),
		allowed_agents: draft.agents,
	};
}
