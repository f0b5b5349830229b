import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { useUnsavedGuard } from "../../components/unsaved";
import { Checkbox, Field, Form, Input, NumberInput, Select, Textarea } from "../../components/ui/field";
import { EditorHeader, Section } from "../../components/ui/section";
import { ErrorNote, Loading } from "../../components/ui/status";
import { getDoc, getList, saveDoc } from "../../lib/api";
import { useDraftForm } from "../../lib/form";
import { useCan } from "../../lib/me";
import { useProviders } from "../providers/api";
import { SetupDialog } from "../providers/SetupDialog";
import { DraftPanel } from "./DraftPanel";
import { KnowledgeSection } from "./KnowledgeSection";
import { ListEditor } from "./ListEditor";
import type { PromptKind, PromptRow } from "../prompts/api";
import { McpSection } from "./McpSection";
import { PromptChoice, promptFields, type PromptChoiceValue } from "./PromptChoice";
import { TOOL_FIELDS, ToolPicker, type ToolRow } from "./ToolPicker";
import { TryPanel } from "./TryPanel";
import { VoiceSection } from "./VoiceSection";
import { emptyAgent, fieldOfServerError, validateAgent, type AgentDraft, type KnowledgeBinding, type McpBinding } from "./validation";

const KEYS = Object.keys(emptyAgent()) as (keyof AgentDraft)[];
/** The agent's fields that hold a `T`. */
type KeyOf<T> = { [K in keyof AgentDraft]-?: AgentDraft[K] extends T ? K : never }[keyof AgentDraft];

function pick(doc: Record<string, unknown>): AgentDraft {
	const draft = emptyAgent() as Record<string, unknown>;
	for (const key of KEYS) if (doc[key] !== undefined && doc[key] !== null) draft[key] = doc[key];
	draft.modified = doc.modified;
	draft.agent_tool = ((doc.agent_tool as { tool: string }[]) ?? []).map(({ tool }) => ({ tool }));
	draft.agent_users = ((doc.agent_users as { user: string }[]) ?? []).map(({ user }) => ({ user }));
	draft.agent_roles = ((doc.agent_roles as { role: string }[]) ?? []).map(({ role }) => ({ role }));
	draft.agent_knowledge = ((doc.agent_knowledge as KnowledgeBinding[]) ?? []).map(({ knowledge_source, mode, priority, token_budget }) => ({ knowledge_source, mode, priority, token_budget }));
	draft.agent_mcp_server = ((doc.agent_mcp_server as McpBinding[]) ?? []).map(({ mcp_server, enabled, tool_count }) => ({ mcp_server, enabled: enabled ? 1 : 0, tool_count: tool_count ?? null }));
	return draft as AgentDraft;
}

/** The agent's instructions (its own, or a prompt from the library), or its summary instructions. */
function promptOf(draft: AgentDraft, which: "main" | "summary"): PromptChoiceValue {
	return which === "main"
		? { mode: draft.prompt_mode, template: draft.prompt_template, locked: draft.prompt_version_locked, version: draft.template_version_at_attach }
		: { mode: draft.summary_prompt_mode, template: draft.summary_prompt_template, locked: draft.summary_prompt_version_locked, version: draft.summary_template_version_at_attach };
}

export default function AgentEditor() {
	const { name = "new" } = useParams();
	const isNew = name === "new";
	const loaded = useQuery({ queryKey: ["agent", name], queryFn: () => getDoc<Record<string, unknown>>("Agent", name), enabled: !isNew });
	const providers = useProviders();
	// The form starts afresh from the saved document, so "Saved." is remembered out here.
	const [saved, setSaved] = useState(false);
	const seesTools = useCan()("tool.read");
	const tools = useQuery({ queryKey: ["tools"], queryFn: () => getList<ToolRow>("Agent Tool Function", { fields: TOOL_FIELDS, order_by: "name asc", limit: 1000 }), enabled: seesTools });
	if ((!isNew && loaded.isPending) || providers.isPending || (seesTools && tools.isPending)) return <Loading />;
	const error = loaded.error ?? providers.error ?? tools.error;
	if (error) return <div className="p-6"><ErrorNote error={error} /></div>;
	const initial = isNew ? emptyAgent() : pick(loaded.data ?? {});
	return <Editor key={`${name}:${initial.modified ?? ""}`} isNew={isNew} initial={initial} providers={providers.data ?? []} tools={tools.data ?? []} saved={saved} onSaved={setSaved} />;
}

