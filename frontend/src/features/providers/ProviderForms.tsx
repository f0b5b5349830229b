import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Checkbox, Field, Form, Input, NumberInput, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { saveDoc } from "../../lib/api";
import type { FieldErrors } from "../../lib/rules";
import { useProviders, type ModelRow, type ProviderRow } from "./api";
import { dropsStoredKey, validateModel, validateProvider, type ModelDraft, type ProviderDraft } from "./validation";

function useSave(doctype: string, name: string | undefined, onDone: (saved: string) => void) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (doc: Record<string, unknown>) => saveDoc<{ name: string }>(doctype, doc, name),
		onSuccess: async (doc) => {
			await queryClient.invalidateQueries({ queryKey: ["providers"] });
			onDone(doc.name);
		},
	});
}

/** The save error, if any, and the submit button. */
function SaveFooter({ save, label }: { save: ReturnType<typeof useSave>; label: string }) {
	return (
		<>
			{save.isError ? <ErrorNote error={save.error} /> : null}
			<div className="flex justify-end">
				<Button type="submit" disabled={save.isPending}>
					{save.isPending ? "Saving…" : label}
				</Button>
			</div>
		</>
	);
}

/** Add or edit a provider. The key is write-only: once stored it is never shown again, only "set". */
export function ProviderForm({ provider, onDone }: { provider: ProviderRow | null; onDone: (saved: string) => void }) {
	const [draft, setDraft] = useState<ProviderDraft>({ provider_name: provider?.name ?? "", api_key: "", api_base: provider?.api_base ?? "", description: provider?.description ?? "", remove_key: false });
	const [errors, setErrors] = useState<FieldErrors<ProviderDraft>>({});
	const save = useSave("AI Provider", provider?.name, onDone);
	const set = (key: keyof ProviderDraft, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));
	return (
		<Form
			onSubmit={() => {
				const found = validateProvider(draft, !provider, provider?.key_set ?? false, provider?.api_base ?? null);
				setErrors(found);
				if (Object.keys(found).length) return;
				const key = draft.api_key.trim() ? { api_key: draft.api_key.trim() } : draft.remove_key ? { api_key: "" } : {};
				save.mutate({ provider_name: draft.provider_name.trim(), api_base: draft.api_base.trim(), description: draft.description, ...key });
			}}
		>
			<Field label="Name" error={errors.provider_name} hint={provider ? undefined : "OpenAI, Anthropic, Ollama, or any name for a server that speaks OpenAI's API."}>
				{(props) => <Input value={draft.provider_name} disabled={Boolean(provider)} onChange={(e) => set("provider_name", e.target.value)} {...props} />}
			</Field>
			<Field label="API key" error={errors.api_key} hint={provider?.key_set ? "A key is set. Type a new one to replace it." : "Stored encrypted; it is never shown again."}>
				{(props) => <Input type="password" autoComplete="off" placeholder={provider?.key_set ? "•••••••• (set)" : ""} value={draft.api_key} onChange={(e) => set("api_key", e.target.value)} {...props} />}
			</Field>
			{provider?.key_set ? <Checkbox label="Remove the stored key" checked={draft.remove_key} onChange={(e) => set("remove_key", e.target.checked)} /> : null}
			<Field
				label="Server address"
				error={errors.api_base}
				hint={
					dropsStoredKey(draft, provider?.api_base ?? null, provider?.key_set ?? false)
						? "Changing the address removes the stored key. Type the key again to keep using it."
						: "Only for a server on your network, e.g. http://localhost:11434 for Ollama. Leave empty for OpenAI or Anthropic."
				}
			>
				{(props) => <Input value={draft.api_base} onChange={(e) => set("api_base", e.target.value)} {...props} />}
			</Field>
			<Field label="Notes">{(props) => <Textarea rows={2} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}</Field>
			<SaveFooter save={save} label="Save provider" />
		</Form>
	);
}

/** Add or edit a model of a provider, with its own prices when the standard ones don't apply. */
export function ModelForm({ provider, model, onDone }: { provider: string; model: ModelRow | null; onDone: (saved: string) => void }) {
	// Model ids are unique across providers: which provider has each one.
	const providers = useProviders();
	const taken = new Map((providers.data ?? []).flatMap((row) => row.models.map((each) => [each.name, row.name] as const)));
	const [draft, setDraft] = useState<ModelDraft>({
		model_name: model?.name ?? "",
		provider,
		disabled: model?.disabled ?? 0,
		use_custom_pricing: model?.use_custom_pricing ?? 0,
		input_cost_per_1m_tokens: model?.input_cost_per_1m_tokens ?? 0,
		output_cost_per_1m_tokens: model?.output_cost_per_1m_tokens ?? 0,
		cached_input_cost_per_1m_tokens: model?.cached_input_cost_per_1m_tokens ?? 0,
		fallback_models: model?.fallback_models ?? "",
	});
	const [errors, setErrors] = useState<FieldErrors<ModelDraft>>({});
	const save = useSave("AI Model", model?.name, onDone);
	const set = (key: keyof ModelDraft, value: string | number) => setDraft((d) => ({ ...d, [key]: value }));
	const price = (key: "input_cost_per_1m_tokens" | "output_cost_per_1m_tokens" | "cached_input_cost_per_1m_tokens", label: string) => (
		<Field label={label} error={errors[key]}>
			{(props) => <NumberInput min="0" step="0.01" value={draft[key]} onValue={(value) => set(key, value)} {...props} />}
		</Field>
	);
	return (
		<Form
			onSubmit={() => {
				const found = validateModel(draft, model ? new Map() : taken);
				setErrors(found);
				if (!Object.keys(found).length) save.mutate({ ...draft, model_name: draft.model_name.trim() });
			}}
		>
			<Field label="Model id" error={errors.model_name} hint={`Exactly as ${provider} names it, e.g. gpt-4o-mini or claude-3-5-sonnet-latest.`}>
				{(props) => <Input value={draft.model_name} disabled={Boolean(model)} onChange={(e) => set("model_name", e.target.value)} {...props} />}
			</Field>
			<Checkbox label="Disabled (agents can't use it)" checked={Boolean(draft.disabled)} onChange={(e) => set("disabled", e.target.checked ? 1 : 0)} />
			<Checkbox label="Use my own prices" checked={Boolean(draft.use_custom_pricing)} onChange={(e) => set("use_custom_pricing", e.target.checked ? 1 : 0)} />
			{draft.use_custom_pricing ? (
				<div className="grid gap-4 sm:grid-cols-3">
					{price("input_cost_per_1m_tokens", "Input, per million tokens ($)")}
					{price("output_cost_per_1m_tokens", "Output, per million tokens ($)")}
					{price("cached_input_cost_per_1m_tokens", "Cached input, per million ($)")}
				</div>
			) : null}
			<Field label="Fallback models" hint="One model id per line, tried in order only when the provider says this model doesn't exist.">
				{(props) => <Textarea rows={2} value={draft.fallback_models} onChange={(e) => set("fallback_models", e.target.value)} {...props} />}
			</Field>
			<SaveFooter save={save} label="Save model" />
		</Form>
	);
}
