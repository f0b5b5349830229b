import { useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Checkbox, Field, Form, Input, Select, Textarea } from "../../components/ui/field";
import { EditorHeader, Section } from "../../components/ui/section";
import { ErrorNote, Loading } from "../../components/ui/status";
import { saveDoc } from "../../lib/api";
import { useDraftForm } from "../../lib/form";
import type { FieldErrors } from "../../lib/rules";
import { useCan } from "../../lib/me";
import { useSuggestions, useToolDoc } from "./api";
import { EffectSelect } from "./EffectSelect";
import { ParamRows, SecretRows } from "./RowsEditors";
import { emptyTool, isFunctionKind, isWebKind, needsRecordType, takesRecordType, TOOL_KINDS, toolEffectHint, toolFieldOfServerError, toolFromDoc, toolToDoc, validateTool, type ToolDraft } from "./rules";
import { TryRequest } from "./TryRequest";

export default function ToolEditor() {
	const { name = "new" } = useParams();
	const isNew = name === "new";
	const loaded = useToolDoc(name, !isNew);
	const can = useCan();
	// The form starts afresh from the saved document, so "Saved." is remembered out here.
	const [saved, setSaved] = useState(false);
	if (!isNew && loaded.isPending) return <Loading />;
	if (loaded.error) return <div className="p-6"><ErrorNote error={loaded.error} /></div>;
	const initial = isNew ? emptyTool() : toolFromDoc(loaded.data ?? {});
	return <Editor key={`${name}:${initial.modified ?? ""}`} isNew={isNew} initial={initial} canWrite={can("tool.write")} saved={saved} onSaved={setSaved} />;
}

type EditorProps = { isNew: boolean; initial: ToolDraft; canWrite: boolean; saved: boolean; onSaved: (saved: boolean) => void };

export function Editor({ isNew, initial, canWrite, saved, onSaved }: EditorProps) {
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const { draft, set, errors, formError, dirty, save, submit } = useDraftForm({
		initial,
		validate: validateTool,
		save: (draft) => saveDoc<Record<string, unknown>>("Agent Tool Function", toolToDoc(draft), isNew ? undefined : initial.tool_name),
		onSaved: async (doc) => {
			await queryClient.invalidateQueries({ queryKey: ["tool-list"] });
			await queryClient.invalidateQueries({ queryKey: ["tools"] });
			queryClient.setQueryData(["tool", String(doc.name)], doc);
			onSaved(true);
			if (isNew) navigate(`/tools/${encodeURIComponent(String(doc.name))}`, { replace: true });
		},
		what: "tool",
		fieldOf: (error) => toolFieldOfServerError(error.title, error.kind),
	});
	// The masked values the server gave back, by header row: kept unless the person types a new one.
	const savedSecrets = useMemo(() => new Map(initial.http_headers.map((row) => [row.name ?? "", row.value])), [initial]);

	const web = isWebKind(draft.types);
	return (
		<div className={web && !isNew ? "grid gap-4 p-4 md:p-6 xl:grid-cols-[minmax(0,1fr)_26rem]" : "mx-auto grid max-w-3xl gap-4 p-4 md:p-6"}>
			<Form label="Tool settings" className="grid content-start gap-4" onSubmit={submit}>
				<EditorHeader title={isNew ? "New tool" : initial.tool_name} dirty={dirty} saving={save.isPending} canSave={canWrite} />
				{!canWrite ? <p className="text-sm text-slate-600">You can look at this tool; changing tools takes a role with that permission.</p> : null}
				{formError ? <ErrorNote error={formError} /> : null}
				{saved && !dirty ? <p role="status" className="text-sm text-green-700">Saved.</p> : null}
				<fieldset disabled={!canWrite} className="grid gap-4">
					<Section title="About">
						<Field label="Name the agent calls it by" error={errors.tool_name} hint={isNew ? "Letters, digits, _ and -, e.g. get_sales_order." : "The name can't be changed after the tool is created."}>
							{(props) => <Input value={draft.tool_name} disabled={!isNew} onChange={(e) => set("tool_name", e.target.value)} {...props} />}
						</Field>
						<Field label="What it does">
							{(props) => (
								<Select value={draft.types} onChange={(e) => set("types", e.target.value)} {...props}>
									{TOOL_KINDS.map((group) => (
										<optgroup key={group.group} label={group.group}>
											{group.kinds.map((kind) => (
												<option key={kind.value} value={kind.value}>{kind.label}</option>
											))}
										</optgroup>
									))}
								</Select>
							)}
						</Field>
						<Field label="Description" error={errors.description} hint="What the tool does and when to use it. The agent reads this to decide whether to use the tool, so be specific.">
							{(props) => <Textarea rows={3} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}
						</Field>
						<Checkbox label="Ask before running: each use waits until the person the agent works for allows it" checked={Boolean(draft.requires_approval)} onChange={(e) => set("requires_approval", e.target.checked ? 1 : 0)} />
						<Field label="If Huf is interrupted during this tool" hint={toolEffectHint(draft.types, draft.effect)}>
							{(props) => <EffectSelect value={draft.effect} onChange={(effect) => set("effect", effect)} {...props} />}
						</Field>
					</Section>
					<Target draft={draft} errors={errors} set={set} savedSecrets={savedSecrets} disabled={!canWrite} />
					<Section title="Inputs">
						<p className="text-sm text-slate-600">{web ? "Optional: these shape the query (GET) or the body (POST)." : "Optional for most kinds: left empty, Huf works them out from the record type or function."}</p>
						<ParamRows rows={draft.parameters} error={errors.parameters} disabled={!canWrite} onChange={(rows) => set("parameters", rows)} />
					</Section>
				</fieldset>
			</Form>
			{web && !isNew && canWrite ? (
				<aside>
					<TryRequest tool={initial.tool_name} post={draft.types === "POST"} baseUrl={initial.base_url} dirty={dirty} />
				</aside>
			) : null}
		</div>
	);
}

