import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, ChevronRight, LogIn, LogOut, PlugZap, RefreshCw } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Checkbox, Field, Form, Input, NumberInput, SelectField, Textarea } from "../../components/ui/field";
import { EditorHeader, Section } from "../../components/ui/section";
import { ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { getDoc, saveDoc } from "../../lib/api";
import { useDraftForm } from "../../lib/form";
import type { FieldErrors } from "../../lib/rules";
import { EffectSelect } from "./EffectSelect";
import { CONNECTIONS, emptyServer, serverFieldOfServerError, serverFromDoc, serverToDoc, serverToolEffectHint, SIGN_INS, signOut, startSignIn, syncSummary, syncTools, testConnection, validateServer, type McpDraft, type OAuthText, type ServerTool } from "./mcp";
import { SecretInput } from "./SecretInput";
import { SecretRows, type SecretRow } from "./RowsEditors";

/** What Huf forgets when a server is pointed elsewhere (huf/huf/doctype/mcp_server/mcp_server.py). */
const ADDRESS_CHANGE = "Changing it removes the saved key, the headers' values and the sign-in, unless you enter new ones before saving.";
const PROGRAM_CHANGE = "Changing the program or its arguments removes the saved environment values, unless you enter new ones before saving.";
const VARIABLE_WORDS = { keyLabel: "Variable name", example: "e.g. GITHUB_TOKEN", add: "Add a variable" };

/** A saved row's masked value by row name, for SecretRows to show as kept. */
const savedValues = (rows: SecretRow[]) => new Map(rows.map((row) => [row.name ?? "", row.value]));

export default function McpServerPage() {
	const { name = "new" } = useParams();
	const isNew = name === "new";
	// What the last sync found, and that a save went through, outlive the form, which starts afresh from the saved document.
	const [synced, setSynced] = useState<string>();
	const [saved, setSaved] = useState(false);
	const loaded = useQuery({ queryKey: ["mcp-server", name], queryFn: () => getDoc<Record<string, unknown>>("MCP Server", name), enabled: !isNew });
	if (!isNew && loaded.isPending) return <Loading />;
	if (loaded.error) return <div className="p-6"><ErrorNote error={loaded.error} /></div>;
	const initial = isNew ? emptyServer() : serverFromDoc(loaded.data ?? {});
	return <ServerForm key={`${name}:${initial.modified ?? ""}`} isNew={isNew} initial={initial} synced={synced} onSynced={setSynced} saved={saved} onSaved={setSaved} />;
}

type ServerFormProps = { isNew: boolean; initial: McpDraft; synced: string | undefined; onSynced: (summary: string) => void; saved: boolean; onSaved: (saved: boolean) => void };

function ServerForm({ isNew, initial, synced, onSynced, saved, onSaved }: ServerFormProps) {
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const reload = (doc: Record<string, unknown>) => {
		queryClient.setQueryData(["mcp-server", String(doc.name)], doc);
		return queryClient.invalidateQueries({ queryKey: ["mcp-servers"] });
	};
	const { draft, setDraft, set, errors, formError, dirty, save, submit } = useDraftForm({
		initial,
		validate: validateServer,
		save: (draft) => saveDoc<Record<string, unknown>>("MCP Server", serverToDoc(draft), isNew ? undefined : initial.server_name),
		onSaved: async (doc) => {
			await reload(doc);
			onSaved(true);
			if (isNew) navigate(`/tools/servers/${encodeURIComponent(String(doc.name))}`, { replace: true });
		},
		what: "server",
		fieldOf: (error) => serverFieldOfServerError(error.title, error.kind, error.message),
	});
	const savedSecrets = useMemo(() => ({ headers: savedValues(initial.custom_headers), variables: savedValues(initial.environment) }), [initial]);

	const web = draft.transport_type !== "stdio";
	const keyed = ["api_key", "bearer_token", "custom_header"].includes(draft.auth_type);
	return (
		<div className="mx-auto grid max-w-3xl grid-cols-1 gap-4 p-4 md:p-6">
			<Form label="Tool server settings" onSubmit={submit}>
				<EditorHeader title={isNew ? "Connect a tool server" : initial.server_name} dirty={dirty} saving={save.isPending} />
				<p className="text-sm text-slate-600">A tool server (an MCP server) offers ready-made tools, e.g. for GitHub or a mailbox. Once connected, you choose which of its tools agents may use.</p>
				{formError ? <ErrorNote error={formError} /> : null}
				{saved && !dirty ? <p role="status" className="text-sm text-green-700">Saved.</p> : null}

				<Section title="About">
					<Field label="Name" error={errors.server_name} hint={isNew ? "Short, e.g. github. Its tools are named after it." : "The name can't be changed after the server is added."}>
						{(props) => <Input value={draft.server_name} disabled={!isNew} onChange={(e) => set("server_name", e.target.value)} {...props} />}
					</Field>
					<Field label="Description">
						{(props) => <Textarea rows={2} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}
					</Field>
					<Checkbox label="Switched on (agents may use its tools)" checked={Boolean(draft.enabled)} onChange={(e) => set("enabled", e.target.checked ? 1 : 0)} />
				</Section>

				<Section title="Connection">
					<SelectField label="How Huf reaches it" error={errors.transport_type} value={draft.transport_type} choices={CONNECTIONS} onChange={(value) => set("transport_type", value)} />
					{web ? (
						<Field label="Address" error={errors.server_url} hint={`The server's address, e.g. https://mcp.example.com/mcp.${isNew ? "" : ` ${ADDRESS_CHANGE}`}`}>
							{(props) => <Input value={draft.server_url} placeholder="https://" onChange={(e) => set("server_url", e.target.value)} {...props} />}
						</Field>
					) : (
						<>
							<Field label="Program" error={errors.command} hint={`The program's full path. An administrator must allow it in the site's settings first.${isNew ? "" : ` ${PROGRAM_CHANGE}`}`}>
								{(props) => <Input className="font-mono" value={draft.command} onChange={(e) => set("command", e.target.value)} {...props} />}
							</Field>
							<Field label="Program arguments" hint="One per line.">
								{(props) => <Textarea rows={2} className="font-mono" value={draft.command_args} onChange={(e) => set("command_args", e.target.value)} {...props} />}
							</Field>
							<SecretRows label="Environment variables (the program gets only these, besides PATH)" rows={draft.environment} saved={savedSecrets.variables} error={errors.environment} disabled={false} words={VARIABLE_WORDS} onChange={(rows) => set("environment", rows)} />
						</>
					)}
					<Field label="Time limit (seconds)" error={errors.timeout_seconds} hint="How long to wait for the server on each call.">
						{(props) => <NumberInput min={1} value={draft.timeout_seconds} onValue={(value) => set("timeout_seconds", value)} {...props} />}
					</Field>
					<Checkbox label="Fetch the server's tool list again now and then" checked={Boolean(draft.enable_auto_sync)} onChange={(e) => set("enable_auto_sync", e.target.checked ? 1 : 0)} />
					{draft.enable_auto_sync ? (
						<Field label="Fetch the tool list every (hours)" error={errors.auto_sync_interval} hint="e.g. 24 for once a day. New tools arrive switched on; tools no longer offered are switched off.">
							{(props) => <NumberInput min={1} step={1} value={draft.auto_sync_interval} onValue={(value) => set("auto_sync_interval", value)} {...props} />}
						</Field>
					) : null}
				</Section>

				{web ? (
					<Section title="Sign-in">
						<SelectField label="How Huf signs in" value={draft.auth_type} choices={SIGN_INS} onChange={(value) => set("auth_type", value)} />
						{draft.auth_type === "api_key" || draft.auth_type === "custom_header" ? (
							<Field label="Header name" error={errors.auth_header_name} hint={draft.auth_type === "api_key" ? "Optional; X-API-Key when empty." : "e.g. X-Api-Key"}>
								{(props) => <Input value={draft.auth_header_name} onChange={(e) => set("auth_header_name", e.target.value)} {...props} />}
							</Field>
						) : null}
						{keyed ? (
							<Field label="Key or token" error={errors.auth_header_value} hint="Stored encrypted; never shown again after saving.">
								{(props) => <SecretInput value={draft.auth_header_value} saved={initial.auth_header_value} onChange={(value) => set("auth_header_value", value)} {...props} />}
							</Field>
						) : null}
						{draft.auth_type === "oauth" ? (
							<>
								<SignIn server={isNew ? null : initial.server_name} status={initial.oauth_status} dirty={dirty} onSignedOut={async () => {
									const doc = await getDoc<Record<string, unknown>>("MCP Server", initial.server_name);
									await reload(doc);
									setDraft(serverFromDoc(doc)); // signing out also forgets the client ID Huf registered
								}} />
								<AdvancedSignIn draft={draft} saved={initial.oauth_client_secret} errors={errors} set={set} />
							</>
						) : null}
						<SecretRows label="Extra headers" rows={draft.custom_headers} saved={savedSecrets.headers} error={errors.custom_headers} disabled={false} onChange={(rows) => set("custom_headers", rows)} />
					</Section>
				) : null}

				{!isNew ? <ServerTools server={initial.server_name} tools={draft.tools} lastSync={initial.last_sync} dirty={dirty} synced={synced} onChange={(tools) => set("tools", tools)} onSynced={async (summary, doc) => {
						onSynced(summary);
						await reload(doc);
					}} /> : null}
			</Form>
		</div>
	);
}

type SignInProps = { server: string | null; status: string; dirty: boolean; onSignedOut: () => Promise<unknown> };

/** Sign in with the service, or (once signed in) disconnect after saying what that means. */
function SignIn({ server, status, dirty, onSignedOut }: SignInProps) {
	const [confirming, setConfirming] = useState(false);
	const questionId = useId();
	const start = useMutation({ mutationFn: () => startSignIn(server ?? ""), onSuccess: ({ authorization_url }) => window.open(authorization_url, "_blank", "noopener") });
	const stop = useMutation({
		mutationFn: async () => {
			await signOut(server ?? "");
			await onSignedOut();
		},
		onSettled: () => setConfirming(false),
	});
	return (
		<div className="grid gap-2">
			<p className="text-sm">
				Signed in: <StatusBadge status={status === "Connected" ? "Ready" : status === "Failed" ? "Failed" : "Not signed in"} />
			</p>
			<div className="flex flex-wrap gap-2">
				<Button variant="outline" disabled={!server || dirty || start.isPending} onClick={() => start.mutate()}>
					<LogIn className="h-4 w-4" aria-hidden /> Sign in
				</Button>
				{status === "Connected" && !confirming ? (
					<Button variant="outline" disabled={!server || dirty} onClick={() => setConfirming(true)}>
						<LogOut className="h-4 w-4" aria-hidden /> Disconnect
					</Button>
				) : null}
			</div>
			{confirming ? (
				<div role="alertdialog" aria-labelledby={questionId} className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
					<p id={questionId} className="flex-1">Disconnect from the service? Huf forgets the sign-in, and agents can't use this server's tools until someone signs in again.</p>
					<Button size="sm" variant="danger" disabled={stop.isPending} onClick={() => stop.mutate()}>{stop.isPending ? "Disconnecting…" : "Disconnect"}</Button>
					<Button size="sm" variant="outline" autoFocus onClick={() => setConfirming(false)}>Stay signed in</Button>
				</div>
			) : null}
			<p className="text-xs text-slate-500">{!server || dirty ? "Save first, then sign in." : "Opens the service's sign-in page in a new tab. Come back and test the connection when done."}</p>
			{start.isError ? <ErrorNote error={start.error} /> : null}
			{stop.isError ? <ErrorNote error={stop.error} /> : null}
		</div>
	);
}

type AdvancedSignInProps = { draft: McpDraft; saved: string; errors: FieldErrors<McpDraft>; set: <K extends keyof McpDraft>(key: K, value: McpDraft[K]) => void };

/** What most services don't need: closed until opened, or until one of its fields needs attention. */
function AdvancedSignIn({ draft, saved, errors, set }: AdvancedSignInProps) {
	const [open, setOpen] = useState(false);
	const panelId = useId();
	const shown = open || Boolean(errors.oauth_extra_authorize_params);
	const text = (key: Exclude<OAuthText, "oauth_extra_authorize_params">, label: string, hint: string, placeholder = "") => (
		<Field label={label} error={errors[key]} hint={hint}>
			{(props) => <Input value={draft[key]} placeholder={placeholder} onChange={(e) => set(key, e.target.value)} {...props} />}
		</Field>
	);
	return (
		<div className="grid gap-3">
			<Button variant="ghost" size="sm" className="justify-self-start" aria-expanded={shown} aria-controls={shown ? panelId : undefined} onClick={() => setOpen(!shown)}>
				{shown ? <ChevronDown className="h-4 w-4" aria-hidden /> : <ChevronRight className="h-4 w-4" aria-hidden />} Advanced sign-in settings
			</Button>
			{shown ? (
				<div id={panelId} className="grid gap-4 border-l-2 border-slate-200 pl-4">
					<p className="text-xs text-slate-500">Most services need none of these. Fill them in only when the service's instructions ask for them.</p>
					{text("oauth_scope", "Permissions to ask for", "Separated by spaces, e.g. read write. Leave blank for the service's usual ones.")}
					{text("oauth_client_id", "Client ID", "Leave blank when the server lets Huf register itself.")}
					<Field label="Client secret" error={errors.oauth_client_secret} hint="Leave blank when the server lets Huf register itself. Stored encrypted; never shown again after saving.">
						{(props) => <SecretInput value={draft.oauth_client_secret} saved={saved} onChange={(value) => set("oauth_client_secret", value)} {...props} />}
					</Field>
					{text("oauth_authorization_endpoint", "Sign-in page address", "Leave blank when the server publishes them.", "https://example.com/oauth/authorize")}
					{text("oauth_token_endpoint", "Token address", "Leave blank when the server publishes them.", "https://example.com/oauth/token")}
					<Field label="Extra settings for the sign-in page" error={errors.oauth_extra_authorize_params} hint={'As JSON with text values, e.g. {"access_type": "offline"}. Added to the sign-in page\'s address.'}>
						{(props) => <Textarea rows={2} className="font-mono" value={draft.oauth_extra_authorize_params} onChange={(e) => set("oauth_extra_authorize_params", e.target.value)} {...props} />}
					</Field>
					{text("oauth_redirect_uri", "Return address after sign-in", "Leave blank to use this site's own sign-in return address.")}
					{text("oauth_token_response_path", "Where the token is in the service's reply", "Only when the service nests it, e.g. authed_user.access_token. Leave blank otherwise.")}
				</div>
			) : null}
		</div>
	);
}

type ServerToolsProps = { server: string; tools: ServerTool[]; lastSync: string; dirty: boolean; synced: string | undefined; onChange: (tools: ServerTool[]) => void; onSynced: (summary: string, doc: Record<string, unknown>) => Promise<unknown> };

/** Test connection, fetch the server's tools, and choose which are on and which ask first. */
function ServerTools({ server, tools, lastSync, dirty, synced, onChange, onSynced }: ServerToolsProps) {
	const test = useMutation({ mutationFn: () => testConnection(server) });
	const sync = useMutation({
		mutationFn: async () => {
			const summary = syncSummary(await syncTools(server));
			await onSynced(summary, await getDoc<Record<string, unknown>>("MCP Server", server));
		},
	});
	const change = (index: number, patch: Partial<ServerTool>) => onChange(tools.map((tool, i) => (i === index ? { ...tool, ...patch } : tool)));
	const report = test.data;
	return (
		<Section title="Tools from this server">
			<div className="flex flex-wrap gap-2">
				<Button variant="outline" disabled={dirty || test.isPending} onClick={() => (sync.reset(), test.mutate())}>
					<PlugZap className="h-4 w-4" aria-hidden /> {test.isPending ? "Testing…" : "Test connection"}
				</Button>
				<Button variant="outline" disabled={dirty || sync.isPending} onClick={() => (test.reset(), sync.mutate())}>
					<RefreshCw className="h-4 w-4" aria-hidden /> {sync.isPending ? "Fetching tools…" : "Sync tools"}
				</Button>
			</div>
			{dirty ? <p className="text-xs text-amber-700">Save your changes first; testing and syncing use the saved settings.</p> : null}
			{/* Only the last of Test and Sync says how it went, once: each note is its own live region. */}
			<div className="grid gap-2">
				{report?.ok ? (
					<p role="status" className="text-sm text-green-700">
						Connected to {report.server_name || server}
						{report.server_version ? ` ${report.server_version}` : ""}
						{report.tool_count !== null ? `, which offers ${report.tool_count} tool${report.tool_count === 1 ? "" : "s"}` : ""}.
					</p>
				) : null}
				{report && !report.ok ? <ErrorNote error={report.error || "The connection failed."} /> : null}
				{test.isError ? <ErrorNote error={test.error} /> : null}
				{synced ? <p role="status" className="text-sm text-green-700">{synced}</p> : null}
				{sync.isError ? <ErrorNote error={sync.error} /> : null}
			</div>
			<p className="text-xs text-slate-500">{lastSync ? `Last fetched ${new Date(lastSync.replace(" ", "T")).toLocaleString()}.` : "Not fetched yet: use Sync tools."}</p>
			{tools.length ? (
				<ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Server tools">
					{tools.map((tool, index) => (
						<ServerToolRow key={tool.name ?? tool.tool_name} tool={tool} onChange={(patch) => change(index, patch)} />
					))}
				</ul>
			) : null}
			{tools.length ? <p className="text-xs text-slate-500">Changes to these switches are kept when you save.</p> : null}
		</Section>
	);
}

/** One tool: its switches, and what Huf does if interrupted during it (with the server's say on it). */
function ServerToolRow({ tool, onChange }: { tool: ServerTool; onChange: (patch: Partial<ServerTool>) => void }) {
	const id = useId();
	return (
		<li className="grid gap-2 p-3 sm:grid-cols-[1fr_auto_auto] sm:items-start sm:gap-x-4">
			<div className="min-w-0">
				<p className="text-sm font-medium">{tool.tool_name}</p>
				<p className="text-xs text-slate-600">{tool.description}</p>
			</div>
			<Checkbox label="On" aria-label={`Use ${tool.tool_name}`} checked={Boolean(tool.enabled)} onChange={(e) => onChange({ enabled: e.target.checked ? 1 : 0 })} />
			<div className="grid gap-1.5 sm:w-56">
				<Checkbox label="Ask before running" aria-label={`Ask before running ${tool.tool_name}`} checked={Boolean(tool.requires_approval)} onChange={(e) => onChange({ requires_approval: e.target.checked ? 1 : 0 })} />
				<label htmlFor={id} className="text-xs font-medium text-slate-700">If Huf is interrupted</label>
				<EffectSelect id={id} aria-label={`If Huf is interrupted during ${tool.tool_name}`} aria-describedby={`${id}-hint`} value={tool.effect} onChange={(effect) => onChange({ effect })} />
				<p id={`${id}-hint`} className="text-xs text-slate-500">{serverToolEffectHint(tool)}</p>
			</div>
		</li>
	);
}
