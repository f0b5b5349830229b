import { describe, expect, it } from "vitest";
import { dropsStoredKey, prefixOf, validateModel, validateProvider, type ModelDraft, type ProviderDraft } from "./validation";

const provider = (changes: Partial<ProviderDraft> = {}): ProviderDraft => ({ provider_name: "OpenAI", api_key: "sk-1", api_base: "", description: "", remove_key: false, ...changes });
const model = (changes: Partial<ModelDraft> = {}): ModelDraft => ({
	model_name: "gpt-4o-mini", provider: "OpenAI", disabled: 0, use_custom_pricing: 0, input_cost_per_1m_tokens: 0, output_cost_per_1m_tokens: 0, cached_input_cost_per_1m_tokens: 0, fallback_models: "", ...changes,
});

describe("validateProvider", () => {
	it("needs a name, and a key or a server address", () => {
		expect(validateProvider(provider(), true, false)).toEqual({});
		expect(validateProvider(provider({ provider_name: " " }), true, false).provider_name).toBeDefined();
		expect(validateProvider(provider({ api_key: "" }), true, false).api_key).toMatch(/API key/);
		expect(validateProvider(provider({ api_key: "", api_base: "http://localhost:11434" }), true, false)).toEqual({});
	});

	it("keeps a stored key unless it is removed", () => {
		expect(validateProvider(provider({ api_key: "" }), false, true)).toEqual({});
		expect(validateProvider(provider({ api_key: "", remove_key: true }), false, true).api_key).toBeDefined();
	});

	it("knows a new address removes the stored key unless a new key is typed", () => {
		expect(dropsStoredKey(provider({ api_key: "", api_base: "http://other:8000" }), "http://box:8000", true)).toBe(true);
		expect(dropsStoredKey(provider({ api_key: "", api_base: "http://box:8000/ " }), "http://box:8000", true)).toBe(false);
		expect(dropsStoredKey(provider({ api_key: "sk-new", api_base: "http://other:8000" }), "http://box:8000", true)).toBe(false);
		expect(dropsStoredKey(provider({ api_key: "", api_base: "http://other:8000" }), "http://box:8000", false)).toBe(false);
		expect(validateProvider(provider({ api_key: "", api_base: "" }), false, true, "http://box:8000").api_key).toBeDefined();
	});

	it("takes only full http(s) addresses", () => {
		for (const bad of ["localhost:11434", "ftp://host", "http://exa mple.com"]) expect(validateProvider(provider({ api_base: bad }), true, false).api_base).toBeDefined();
		expect(validateProvider(provider({ api_base: "https://llm.internal/v1" }), true, false)).toEqual({});
	});
});

describe("validateModel", () => {
	it("needs a model id without spaces", () => {
		expect(validateModel(model())).toEqual({});
		expect(validateModel(model({ model_name: "" })).model_name).toBeDefined();
		expect(validateModel(model({ model_name: "gpt 4o" })).model_name).toMatch(/no spaces/);
	});

	it("checks prices only when they are the model's own", () => {
		expect(validateModel(model({ input_cost_per_1m_tokens: -1 }))).toEqual({});
		const errors = validateModel(model({ use_custom_pricing: 1, input_cost_per_1m_tokens: -1, output_cost_per_1m_tokens: Number.NaN }));
		expect(Object.keys(errors).sort()).toEqual(["input_cost_per_1m_tokens", "output_cost_per_1m_tokens"]);
	});
});

describe("a model id used by another provider", () => {
	it("says how to name it with its provider in front", () => {
		const draft: ModelDraft = { model_name: "gpt-4o-mini", provider: "OpenAI", disabled: 0, use_custom_pricing: 0, input_cost_per_1m_tokens: 0, output_cost_per_1m_tokens: 0, cached_input_cost_per_1m_tokens: 0, fallback_models: "" };
		expect(validateModel(draft, new Map([["gpt-4o-mini", "Azure West"]])).model_name).toBe("gpt-4o-mini is already a model of Azure West, and each model id is used once. Write this one with its provider in front: openai/gpt-4o-mini.");
		expect(validateModel({ ...draft, model_name: "openai/gpt-4o-mini" }, new Map([["gpt-4o-mini", "Azure West"]]))).toEqual({});
		expect(prefixOf("My Local Server")).toBe("my-local-server");
	});
});
