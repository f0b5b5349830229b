import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, Plus, XCircle } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { testConnection, useProviders, type ModelRow, type ProviderRow } from "./api";
import { ModelForm, ProviderForm } from "./ProviderForms";

type Editing = { kind: "provider"; provider: ProviderRow | null } | { kind: "model"; provider: string; model: ModelRow | null } | null;

function ConnectionTest({ provider }: { provider: ProviderRow }) {
	const test = useMutation({ mutationFn: () => testConnection(provider.name) });
	const result = test.data;
	const why = useId();
	const noModel = !provider.models.length;
	return (
		<div className="grid gap-1">
			<Button variant="outline" size="sm" disabled={test.isPending || noModel} aria-describedby={noModel ? why : undefined} onClick={() => test.mutate()}>
				{test.isPending ? "Testing…" : "Test connection"}
			</Button>
			{noModel ? (
				<p id={why} className="max-w-[14rem] text-xs text-slate-600">
					Add a model first: the test asks one of its models to answer.
				</p>
			) : null}
			<div aria-live="polite" className="text-sm">
				{result?.ok ? (
					<p className="flex items-center gap-1 text-green-700">
						<CheckCircle2 className="h-4 w-4" aria-hidden /> Connected: {result.model} answered in {result.seconds} s.
					</p>
				) : null}
				{result && !result.ok ? (
					<p className="flex items-start gap-1 text-red-700">
						<XCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden /> {result.message}
					</p>
				) : null}
				{test.isError ? <ErrorNote error={test.error} /> : null}
			</div>
		</div>
	);
}

function ProviderCard({ provider, onEdit }: { provider: ProviderRow; onEdit: (editing: Editing) => void }) {
	return (
		<article className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label={provider.name}>
			<header className="flex flex-wrap items-start gap-3">
				<div className="min-w-0 flex-1">
					<h2 className="text-base font-semibold">{provider.name}</h2>
					<p className="text-sm text-slate-600">
						Key: {provider.key_set ? "set" : "not set"}
						{provider.api_base ? ` · Server: ${provider.api_base}` : ""}
					</p>
				</div>
				<Button variant="ghost" size="sm" onClick={() => onEdit({ kind: "provider", provider })}>
					Edit
				</Button>
				<ConnectionTest provider={provider} />
			</header>
			<div className="grid gap-1">
				<h3 className="text-sm font-medium text-slate-700">Models</h3>
				{provider.models.length ? (
					<ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
						{provider.models.map((model) => (
							<li key={model.name} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
								<span className="font-medium">{model.name}</span>
								{model.disabled ? <span className="text-xs text-slate-500">disabled</span> : null}
								<span className="ml-auto text-xs text-slate-600">
									{model.use_custom_pricing ? `$${model.input_cost_per_1m_tokens} in / $${model.output_cost_per_1m_tokens} out per million tokens` : "Standard prices"}
								</span>
								<Button variant="ghost" size="sm" aria-label={`Edit ${model.name}`} onClick={() => onEdit({ kind: "model", provider: provider.name, model })}>
									Edit
								</Button>
							</li>
						))}
					</ul>
				) : (
					<p className="text-sm text-slate-600">No models yet. Add one to use this provider.</p>
				)}
				<Button variant="outline" size="sm" className="justify-self-start" onClick={() => onEdit({ kind: "model", provider: provider.name, model: null })}>
					<Plus className="h-4 w-4" aria-hidden />
					Add model to {provider.name}
				</Button>
			</div>
		</article>
	);
}

export default function ProvidersPage() {
	const providers = useProviders();
	const [editing, setEditing] = useState<Editing>(null);
	const close = () => setEditing(null);
	const addProvider = (
		<Button onClick={() => setEditing({ kind: "provider", provider: null })}>
			<Plus className="h-4 w-4" aria-hidden />
			Add provider
		</Button>
	);
	return (
		<div className="mx-auto grid max-w-4xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">Providers and models</h1>
				{providers.data?.length ? <span className="ml-auto">{addProvider}</span> : null}
			</header>
			{providers.isPending ? <Loading /> : null}
			{providers.isError ? <ErrorNote error={providers.error} /> : null}
			{providers.data && !providers.data.length ? (
				<Empty title="Connect Huf to an AI model">
					<p className="mb-4">Agents need a provider such as OpenAI, Anthropic or a model server on your network. Add one to get started.</p>
					{addProvider}
				</Empty>
			) : null}
			{providers.data?.map((provider) => <ProviderCard key={provider.name} provider={provider} onEdit={setEditing} />)}
			<Dialog open={editing?.kind === "provider"} onOpenChange={(open) => !open && close()} title={editing?.kind === "provider" && editing.provider ? `Edit ${editing.provider.name}` : "Add a provider"}>
				{editing?.kind === "provider" ? <ProviderForm provider={editing.provider} onDone={close} /> : null}
			</Dialog>
			<Dialog open={editing?.kind === "model"} onOpenChange={(open) => !open && close()} title={editing?.kind === "model" ? (editing.model ? `Edit ${editing.model.name} (${editing.provider})` : `Add a model to ${editing.provider}`) : ""}>
				{editing?.kind === "model" ? <ModelForm provider={editing.provider} model={editing.model} onDone={close} /> : null}
			</Dialog>
		</div>
	);
}
