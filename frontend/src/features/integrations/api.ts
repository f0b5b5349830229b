// The Integrations page's calls (huf/ai/integrations/api.py). Every call needs "integration.write".
// Stored credentials never come back: only whether each is set.
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

const API = "huf.ai.integrations.api.";

export type CredentialSpec = { key: string; label?: string; type?: "password" | "text"; required?: number | boolean; help?: string };
export type Service = {
	name: string;
	title: string | null;
	category: string | null;
	description: string | null;
	documentation_url: string | null;
	recipient_label: string | null;
	credentials: CredentialSpec[];
};
export type SettingsRow = { name: string; service: string; is_active: 0 | 1; is_default: 0 | 1; recipients: number };
export type Overview = { services: Service[]; settings: SettingsRow[]; agents: string[] };

export type StoredRecipient = { row: string; recipient_name: string; recipient_id: string; has_webhook_url: boolean };
export type SettingsView = {
	name: string;
	service: string;
	is_active: 0 | 1;
	is_default: 0 | 1;
	credentials: { key: string; is_set: boolean }[];
	recipients: StoredRecipient[];
	allowed_agents: string[];
};

export type SavePayload = {
	name?: string;
	title?: string;
	service?: string;
	is_active: boolean;
	is_default: boolean;
	credentials: Record<string, string>;
	clear_credentials: string[];
	recipients: { row?: string; recipient_name: string; recipient_id: string; webhook_url?: string; clear_webhook_url?: boolean }[];
	allowed_agents: string[];
};

export type SendResult = { sent: boolean; recipient: string; integration: string; queue_id?: string; message_id?: string; notification_id?: string };

export const OVERVIEW = ["integrations"];

export const useIntegrations = () => useQuery({ queryKey: OVERVIEW, queryFn: () => call<Overview>(`${API}list_integrations`) });

export const useIntegrationSettings = (name: string | null) =>
	useQuery({ queryKey: ["integration", name], enabled: Boolean(name), queryFn: () => call<SettingsView>(`${API}get_integration_settings`, { name }) });

export const saveSettings = (settings: SavePayload) => call<SettingsView>(`${API}save_integration_settings`, { settings }, true);

export const deleteSettings = (name: string) => call<null>(`${API}delete_integration_settings`, { name }, true);

export const sendTestMessage = (settings: string, recipient: string, text: string) =>
	call<SendResult>(`${API}send_test_message`, { settings, recipient, text }, true);
