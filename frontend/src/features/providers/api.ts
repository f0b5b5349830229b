import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

export type ModelRow = {
	name: string;
	provider: string;
	disabled: 0 | 1;
	use_custom_pricing: 0 | 1;
	input_cost_per_1m_tokens: number;
	output_cost_per_1m_tokens: number;
	cached_input_cost_per_1m_tokens: number;
	fallback_models: string | null;
};
export type ProviderRow = { name: string; api_base: string | null; description: string | null; key_set: boolean; ready: boolean; models: ModelRow[] };
export type ConnectionResult = { ok: true; model: string; reply: string; seconds: number } | { ok: false; kind: string; message: string };

export function useProviders() {
	return useQuery({ queryKey: ["providers"], queryFn: () => call<ProviderRow[]>("huf.ai.providers.get_provider_overview") });
}

export const testConnection = (provider: string, model?: string) =>
	call<ConnectionResult>("huf.ai.providers.test_provider_connection", { provider, ...(model ? { model } : {}) }, true);
