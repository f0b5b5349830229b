import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Checkbox, Field, Form, Input } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { OVERVIEW, saveSettings, useIntegrationSettings, type Service } from "./api";
import { credentialLabel, draftFrom, emptyDraft, hasErrors, newRecipient, payload, validate, type Draft, type DraftErrors, type RecipientDraft } from "./rules";

type FormProps = { service: Service; name: string | null; agents: string[]; onDone: (saved: string) => void };

/** Add settings for a service, or change saved ones (loaded first). */
export function IntegrationForm({ service, name, agents, onDone }: FormProps) {
	const stored = useIntegrationSettings(name);
	if (!name) return <Editor service={service} name={null} agents={agents} initial={emptyDraft()} onDone={onDone} />;
	if (stored.isPending) return <Loading />;
	if (stored.isError) return <ErrorNote error={stored.error} />;
	return <Editor service={service} name={name} agents={agents} initial={draftFrom(stored.data)} onDone={onDone} />;
}

function Editor({ service, name, agents, initial, onDone }: FormProps & { initial: Draft }) {
	const queryClient = useQueryClient();
	const [draft, setDraft] = useState<Draft>(initial);
	const [errors, setErrors] = useState<DraftErrors>({ credentials: {}, recipients: {} });
	const save = useMutation({
		mutationFn: () => saveSettings(payload(draft, service, name)),
		onSuccess: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: OVERVIEW });
			queryClient.removeQueries({ queryKey: ["integration", saved.name] });
			onDone(saved.name);
		},
	});
	const update = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
	const setRecipient = (key: string, change: Partial<RecipientDraft>) =>
		update({ recipients: draft.recipients.map((item) => (item.key === key ? { ...item, ...change } : item)) });
	const idLabel = service.recipient_label || "Recipient ID";
	return (
		<Form
			onSubmit={() => {
				const found = validate(draft, service, !name);
				setErrors(found);
				if (!hasErrors(found)) save.mutate();
			}}
		>
			<Field label="Name" error={errors.title} hint={name ? undefined : "Agents can name these settings when a service has more than one, e.g. Team chat."}>
				{(props) => <Input value={draft.title} disabled={Boolean(name)} onChange={(e) => update({ title: e.target.value })} {...props} />}
			</Field>
			{service.credentials.map((spec) => {
				const isSet = Boolean(draft.stored[spec.key]);
				const secret = spec.type !== "text";
				return (
					<div key={spec.key} className="grid gap-1.5">
						<Field label={credentialLabel(spec)} error={errors.credentials[spec.key]} hint={isSet && secret ? "Set. Leave empty to keep it, or type a new one to replace it." : spec.help}>
							{(props) => (
								<Input
									type={secret ? "password" : "text"}
									autoComplete="off"
									placeholder={isSet && secret ? "•••••••• (set)" : ""}
									value={draft.credentials[spec.key] ?? ""}
									onChange={(e) => update({ credentials: { ...draft.credentials, [spec.key]: e.target.value } })}
									{...props}
								/>
							)}
						</Field>
						{isSet && !spec.required ? (
							<Checkbox
								label={`Remove the stored ${credentialLabel(spec).toLowerCase()}`}
								checked={draft.clear.includes(spec.key)}
								onChange={(e) => update({ clear: e.target.checked ? [...draft.clear, spec.key] : draft.clear.filter((key) => key !== spec.key) })}
							/>
						) : null}
					</div>
				);
			})}
			<fieldset className="grid gap-2">
				<legend className="text-sm font-medium text-slate-800">Recipients</legend>
				<p className="text-xs text-slate-500">The names agents use when they send a message, and who or where each one is.</p>
				{draft.recipients.map((item, index) => (
					<RecipientRow
						key={item.key}
						item={item}
						number={index + 1}
						idLabel={idLabel}
						webhook={service.name === "webhook"}
						error={errors.recipients[item.key]}
						onChange={(change) => setRecipient(item.key, change)}
						onRemove={() => update({ recipients: draft.recipients.filter((other) => other.key !== item.key) })}
					/>
				))}
				<Button variant="outline" size="sm" className="justify-self-start" onClick={() => update({ recipients: [...draft.recipients, newRecipient()] })}>
					<Plus className="h-4 w-4" aria-hidden />
					Add a recipient
				</Button>
			</fieldset>
			<AllowedAgents agents={agents} chosen={draft.agents} onChange={(chosen) => update({ agents: chosen })} />
			<Checkbox label="Turned on" checked={draft.is_active} onChange={(e) => update({ is_active: e.target.checked })} />
			<Checkbox label="Use these settings when a message names only the service" checked={draft.is_default} onChange={(e) => update({ is_default: e.target.checked })} />
			{save.isError ? <ErrorNote error={save.error} /> : null}
			<div className="flex justify-end">
				<Button type="submit" disabled={save.isPending}>
					{save.isPending ? "Saving…" : "Save"}
				</Button>
			</div>
		</Form>
	);
}

