import { useQueryClient } from "@tanstack/react-query";
import { Checkbox, Field, Form, Input, Select, SelectField, Textarea } from "../../components/ui/field";
import { EditorHeader, Section } from "../../components/ui/section";
import { ErrorNote } from "../../components/ui/status";
import { useUnsavedGuard } from "../../components/unsaved";
import { useDraftForm } from "../../lib/form";
import { promptFieldOfServerError, savePrompt, shortName, useCategories, validatePrompt, VISIBILITY, type PromptDraft, type PromptKind, type SavedPrompt } from "./api";

type Props = {
	kind: PromptKind;
	initial: PromptDraft;
	/** The prompt being changed; none for a new one. */
	name?: string;
	version?: number;
	onSaved: (saved: SavedPrompt) => void;
};

/** A manager's form for a new prompt or the newest version of one. Saving a changed text makes
 * the next version (the server does it); the older ones stay as they were. */
export function PromptForm({ kind, initial, name, version, onSaved }: Props) {
	const isNew = !name;
	const queryClient = useQueryClient();
	const categories = useCategories(kind);
	const { draft, set, errors, formError, dirty, save, submit } = useDraftForm({
		initial,
		validate: (draft) => validatePrompt(draft, isNew),
		save: (draft) => savePrompt(kind, draft, name),
		onSaved: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: ["prompts", kind] });
			await queryClient.invalidateQueries({ queryKey: ["prompt-text", kind, saved.name] });
			justSaved.current = true;
			onSaved(saved);
		},
		what: "prompt",
		fieldOf: (error) => promptFieldOfServerError(error.title, error.message),
	});
	const { justSaved, prompt: leavePrompt } = useUnsavedGuard(dirty);

	return (
		<Form label="Prompt settings" className="grid content-start gap-4" onSubmit={submit}>
			<EditorHeader title={isNew ? "New prompt" : `Edit version ${version ?? ""}`} dirty={dirty} saving={save.isPending} />
			{formError ? <ErrorNote error={formError} /> : null}
			<Section title="About">
				<Field label="Title" error={errors.title}>
					{(props) => <Input value={draft.title} onChange={(e) => set("title", e.target.value)} {...props} />}
				</Field>
				{isNew ? (
					<Field label="Short name" error={errors.slug} hint={`How agents and links refer to it; it can't be changed later. Empty: ${shortName(draft.title) || "made from the title"}.`}>
						{(props) => <Input value={draft.slug} placeholder={shortName(draft.title)} onChange={(e) => set("slug", e.target.value)} {...props} />}
					</Field>
				) : null}
				<div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
					<Field label="Category" hint={categories.data && !categories.data.length ? "Categories are added in the admin screens." : undefined}>
						{(props) => (
							<Select value={draft.category} onChange={(e) => set("category", e.target.value)} {...props}>
								<option value="">No category</option>
								{(categories.data ?? []).map((category) => (
									<option key={category} value={category}>{category}</option>
								))}
								{draft.category && categories.data && !categories.data.includes(draft.category) ? <option value={draft.category}>{draft.category}</option> : null}
							</Select>
						)}
					</Field>
					<SelectField label="Who can see it" value={draft.visibility} choices={VISIBILITY} onChange={(value) => set("visibility", value)} />
				</div>
				<Field label="Description" hint="What the prompt is for, shown when people pick one.">
					{(props) => <Textarea rows={2} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}
				</Field>
				<Checkbox label="Active (agents can pick it)" checked={Boolean(draft.is_active)} onChange={(e) => set("is_active", e.target.checked ? 1 : 0)} />
			</Section>
			<Section title="Text">
				<Field
					label="Prompt text"
					error={errors.prompt_body}
					hint={kind === "summary" ? "{summary_data} stands for the messages being summarized." : isNew ? "What the model reads before every conversation." : "Saving a changed text makes a new version; the earlier ones are kept as they were."}
				>
					{(props) => <Textarea rows={14} className="font-mono" value={draft.prompt_body} onChange={(e) => set("prompt_body", e.target.value)} {...props} />}
				</Field>
			</Section>
			{leavePrompt}
		</Form>
	);
}
