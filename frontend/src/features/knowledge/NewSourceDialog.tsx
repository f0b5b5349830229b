import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Checkbox, Field, Form, Input, NumberInput, Select, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { useDraftForm } from "../../lib/form";
import { useProviders } from "../providers/api";
import { createSource, KIND_LABELS, type SearchKind } from "./api";
import { byMeaning, emptySource, sourceDoc, validateSource, type SourceDraft } from "./validation";

export function NewSourceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const providers = useProviders();
	// Its errors show next to their fields, the server's above them: no "Some fields need attention".
	const { draft, set, errors, save, submit } = useDraftForm({
		initial: emptySource(),
		validate: validateSource,
		save: (draft) => createSource(sourceDoc(draft)),
		onSaved: async (doc) => {
			await queryClient.invalidateQueries({ queryKey: ["knowledge"] });
			onOpenChange(false);
			navigate(`/knowledge/${encodeURIComponent(doc.name)}`);
		},
	});
	const number = (key: "chunk_size" | "chunk_overlap" | "vector_dimension" | "chroma_port", label: string, hint?: string) => (
		<Field label={label} error={errors[key]} hint={hint}>
			{(props) => <NumberInput value={draft[key]} onValue={(value) => set(key, value)} {...props} />}
		</Field>
	);
	return (
		<Dialog open={open} onOpenChange={onOpenChange} title="New knowledge source" description="A collection of documents your agents can answer from.">
			<Form onSubmit={submit}>
				{save.error ? <ErrorNote error={save.error} /> : null}
				<Field label="Name" error={errors.source_name}>
					{(props) => <Input value={draft.source_name} onChange={(e) => set("source_name", e.target.value)} {...props} />}
				</Field>
				<Field label="Description" hint="What is in it; agents read this when they decide whether to search it.">
					{(props) => <Textarea rows={2} value={draft.description} onChange={(e) => set("description", e.target.value)} {...props} />}
				</Field>
				<Field label="How to search" hint="Keyword search needs nothing else. Meaning search also finds passages that use other words, and needs a model that turns text into numbers.">
					{(props) => (
						<Select value={draft.knowledge_type} onChange={(e) => set("knowledge_type", e.target.value as SearchKind)} {...props}>
							{Object.entries(KIND_LABELS).map(([kind, label]) => (
								<option key={kind} value={kind}>{label}</option>
							))}
						</Select>
					)}
				</Field>
				{byMeaning(draft.knowledge_type) ? (
					<>
						<Field label="Provider of the meaning model" error={errors.embedding_provider} hint="A local server such as Ollama works without a paid key.">
							{(props) => (
								<Select value={draft.embedding_provider} onChange={(e) => set("embedding_provider", e.target.value)} {...props}>
									<option value="">Choose a provider…</option>
									{(providers.data ?? []).map((p) => (
										<option key={p.name} value={p.name}>{p.name}</option>
									))}
								</Select>
							)}
						</Field>
						<Field label="Meaning model" error={errors.embedding_model}>
							{(props) => <Input value={draft.embedding_model} placeholder="text-embedding-3-small" onChange={(e) => set("embedding_model", e.target.value)} {...props} />}
						</Field>
						{number("vector_dimension", "Numbers per text", "What the model returns for each text: 1536 for text-embedding-3-small, 768 for nomic-embed-text. Huf checks it when you save.")}
					</>
				) : null}
				{draft.knowledge_type === "chroma" ? (
					<>
						<Field label="Where Chroma keeps the index">
							{(props) => (
								<Select value={draft.chroma_mode} onChange={(e) => set("chroma_mode", e.target.value as SourceDraft["chroma_mode"])} {...props}>
									<option value="File">In this site's private files</option>
									<option value="Server">On a Chroma server</option>
								</Select>
							)}
						</Field>
						{draft.chroma_mode === "Server" ? (
							<div className="grid gap-4 sm:grid-cols-2">
								<Field label="Server host" error={errors.chroma_host}>
									{(props) => <Input value={draft.chroma_host} onChange={(e) => set("chroma_host", e.target.value)} {...props} />}
								</Field>
								{number("chroma_port", "Server port")}
								<Checkbox label="Connect securely (HTTPS)" checked={Boolean(draft.chroma_ssl)} onChange={(e) => set("chroma_ssl", e.target.checked ? 1 : 0)} />
							</div>
						) : null}
					</>
				) : null}
				<div className="grid gap-4 sm:grid-cols-2">
					{number("chunk_size", "Passage size (characters)")}
					{number("chunk_overlap", "Overlap between passages (characters)")}
				</div>
				<div className="flex justify-end gap-2">
					<Button variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
					<Button type="submit" disabled={save.isPending}>{save.isPending ? "Creating…" : "Create source"}</Button>
				</div>
			</Form>
		</Dialog>
	);
}