type AllowedProps = { agents: string[]; chosen: string[]; onChange: (chosen: string[]) => void };

/** The agents these settings are kept for; none ticked: every agent with the send_message tool. */
function AllowedAgents({ agents, chosen, onChange }: AllowedProps) {
	const listed = [...agents, ...chosen.filter((agent) => !agents.includes(agent))];
	return (
		<fieldset className="grid gap-2">
			<legend className="text-sm font-medium text-slate-800">Agents that may send</legend>
			<p className="text-xs text-slate-500">
				Tick agents to keep these settings for them alone. With none ticked, every agent with the send_message tool can send through them. Flows send only through
				settings with none ticked.
			</p>
			{listed.length ? (
				<div className="grid gap-1 sm:grid-cols-2">
					{listed.map((agent) => (
						<Checkbox
							key={agent}
							label={agent}
							checked={chosen.includes(agent)}
							onChange={(e) => onChange(e.target.checked ? [...chosen, agent] : chosen.filter((other) => other !== agent))}
						/>
					))}
				</div>
			) : (
				<p className="text-sm text-slate-600">There are no agents yet, so every agent you make can send through these settings until you tick some here.</p>
			)}
		</fieldset>
	);
}

type RowProps = { item: RecipientDraft; number: number; idLabel: string; webhook: boolean; error: string | undefined; onChange: (change: Partial<RecipientDraft>) => void; onRemove: () => void };

function RecipientRow({ item, number, idLabel, webhook, error, onChange, onRemove }: RowProps) {
	const who = item.recipient_name.trim() || `recipient ${number}`;
	return (
		<div role="group" aria-label={`Recipient ${number}`} className="grid gap-2 rounded-md border border-slate-200 p-3">
			<div className="grid gap-2 sm:grid-cols-2">
				<Field label="Recipient name">{(props) => <Input value={item.recipient_name} onChange={(e) => onChange({ recipient_name: e.target.value })} {...props} />}</Field>
				<Field label={webhook ? "Channel (optional)" : idLabel}>{(props) => <Input value={item.recipient_id} onChange={(e) => onChange({ recipient_id: e.target.value })} {...props} />}</Field>
			</div>
			{webhook ? (
				<Field label="Own webhook URL (optional)" hint={item.has_webhook_url ? "Set. Leave empty to keep it." : "Posts to this recipient through its own webhook instead of the one above."}>
					{(props) => (
						<Input type="password" autoComplete="off" placeholder={item.has_webhook_url ? "•••••••• (set)" : ""} value={item.webhook_url} onChange={(e) => onChange({ webhook_url: e.target.value })} {...props} />
					)}
				</Field>
			) : null}
			{webhook && item.has_webhook_url ? <Checkbox label={`Remove the stored webhook URL of ${who}`} checked={item.clear_webhook_url} onChange={(e) => onChange({ clear_webhook_url: e.target.checked })} /> : null}
			{error ? <p className="text-sm text-red-600">{error}</p> : null}
			<Button variant="ghost" size="sm" className="justify-self-end" aria-label={`Remove ${who}`} onClick={onRemove}>
				<Trash2 className="h-4 w-4" aria-hidden />
				Remove
			</Button>
		</div>
	);
}