type EditorProps = {
	isNew: boolean;
	initial: AgentDraft;
	providers: NonNullable<ReturnType<typeof useProviders>["data"]>;
	tools: ToolRow[];
	saved: boolean;
	onSaved: (saved: boolean) => void;
};

function Editor({ isNew, initial, providers, tools, saved, onSaved }: EditorProps) {
	const can = useCan();
	const canWrite = can("agent.write");
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const [setupOpen, setSetupOpen] = useState(false);

	// Only models of providers that can be called are offered.
	const models = useMemo(() => providers.filter((p) => p.ready).flatMap((p) => p.models.filter((m) => !m.disabled)), [providers]);
	const providerOf = (model: string) => models.find((m) => m.name === model)?.provider;
	// The newest version of a picked prompt, from the list the picker showed.
	const newestOf = (kind: PromptKind, name: string) => queryClient.getQueryData<PromptRow[]>(["prompts", kind])?.find((row) => row.name === name)?.version;

	const { draft, setDraft, set, errors, setErrors, formError, dirty, save, submit } = useDraftForm({
		initial,
		validate: (draft) => validateAgent(draft, providerOf),
		save: (draft) => {
			const { modified, ...fields } = draft;
			const mainPrompt = promptOf(draft, "main");
			const summaryPrompt = promptOf(draft, "summary");
			const main = promptFields(mainPrompt, newestOf("prompt", draft.prompt_template));
			// Summary instructions from the library only matter to an agent that summarizes.
			const unused = draft.context_strategy !== "Summarize" && !draft.summary_prompt_template;
			const summary = promptFields(unused ? { ...summaryPrompt, mode: "Local" } : summaryPrompt, newestOf("summary", draft.summary_prompt_template));
			const doc = {
				...fields,
				prompt_mode: main.mode, prompt_template: main.template, prompt_version_locked: main.locked, template_version_at_attach: main.version,
				summary_prompt_mode: summary.mode, summary_prompt_template: summary.template, summary_prompt_version_locked: summary.locked, summary_template_version_at_attach: summary.version,
				provider: providerOf(draft.model) ?? draft.provider,
				...(isNew ? {} : { modified }),
			};  // prettier-ignore
			return saveDoc<Record<string, unknown>>("Agent", doc, isNew ? undefined : initial.agent_name);
		},
		onSaved: async (doc) => {
			await queryClient.invalidateQueries({ queryKey: ["agents"] });
			queryClient.setQueryData(["agent", String(doc.name)], doc);
			onSaved(true);
			justSaved.current = true;
			if (isNew) navigate(`/agents/${encodeURIComponent(String(doc.name))}`, { replace: true, flushSync: true });
		},
		what: "agent",
		fieldOf: (error) => fieldOfServerError(error.title, error.kind),
	});
	const { justSaved, prompt: leavePrompt } = useUnsavedGuard(dirty);
	const mainPrompt = promptOf(draft, "main");
	const summaryPrompt = promptOf(draft, "summary");

	const number = (key: KeyOf<number>, label: string, hint?: string, step = "1") => (
		<Field label={label} error={errors[key]} hint={hint}>
			{(props) => <NumberInput step={step} value={draft[key]} onValue={(value) => set(key, value)} {...props} />}
		</Field>
	);
	const check = (key: KeyOf<0 | 1>, label: string) => <Checkbox label={label} checked={Boolean(draft[key])} onChange={(e) => set(key, e.target.checked ? 1 : 0)} />;

	return (
		<div className="grid gap-4 p-4 md:p-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
			<Form label="Agent settings" className="grid content-start gap-4" onSubmit={submit}>
				<EditorHeader title={isNew ? "New agent" : initial.agent_name} dirty={dirty} saving={save.isPending} canSave={canWrite} />
				{!canWrite ? <p className="text-sm text-slate-600">You can look at this agent; changing agents takes a role with that permission.</p> : null}
				{formError ? <ErrorNote error={formError} /> : null}
				{saved && !dirty ? <p role="status" className="text-sm text-green-700">Saved.</p> : null}
				{canWrite ? (
					<DraftPanel
						agent={isNew ? null : initial.agent_name}
						now={{ instructions: draft.instructions, model: draft.model, tools: draft.agent_tool.map((row) => row.tool) }}
						onAccept={(drafted) => {
							if (isNew && drafted.agent_name && !draft.agent_name) set("agent_name", drafted.agent_name);
							if (drafted.description && !draft.description) set("description", drafted.description);
							set("instructions", drafted.instructions);
							set("model", drafted.model);
							set("agent_tool", drafted.tools.map((tool) => ({ tool })));
						}}
					/>
				) : null}
				<fieldset disabled={!canWrite} className="grid min-w-0 gap-4">
					<Section title="About">
						<Field label="Name" error={errors.agent_name} hint={isNew ? undefined : "The name can't be changed after the agent is created."}>
							{(props) => <Input value={draft.agent_name} disabled={!isNew} onChange={(e) => set("agent_name", e.target.value)} {...props} />}
						</Field>
						<Field label="Description" hint="Shown to people choosing an agent, and to other agents that may call this one.">
							{(props) => <Textarea rows={2} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}
						</Field>
						{check("disabled", "Disabled (nobody can run it)")}
					</Section>

					<Section title="Model">
						{models.length ? (
							<Field label="Model" error={errors.model}>
								{(props) => (
									<Select value={draft.model} onChange={(e) => set("model", e.target.value)} {...props}>
										<option value="">Choose a model…</option>
										{providers.filter((p) => p.ready).map((p) => (
											<optgroup key={p.name} label={p.name}>
												{p.models.filter((m) => !m.disabled).map((m) => (
													<option key={m.name} value={m.name}>{m.name}</option>
												))}
											</optgroup>
										))}
									</Select>
								)}
							</Field>
						) : (
							<ErrorNote
								error="No model is ready yet. Set up a provider and add a model first."
								action={
									can("provider.write") ? (
										<Button variant="outline" size="sm" onClick={() => setSetupOpen(true)}>
											Set up a provider
										</Button>
									) : null
								}
							/>
						)}
						<div className="grid gap-4 sm:grid-cols-2">
							{number("temperature", "Temperature", "0 gives the most predictable answers, 2 the most varied.", "0.1")}
							{number("top_p", "Top P", "Above 0 and at most 1. Leave at 1 unless you know you need it.", "0.05")}
						</div>
						{check("enable_prompt_caching", "Cache the instructions and the conversation so far, to pay less for what the model reads again")}
						<p className="-mt-2 text-sm text-slate-600">
							For models with a cached price (such as Anthropic's Claude) that cache only when asked; OpenAI and DeepSeek cache by themselves. The saving shows as cached tokens and a lower cost on each run.
						</p>
					</Section>

					<Section title="Instructions">
						<PromptChoice
							kind="prompt"
							value={mainPrompt}
							error={errors.prompt_template}
							onChange={(value) => {
								setDraft((current) => ({ ...current, prompt_mode: value.mode, prompt_template: value.template, prompt_version_locked: value.locked, template_version_at_attach: value.version }));
								setErrors(({ prompt_template: _, ...rest }) => rest);
							}}
						>
							<Field label="What the agent should do" hint="Written to the model before every conversation: its role, tone, rules and what to avoid.">
								{(props) => <Textarea rows={14} className="font-mono" value={draft.instructions} onChange={(e) => set("instructions", e.target.value)} {...props} />}
							</Field>
						</PromptChoice>
					</Section>

					<Section title="Tools">
						{can("tool.read") ? (
							<ToolPicker tools={tools} selected={draft.agent_tool.map((row) => row.tool)} error={errors.agent_tool} onChange={(names) => set("agent_tool", names.map((tool) => ({ tool })))} />
						) : (
							<Names label="Tools" names={draft.agent_tool.map((row) => row.tool)} />
						)}
					</Section>

					<Section title="Tool servers">
						{can("tool.mcp.write") ? (
							<McpSection rows={draft.agent_mcp_server} error={errors.agent_mcp_server} onChange={(rows) => set("agent_mcp_server", rows)} />
						) : (
							<Names label="Tool servers" names={draft.agent_mcp_server.map((row) => row.mcp_server)} />
						)}
					</Section>

					<Section title="Knowledge">
						{can("knowledge.read") ? (
							<KnowledgeSection
								rows={draft.agent_knowledge}
								maxTokens={draft.max_knowledge_tokens}
								error={errors.agent_knowledge}
								maxError={errors.max_knowledge_tokens}
								onChange={(rows) => set("agent_knowledge", rows)}
								onMaxChange={(value) => set("max_knowledge_tokens", value)}
							/>
						) : (
							<Names label="Knowledge sources" names={draft.agent_knowledge.map((row) => row.knowledge_source)} />
						)}
					</Section>

					<Section title="Voice and images">
						<VoiceSection
							value={{ stt_model: draft.stt_model, tts_model: draft.tts_model, tts_voice: draft.tts_voice, image_model: draft.image_model }}
							models={models}
							errors={errors}
							agent={isNew ? null : initial.agent_name}
							onChange={(key, value) => set(key, value)}
						/>
					</Section>

					<Section title="Who can use it">
						{check("allow_chat", "Open for chat")}
						{check("allow_guest", "Visitors who are not signed in may use it")}
						{check("allow_file_attachments", "People may attach files (images, PDF, Word, Excel, PowerPoint, text) to their messages")}
						<ListEditor label="People" hint="Leave both lists empty to let everyone with access to Huf use the agent." doctype="User" values={draft.agent_users.map((r) => r.user)} onChange={(values) => set("agent_users", values.map((user) => ({ user })))} />
						<ListEditor label="Roles" doctype="Role" values={draft.agent_roles.map((r) => r.role)} onChange={(values) => set("agent_roles", values.map((role) => ({ role })))} />
					</Section>

					<Section title="Conversations">
						{check("persist_conversation", "Remember conversations")}
						{check("autonaming_of_conversation_title", "Name new conversations automatically")}
						<Field label="What the model sees of earlier messages">
							{(props) => (
								<Select value={draft.context_strategy} onChange={(e) => set("context_strategy", e.target.value as AgentDraft["context_strategy"])} {...props}>
									<option value="FIFO">The most recent messages</option>
									<option value="Summarize">A summary of older messages, then the recent ones</option>
									<option value="None">The whole conversation</option>
								</Select>
							)}
						</Field>
						<div className="grid gap-4 sm:grid-cols-2">
							{draft.context_strategy !== "None" ? number("history_limit", "Messages to keep") : null}
							{draft.context_strategy === "Summarize" ? number("summary_ratio", "Share of history to summarize", "0.7 folds the oldest 70% into a summary.", "0.05") : null}
						</div>
						{draft.context_strategy === "Summarize" ? (
							<>
								<Field label="Model that writes summaries" error={errors.summary_model} hint="A cheaper model can write summaries. Empty: the agent's own model.">
									{(props) => (
										<Select value={draft.summary_model} onChange={(e) => set("summary_model", e.target.value)} {...props}>
											<option value="">The agent's own model</option>
											{models.map((m) => (
												<option key={m.name} value={m.name}>{`${m.name} (${m.provider})`}</option>
											))}
										</Select>
									)}
								</Field>
								<PromptChoice
									kind="summary"
									value={summaryPrompt}
									error={errors.summary_prompt_template}
									onChange={(value) => {
										setDraft((current) => ({
											...current,
											summary_prompt_mode: value.mode,
											summary_prompt_template: value.template,
											summary_prompt_version_locked: value.locked,
											summary_template_version_at_attach: value.version,
										}));
										setErrors(({ summary_prompt_template: _, ...rest }) => rest);
									}}
								>
									<Field label="How to summarize" hint="Optional instructions for the summary. {summary_data} stands for the messages being summarized.">
										{(props) => <Textarea rows={4} className="font-mono" value={draft.summary_prompt} onChange={(e) => set("summary_prompt", e.target.value)} {...props} />}
									</Field>
								</PromptChoice>
							</>
						) : null}
						{check("persist_user_history", "Runs started by documents and schedules keep a history per person")}
						{check("enable_conversation_data", "The agent may remember values for the rest of a conversation")}
						{check("inject_conversation_data", "Show the remembered values to the agent on every turn")}
					</Section>

					<Section title="Limits">
						<div className="grid gap-4 sm:grid-cols-3">
							{number("max_turns", "Rounds per answer", "How many times the agent may use tools before it must answer (1–50).")}
							{number("max_context_chars", "Longest tool result (characters)", "0 means no limit.")}
							{number("max_agent_depth", "How deep agents may call agents")}
						</div>
						{check("run_immediately", "Run inside the request instead of in the background")}
					</Section>
				</fieldset>
			</Form>
			{can("agent.run") ? (
				<aside className="xl:sticky xl:top-4 xl:h-[calc(100vh-2rem)]">
					<TryPanel agent={isNew ? null : initial.agent_name} dirty={dirty} />
				</aside>
			) : null}
			<SetupDialog
				open={setupOpen}
				onOpenChange={setSetupOpen}
				onReady={(model) => {
					setSetupOpen(false);
					set("model", model);
				}}
			/>
			{leavePrompt}
		</div>
	);
}

/** What the agent uses, for someone who may not see the full list to choose from. */
function Names({ label, names }: { label: string; names: string[] }) {
	if (!names.length) return <p className="text-sm text-slate-600">None.</p>;
	return (
		<ul aria-label={label} className="list-disc pl-5 text-sm text-slate-800">
			{names.map((name) => (
				<li key={name}>{name}</li>
			))}
		</ul>
	);
}