type TargetProps = { draft: ToolDraft; errors: FieldErrors<ToolDraft>; set: <K extends keyof ToolDraft>(key: K, value: ToolDraft[K]) => void; savedSecrets: Map<string, string>; disabled: boolean };

/** The fields the chosen kind needs: a record type, a function, an agent, or a web address. */
function Target({ draft, errors, set, savedSecrets, disabled }: TargetProps) {
	const { types } = draft;
	if (takesRecordType(types))
		return (
			<Section title="Records">
				<LinkInput doctype="DocType" label="Kind of record" error={errors.reference_doctype} hint={needsRecordType(types) ? "The records this tool reads or changes, e.g. Sales Order. It acts with the permissions of the person the agent works for." : "Optional: limit this tool to one kind of record."} value={draft.reference_doctype} onChange={(value) => set("reference_doctype", value)} />
			</Section>
		);
	if (isFunctionKind(types))
		return (
			<Section title="Function">
				<Field label="Function" error={errors.function_path} hint="The dotted path of a function in an app installed on this site, e.g. my_app.api.get_stock_level. It runs as the person the agent works for.">
					{(props) => <Input className="font-mono" value={draft.function_path} onChange={(e) => set("function_path", e.target.value)} {...props} />}
				</Field>
				{types === "App Provided" ? (
					<Field label="App" error={errors.provider_app} hint="The app that defines this tool.">
						{(props) => <Input value={draft.provider_app} onChange={(e) => set("provider_app", e.target.value)} {...props} />}
					</Field>
				) : (
					<Checkbox label="Pass all inputs as one piece of JSON text" checked={Boolean(draft.pass_parameters_as_json)} onChange={(e) => set("pass_parameters_as_json", e.target.checked ? 1 : 0)} />
				)}
			</Section>
		);
	if (types === "Run Agent")
		return (
			<Section title="Agent">
				<LinkInput doctype="Agent" label="Agent to ask" error={errors.agent} hint="It receives what the agent writes, and its answer comes back as the tool's result." value={draft.agent} onChange={(value) => set("agent", value)} />
			</Section>
		);
	if (isWebKind(types))
		return (
			<Section title="Web address">
				<Field label="Base address" error={errors.base_url} hint="Optional, e.g. https://api.example.com/v1. The agent then adds only a path (/items/42) and can't reach other addresses. Without it, the agent may call any public web address.">
					{(props) => <Input value={draft.base_url} placeholder="https://" onChange={(e) => set("base_url", e.target.value)} {...props} />}
				</Field>
				<SecretRows label="Headers sent with every request" rows={draft.http_headers} saved={savedSecrets} error={errors.http_headers} disabled={disabled} onChange={(rows) => set("http_headers", rows)} />
			</Section>
		);
	return null;
}

type LinkInputProps = { doctype: "DocType" | "Agent"; label: string; hint: string; error?: string | undefined; value: string; onChange: (value: string) => void };

function LinkInput({ doctype, label, hint, error, value, onChange }: LinkInputProps) {
	const list = useId();
	const suggestions = useSuggestions(doctype, value);
	return (
		<Field label={label} error={error} hint={hint}>
			{(props) => (
				<>
					<Input list={list} value={value} onChange={(e) => onChange(e.target.value)} {...props} />
					<datalist id={list}>
						{suggestions.data?.map((s) => (
							<option key={s.value} value={s.value} />
						))}
					</datalist>
				</>
			)}
		</Field>
	);
}
