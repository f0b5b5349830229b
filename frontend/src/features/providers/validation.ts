// Provider and model forms' rules, as the server enforces them (ai_provider.py, ai_model.py).
import type { FieldErrors } from "../../lib/rules";
import type { ModelRow } from "./api";

export type ProviderDraft = { provider_name: string; api_key: string; api_base: string; description: string; remove_key: boolean };
export type ModelDraft = Omit<ModelRow, "name" | "fallback_models"> & { model_name: string; fallback_models: string };

/** The server removes a stored key when the address changes and no new key comes with it (ai_provider.py). */
export function dropsStoredKey(draft: ProviderDraft, storedBase: string | null, keySet: boolean): boolean {
	const address = (value: string) => value.trim().replace(/\/+$/, "");
	return keySet && !draft.api_key.trim() && address(draft.api_base) !== address(storedBase ?? "");
}

export function validateProvider(draft: ProviderDraft, isNew: boolean, keySet: boolean, storedBase: string | null = null): FieldErrors<ProviderDraft> {
	const errors: FieldErrors<ProviderDraft> = {};
	if (!draft.provider_name.trim()) errors.provider_name = "Name the provider, e.g. OpenAI, Anthropic or Ollama.";
	const base = draft.api_base.trim();
	if (base) {
		let url: URL | null = null;
		try {
			url = new URL(base);
		} catch {
			url = null;
		}
		if (!url || !["http:", "https:"].includes(url.protocol) || /\s/.test(base)) errors.api_base = "Enter a full address starting with http:// or https://, e.g. http://localhost:11434.";
	}
	const keyAfterSave = draft.api_key.trim() ? true : isNew ? false : keySet && !draft.remove_key && !dropsStoredKey(draft, storedBase, keySet);
	if (!keyAfterSave && !base) errors.api_key = "Enter the API key from the provider's dashboard, or an address for a server on your network.";
	return errors;
}

/** A provider's name as a model id's prefix: OpenAI -> openai. */
export const prefixOf = (provider: string) => provider.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "provider";

/** `taken`: the model ids already on the site, each with its provider (a new model's id must be new). */
export function validateModel(draft: ModelDraft, taken: Map<string, string> = new Map()): FieldErrors<ModelDraft> {
	const errors: FieldErrors<ModelDraft> = {};
	const name = draft.model_name.trim();
	const owner = taken.get(name);
	if (!name) errors.model_name = "Enter the provider's model id, e.g. gpt-4o-mini.";
	else if (/\s/.test(name)) errors.model_name = "A model id has no spaces. Copy it exactly from the provider, e.g. gpt-4o-mini.";
	else if (owner) {
		errors.model_name = `${name} is already a model of ${owner}, and each model id is used once. Write this one with its provider in front: ${prefixOf(draft.provider)}/${name}.`;
	}
	if (draft.use_custom_pricing) {
		for (const key of ["input_cost_per_1m_tokens", "output_cost_per_1m_tokens", "cached_input_cost_per_1m_tokens"] as const) {
			if (!(draft[key] >= 0)) errors[key] = "Enter a price of 0 or more.";
		}
	}
	return errors;
}
